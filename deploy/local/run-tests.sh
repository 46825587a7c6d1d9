#!/usr/bin/env bash
# `make test`: installs what is missing, starts real PostgreSQL, Kafka and MinIO (or uses the ones running),
# runs every suite, and ends with the totals over all suites alone on the last line.
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cd "$REPO_DIR"

# Stop afterwards only what this run started (KEEP_INFRA=1 keeps everything running).
stop_on_exit_what_this_run_starts

bash "$LOCAL_DIR/install.sh"
bash "$LOCAL_DIR/chromium.sh"
bash "$LOCAL_DIR/system-packages.sh"
log "building the web bundles (the browser tests serve them)"
npm run build --silent -w @workspace/web >/dev/null || die "the web build failed (npm run build -w @workspace/web)"
infra_up_with_env

reports="$REPO_DIR/test-results"
rm -rf "$reports" && mkdir -p "$reports"
export NODE_OPTIONS="--experimental-vm-modules --no-warnings=ExperimentalWarning"
jest=(node node_modules/jest/bin/jest.js --ci)

status=0
"${jest[@]}" --selectProjects unit --json --outputFile="$reports/unit.json" || status=1
# The integration suites run one file at a time (they share the infrastructure, and some stop and start it) in one
# worker process that jest replaces once it holds more than 1 GB between files: every file's module registry stays
# in the process that ran it (jest's ESM modules are never released), and in one process for the whole run the
# drive's suites took the heap past 4 GB.
"${jest[@]}" --selectProjects integration --maxWorkers=1 --workerIdleMemoryLimit=1GB --testTimeout=120000 --json --outputFile="$reports/integration.json" || status=1

# The kit's Kafka adapter over TLS with SCRAM and ACLs, against a broker of its own (deploy/local/kafka-auth.sh).
bash "$LOCAL_DIR/kafka-auth.sh" test --ci --json --outputFile="$reports/kafka-auth.json" || status=1

# Stop what this run started before the totals, so they stay the last line.
stop_components_started_here
node "$LOCAL_DIR/test-totals.mjs" "$reports/unit.json" "$reports/integration.json" "$reports/kafka-auth.json" || status=1
exit $status
