#!/usr/bin/env bash
# Debian packages the tests need beyond Node: xmllint (package libxml2-utils) validates the CIS300 return
# XML against HMRC's schema (services/cis/test/documents/cis300-xml.test.ts).
# shellcheck source=lib.sh source-path=SCRIPTDIR
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

if command -v xmllint >/dev/null 2>&1; then exit 0; fi
log "installing Debian's libxml2-utils (xmllint) for the CIS300 schema tests"
apt_install xmllint libxml2-utils "the CIS tests"
command -v xmllint >/dev/null 2>&1 || die "libxml2-utils installed but xmllint is not on the PATH."
log "xmllint ready"
