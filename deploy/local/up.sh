#!/usr/bin/env bash
# `make up`: the product on its embedded default, in the foreground until Ctrl-C. PostgreSQL (the
# embedded-postgres package's binaries) and MinIO keep their data under .data/ in the repo, so it survives a
# restart; the services run in one Node process on the in-process event bus (no Kafka).
REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
export WORKSPACE_STATE="${WORKSPACE_STATE:-$REPO/.data}"
export PG_PORT="${UP_PG_PORT:-15432}" MINIO_PORT="${UP_MINIO_PORT:-19000}" MINIO_CONSOLE_PORT="${UP_MINIO_CONSOLE_PORT:-19001}"
# shellcheck source=lib.sh source-path=SCRIPTDIR
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cd "$REPO_DIR"

bash "$LOCAL_DIR/install.sh"
log "building the web bundles"
npm run build --silent -w @workspace/web >/dev/null || die "the web build failed (npm run build -w @workspace/web)"
stop_infra() {
  bash "$LOCAL_DIR/minio.sh" stop || true
  bash "$LOCAL_DIR/postgres.sh" stop || true
}
trap stop_infra EXIT
bash "$LOCAL_DIR/postgres.sh" start
bash "$LOCAL_DIR/minio.sh" start

export DATABASE_ADMIN_URL="postgres://postgres@127.0.0.1:$PG_PORT/postgres"
export MINIO_ENDPOINT="http://127.0.0.1:$MINIO_PORT"
# The drive signs in to MinIO with these; browsers reach MinIO at OBJECT_STORE_PUBLIC_URL (the presigned URLs' origin,
# allowed by the bff's CSP and by MinIO's CORS for http://localhost:*).
export MINIO_ROOT_USER MINIO_ROOT_PASSWORD
export OBJECT_STORE_PUBLIC_URL="${OBJECT_STORE_PUBLIC_URL:-$MINIO_ENDPOINT}"
node --conditions=development --import tsx "$LOCAL_DIR/embedded.ts"
