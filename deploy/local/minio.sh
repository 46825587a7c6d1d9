#!/usr/bin/env bash
# MinIO, built from source with the machine's Go toolchain (pinned pseudo-version), cached under $CACHE.
#   minio.sh install | start | stop | status
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

MINIO_HOME="$CACHE/minio/$MINIO_VERSION"
MINIO_BIN="$MINIO_HOME/bin/minio"
MINIO_DATA="$STATE/minio/data"
MINIO_PID="$STATE/minio.pid"

install_minio() {
  [ -x "$MINIO_BIN" ] && return 0
  need go "Install Go 1.24 or newer (https://go.dev/dl or the machine image) and run this again."
  log "building MinIO $MINIO_VERSION from source (about 4 minutes the first time; cached afterwards)"
  mkdir -p "$MINIO_HOME/bin"
  GOPATH="$CACHE/go" GOMODCACHE="$CACHE/go/pkg/mod" GOCACHE="$CACHE/go/cache" GOBIN="$MINIO_HOME/bin" \
    CGO_ENABLED=0 GOFLAGS=-trimpath go install "github.com/minio/minio@$MINIO_VERSION" \
    || die "MinIO build failed. It needs the Go module proxy (proxy.golang.org) to fetch github.com/minio/minio@$MINIO_VERSION."
}

start_minio() {
  install_minio
  if pid_alive "$MINIO_PID"; then log "MinIO already running on 127.0.0.1:$MINIO_PORT"; return 0; fi
  port_open "$MINIO_PORT" && die "port $MINIO_PORT is taken by another process; set MINIO_PORT to a free port."
  mkdir -p "$MINIO_DATA"
  # CORS is server-wide in MinIO (no per-bucket CORS): only the product's local origins get Access-Control-Allow-Origin,
  # with ETag exposed so the browser can read each uploaded part's (docs/runbook.md "The drive").
  MINIO_ROOT_USER="$MINIO_ROOT_USER" MINIO_ROOT_PASSWORD="$MINIO_ROOT_PASSWORD" MINIO_BROWSER=off \
    MINIO_API_CORS_ALLOW_ORIGIN="$MINIO_CORS_ALLOW_ORIGIN" \
    setsid "$MINIO_BIN" server "$MINIO_DATA" --quiet --address "127.0.0.1:$MINIO_PORT" \
    --console-address "127.0.0.1:$MINIO_CONSOLE_PORT" >"$STATE/minio.log" 2>&1 < /dev/null &
  echo $! >"$MINIO_PID"
  wait_for 60 "MinIO (127.0.0.1:$MINIO_PORT)" curl -fsS "http://127.0.0.1:$MINIO_PORT/minio/health/ready" \
    || die "MinIO did not become ready within 60 s; see $STATE/minio.log"
}

case "${1:-start}" in
  install) install_minio ;;
  start) start_minio ;;
  stop) stop_pid "$MINIO_PID" MinIO ;;
  status)
    if pid_alive "$MINIO_PID" && curl -fsS "http://127.0.0.1:$MINIO_PORT/minio/health/live" >/dev/null 2>&1; then
      printf 'MINIO_STATE=running\nMINIO_PID=%s\nMINIO_URL=http://127.0.0.1:%s\n' "$(cat "$MINIO_PID")" "$MINIO_PORT"
    else
      echo "MINIO_STATE=stopped"
      exit 3
    fi
    ;;
  *) die "usage: minio.sh install|start|stop|status" ;;
esac
