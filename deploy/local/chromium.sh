#!/usr/bin/env bash
# Debian's Chromium for the browser tests (playwright-core drives /usr/bin/chromium; no browser download).
# shellcheck source=lib.sh source-path=SCRIPTDIR
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

if [ -x /usr/bin/chromium ]; then exit 0; fi
need apt-get "Install Chromium (Debian package 'chromium') and run this again."
sudo_cmd=()
if [ "$(id -u)" -ne 0 ]; then
  need sudo "Install Chromium as root: apt-get install -y chromium"
  sudo_cmd=(sudo)
fi
log "installing Debian's chromium for the browser tests (about a minute, once)"
"${sudo_cmd[@]}" apt-get update -qq >/dev/null || die "apt-get update failed; the browser tests need the 'chromium' package."
DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq chromium >/dev/null \
  || die "apt-get install chromium failed; the browser tests need it."
[ -x /usr/bin/chromium ] || die "chromium installed but /usr/bin/chromium is missing."
log "chromium ready"
