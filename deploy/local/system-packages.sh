#!/usr/bin/env bash
# Debian packages the tests need beyond Node: xmllint (package libxml2-utils) validates the CIS300 return
# XML against HMRC's schema (services/cis/test/documents/cis300-xml.test.ts); qpdf checks and pdftotext (package
# poppler-utils) reads the drive's stamped PDFs (services/drive/test/signatures.int.test.ts); kcat, an independent
# Kafka client, reads audit.v1 as an auditor would (services/audit/test/kcat.int.test.ts).
# shellcheck source=lib.sh source-path=SCRIPTDIR
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

if ! command -v xmllint >/dev/null 2>&1; then
  log "installing Debian's libxml2-utils (xmllint) for the CIS300 schema tests"
  apt_install xmllint libxml2-utils "the CIS tests"
  command -v xmllint >/dev/null 2>&1 || die "libxml2-utils installed but xmllint is not on the PATH."
  log "xmllint ready"
fi

if ! command -v qpdf >/dev/null 2>&1; then
  log "installing Debian's qpdf for the drive's signature tests"
  apt_install qpdf qpdf "the drive's signature tests"
  command -v qpdf >/dev/null 2>&1 || die "qpdf installed but not on the PATH."
  log "qpdf ready"
fi

if ! command -v pdftotext >/dev/null 2>&1; then
  log "installing Debian's poppler-utils (pdftotext) for the drive's signature tests"
  apt_install pdftotext poppler-utils "the drive's signature tests"
  command -v pdftotext >/dev/null 2>&1 || die "poppler-utils installed but pdftotext is not on the PATH."
  log "pdftotext ready"
fi

if ! command -v kcat >/dev/null 2>&1; then
  log "installing Debian's kcat for the audit stream test"
  apt_install kcat kcat "the audit stream test"
  command -v kcat >/dev/null 2>&1 || die "kcat installed but not on the PATH."
  log "kcat ready"
fi
