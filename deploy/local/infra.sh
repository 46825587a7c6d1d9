#!/usr/bin/env bash
# All local infrastructure for tests: PostgreSQL, Kafka and MinIO, each installed and started by its script.
#   infra.sh up     install (first time) and start all three; timings on stderr
#   infra.sh down   stop all three (data is kept in $STATE)
#   infra.sh status exit 0 when all three are running
#   infra.sh env    print `export` lines for tests on stdout:  eval "$(deploy/local/infra.sh env)"
# shellcheck source=lib.sh source-path=SCRIPTDIR
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

now_ms() { date +%s%3N; }

up() {
  local total_start component start
  total_start=$(now_ms)
  for component in postgres kafka minio; do
    start=$(now_ms)
    bash "$LOCAL_DIR/$component.sh" start || die "$component did not start (see the messages above)"
    log "$component ready in $(( $(now_ms) - start )) ms"
  done
  start=$(now_ms)
  KAFKA_BROKERS="127.0.0.1:$KAFKA_PORT" node --conditions=development --import tsx "$LOCAL_DIR/topics.ts" || die "could not create the Kafka topics"
  log "topics ensured in $(( $(now_ms) - start )) ms"
  log "all infrastructure up in $(( $(now_ms) - total_start )) ms"
}

down() {
  # Stop everything even if one of them fails to stop; report failure at the end.
  local component failed=()
  for component in minio kafka postgres; do
    bash "$LOCAL_DIR/$component.sh" stop || failed+=("$component")
  done
  [ "${#failed[@]}" -eq 0 ] || die "could not stop: ${failed[*]}"
}

env_lines() {
  # The scripts' own settings are exported too, so that tests calling
  # $WORKSPACE_INFRA_DIR/{kafka,postgres}.sh stop|start act on the same state directory and ports.
  local name
  for name in \
    "TEST_DATABASE_URL=postgres://postgres@127.0.0.1:$PG_PORT/postgres" \
    "TEST_KAFKA_BROKERS=127.0.0.1:$KAFKA_PORT" \
    "TEST_MINIO_ENDPOINT=http://127.0.0.1:$MINIO_PORT" \
    "TEST_MINIO_ACCESS_KEY=$MINIO_ROOT_USER" \
    "TEST_MINIO_SECRET_KEY=$MINIO_ROOT_PASSWORD" \
    "WORKSPACE_INFRA_DIR=$LOCAL_DIR" \
    "WORKSPACE_CACHE=$(cd "$CACHE" && pwd)" \
    "WORKSPACE_STATE=$(cd "$STATE" && pwd)" \
    "PG_PORT=$PG_PORT" \
    "KAFKA_PORT=$KAFKA_PORT" \
    "KAFKA_CONTROLLER_PORT=$KAFKA_CONTROLLER_PORT" \
    "MINIO_PORT=$MINIO_PORT" \
    "MINIO_CONSOLE_PORT=$MINIO_CONSOLE_PORT"; do
    printf 'export %s=%q\n' "${name%%=*}" "${name#*=}"
  done
}

status() {
  # Exit 0 only when all three are running.
  local component running=0
  for component in postgres kafka minio; do
    bash "$LOCAL_DIR/$component.sh" status >/dev/null 2>&1 && running=$((running + 1))
  done
  [ "$running" -eq 3 ]
}

case "${1:-}" in
  up) up ;;
  status) status ;;
  down) down ;;
  env) env_lines ;;
  *) die "usage: infra.sh up|down|status|env" ;;
esac
