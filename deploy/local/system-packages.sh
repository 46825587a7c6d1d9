#!/usr/bin/env bash
# Debian packages the tests need beyond Node: xmllint (package libxml2-utils) validates the CIS300 return
# XML against HMRC's schema (services/cis/test/documents/cis300-xml.test.ts).
# shellcheck source=lib.sh source-path=SCRIPTDIR
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

if command -v xmllint >/dev/null 2>&1; then exit 0; fi
need apt-get "Install xmllint (Debian package 'libxml2-utils') and run this again."
sudo_cmd=()
if [ "$(id -u)" -ne 0 ]; then
  need sudo "Install xmllint as root: apt-get install -y libxml2-utils"
  sudo_cmd=(sudo)
fi
log "installing Debian's libxml2-utils (xmllint) for the CIS300 schema tests"
"${sudo_cmd[@]}" apt-get update -qq >/dev/null || die "apt-get update failed; the CIS tests need 'libxml2-utils'."
DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq libxml2-utils >/dev/null \
  || die "apt-get install libxml2-utils failed; the CIS tests need xmllint."
command -v xmllint >/dev/null 2>&1 || die "libxml2-utils installed but xmllint is not on the PATH."
log "xmllint ready"
