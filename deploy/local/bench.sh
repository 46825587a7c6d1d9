#!/usr/bin/env bash
# `make bench`: the platform benchmarks, printed and never asserted. Installs what is missing, starts real
# PostgreSQL, Kafka and MinIO (or uses the ones running, and then leaves them running), and runs
#   services/kit/bench/outbox.bench.ts  events through the outbox against bare kafkajs
#   services/kit/bench/http.bench.ts    the kit's request overhead against bare express
#   services/drive/bench/purge.bench.ts the time to purge 1,000 files (records and objects) against bare removal
#   services/cis/bench/cis.bench.ts     CIS on one 100,000-invoice tenant: list, compile, approve, CSV import and
#                                       export, the import's row checks, statement PDFs
#   services/drive/bench/transfer.bench.ts  a 1 GiB file up (grant, presigned parts, complete with its checks) and
#                                       down (presigned GET) beside the npm minio client on the same MinIO
#   services/drive/bench/file-list.bench.ts  the file list of one drive of 100,000 files beside the bare SQL page
#   services/audit/bench/audit.bench.ts the audit trail's ingest (events/s) and a domain write to its audit.v1
#                                       record (p95) beside the raw Kafka round trip
#   web/bench/first-load.bench.ts       a CIS page's first load in Chromium (navigation start to the last data
#                                       response) beside the same API calls made by a script at once
# A missed target is reported as "not met" without failing; a benchmark that cannot run exits non-zero.
# Sizes: BENCH_EVENTS, BENCH_WRITERS, BENCH_WARMUP, BENCH_KIT_EVENTS, BENCH_HTTP_DURATION_S, BENCH_HTTP_WARMUP_S,
# BENCH_HTTP_CONNECTIONS, BENCH_CIS_INVOICES, BENCH_CIS_IMPORT_ROWS, BENCH_CIS_CONNECTIONS, BENCH_CIS_DURATION_S,
# BENCH_FIRST_LOAD_RUNS, BENCH_FIRST_LOAD_WARMUP, BENCH_DRIVE_TRANSFER_MIB, BENCH_DRIVE_RUNS, BENCH_DRIVE_FILES,
# BENCH_DRIVE_REQUESTS, BENCH_AUDIT_EVENTS, BENCH_AUDIT_TENANTS, BENCH_AUDIT_WRITES, BENCH_AUDIT_CONCURRENCY, BENCH_PURGE_FILES, BENCH_PURGE_BYTES, BENCH_PURGE_SEED_CONCURRENCY
# (see the top of each benchmark).
# shellcheck source=lib.sh source-path=SCRIPTDIR
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cd "$REPO_DIR"

# Stop afterwards only what this run started (KEEP_INFRA=1 keeps everything running).
stop_on_exit_what_this_run_starts

bash "$LOCAL_DIR/install.sh"
infra_up_with_env
# Measured as deployed: the test helpers the benchmarks start services with would otherwise check every answer
# against its response schema (VALIDATE_RESPONSES=1), which production does not do.
export VALIDATE_RESPONSES=0

status=0
run_bench() {
  # run_bench <title> <file>: TypeScript through tsx, with the workspace packages' sources (the `development`
  # export condition), as infra.sh and up.sh run theirs.
  local title=$1 file=$2 start=$SECONDS
  printf '\n== %s ==\n' "$title"
  node --conditions=development --import tsx "$file" || { status=1; printf '(%s failed)\n' "$title"; }
  printf '(%s: %d s)\n' "$title" "$((SECONDS - start))"
}

run_bench "Outbox: transactional outbox vs bare kafkajs" services/kit/bench/outbox.bench.ts
run_bench "HTTP: kit request overhead vs bare express" services/kit/bench/http.bench.ts
run_bench "bff: authenticated call vs a bare proxy hop; scope lookup" bff/bench/bff.bench.ts
run_bench "cis: list, compile, approve, CSV import and export, and statement PDFs on 100,000 invoices" services/cis/bench/cis.bench.ts
run_bench "drive: 1 GiB upload and download through the product's path vs the minio client" services/drive/bench/transfer.bench.ts
run_bench "drive: the file list of one drive of 100,000 files vs the bare SQL page" services/drive/bench/file-list.bench.ts
run_bench "drive: purge 1,000 files (records and objects) vs bare removeObjects and SQL" services/drive/bench/purge.bench.ts
run_bench "audit: ingest (events/s) and a domain write to its audit.v1 record vs the raw Kafka round trip" services/audit/bench/audit.bench.ts
# The browser benchmark serves the built bundles, as `make up` does.
npm run build --silent -w @workspace/web >/dev/null || { status=1; printf '(the web build failed)\n'; }
run_bench "web: a CIS page's first load in Chromium vs its API calls made at once" web/bench/first-load.bench.ts

stop_components_started_here
exit $status
