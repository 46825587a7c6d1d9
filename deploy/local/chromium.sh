#!/usr/bin/env bash
# Debian's Chromium for the browser tests (playwright-core drives /usr/bin/chromium; no browser download).
# shellcheck source=lib.sh source-path=SCRIPTDIR
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

if [ -x /usr/bin/chromium ]; then exit 0; fi
log "installing Debian's chromium for the browser tests (about a minute, once)"
apt_install Chromium chromium "the browser tests"
[ -x /usr/bin/chromium ] || die "chromium installed but /usr/bin/chromium is missing."
log "chromium ready"
