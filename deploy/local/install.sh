#!/usr/bin/env bash
# Installs the repo's npm dependencies when they are missing or older than package-lock.json.
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cd "$REPO_DIR"
need node "Install Node.js 20.19 or newer (https://nodejs.org) and run this again."
need npm "npm comes with Node.js; install Node.js 20.19 or newer."
if [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  # `npm install --no-save` from the lock file rather than `npm ci`: the lock lacks other platforms' optional
  # binaries (the registry this project installs from serves only linux-x64 ones), which `npm ci` refuses.
  log "installing npm dependencies"
  npm install --no-save --no-audit --no-fund --loglevel=error
fi
