#!/usr/bin/env bash
# Checks the Helm charts without a cluster: vendors the file:// dependencies, runs `helm lint --strict` on every
# chart (with its defaults and with each of its ci/*.yaml), renders the umbrella chart with every
# deploy/k8s/values-*.yaml (and each service chart with its ci/*.yaml) for Kubernetes $KUBE_VERSION, and
# validates the rendered objects against that version's schemas with kubernetes-validate --strict. CRD kinds
# (ServiceMonitor, KafkaUser) have no bundled schema and are left out of that last step.
#
# Not part of `make test`. Tools are installed on first use, outside the repository:
#   helm $HELM_VERSION        go install into $CACHE/helm/$HELM_VERSION (needs Go; about 140 s the first time)
#   kubernetes-validate       pip install into the venv $CACHE/kubernetes-validate (needs python3 with venv)
# SKIP_SCHEMA_VALIDATION=1 skips the kubernetes-validate step (lint and render still run).
#
#   deploy/k8s/validate.sh        exit status 0 when every check passes; a PASS/FAIL line per check at the end
set -euo pipefail

REPO_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
CACHE="${WORKSPACE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/workspace}"
HELM_VERSION="v3.19.0"
KUBERNETES_VALIDATE_VERSION="1.37.0"
KUBE_VERSION="1.30.0"
SKIP_KINDS="ServiceMonitor KafkaUser"

HELM="$CACHE/helm/$HELM_VERSION/helm"
VENV="$CACHE/kubernetes-validate"
CHARTS="$REPO_DIR/charts"
# The service charts: every application chart folder under charts/ but the umbrella (each depends on workspace-lib;
# the umbrella depends on all of them). deploy/k8s/components.mjs lists them and, as the first check, fails when
# charts/workspace/Chart.yaml or skaffold.yaml misses one.
mapfile -t SERVICE_CHARTS < <(node "$REPO_DIR/deploy/k8s/components.mjs" --list)
OUT="$(mktemp -d)"
trap 'rm -rf "$OUT"' EXIT

log() { printf '[k8s] %s\n' "$*" >&2; }
die() { printf '[k8s] ERROR: %s\n' "$*" >&2; exit 1; }

install_helm() {
  [ -x "$HELM" ] && return 0
  command -v go >/dev/null 2>&1 || die "Go is needed once to build helm $HELM_VERSION (https://go.dev/dl/)."
  log "building helm $HELM_VERSION into $(dirname "$HELM") (first run only, about 140 s)"
  GOPATH="$CACHE/go" GOCACHE="$CACHE/go/cache" GOBIN="$(dirname "$HELM")" \
    go install "helm.sh/helm/v3/cmd/helm@$HELM_VERSION"
}

install_kubernetes_validate() {
  [ -x "$VENV/bin/kubernetes-validate" ] && return 0
  command -v python3 >/dev/null 2>&1 || die "python3 is needed for kubernetes-validate (or set SKIP_SCHEMA_VALIDATION=1)."
  log "installing kubernetes-validate $KUBERNETES_VALIDATE_VERSION into $VENV (first run only)"
  python3 -m venv "$VENV"
  "$VENV/bin/pip" install --quiet "kubernetes-validate==$KUBERNETES_VALIDATE_VERSION"
}

results=()
failed=0
record() {
  # record <PASS|FAIL> <check>
  results+=("$1  $2")
  [ "$1" = PASS ] || failed=1
}

# Runs a check quietly, keeping its output for the report when it fails.
check() {
  local name=$1; shift
  if "$@" >"$OUT/check.log" 2>&1; then
    record PASS "$name"
  else
    record FAIL "$name"
    sed 's/^/    /' "$OUT/check.log" >&2
  fi
}

# Drops the documents of CRD kinds, which kubernetes-validate has no schema for.
without_crd_kinds() {
  "$VENV/bin/python" - "$1" "$2" "$SKIP_KINDS" <<'PY'
import sys, yaml
source, target, skip = sys.argv[1], sys.argv[2], set(sys.argv[3].split())
with open(source) as f:
    docs = [d for d in yaml.safe_load_all(f) if d and d.get("kind") not in skip]
with open(target, "w") as f:
    yaml.safe_dump_all(docs, f, sort_keys=False)
PY
}

validate_schema() {
  local rendered=$1 filtered="$1.validate.yaml"
  without_crd_kinds "$rendered" "$filtered"
  "$VENV/bin/kubernetes-validate" --kubernetes-version "$KUBE_VERSION" --strict --quiet "$filtered"
}

install_helm
"$HELM" version --short >/dev/null
if [ "${SKIP_SCHEMA_VALIDATION:-}" != 1 ]; then install_kubernetes_validate; fi

check "every chart folder is a dependency of charts/workspace and an image of skaffold.yaml" \
  node "$REPO_DIR/deploy/k8s/components.mjs"

# Dependencies first (file:// only: the library, then the service charts, then the umbrella). The vendored
# archives (charts/*/charts/*.tgz) are ignored by charts/.gitignore.
for chart in "${SERVICE_CHARTS[@]}" workspace; do
  check "helm dependency update charts/$chart" "$HELM" dependency update --skip-refresh "$CHARTS/$chart"
done

for chart in workspace-lib "${SERVICE_CHARTS[@]}" workspace; do
  check "helm lint --strict charts/$chart" "$HELM" lint --strict "$CHARTS/$chart"
  for values in "$CHARTS/$chart"/ci/*.yaml; do
    [ -e "$values" ] || continue
    check "helm lint --strict charts/$chart -f ${values#"$REPO_DIR"/}" \
      "$HELM" lint --strict "$CHARTS/$chart" -f "$values"
  done
done

renders=()
render() {
  # render <chart> <values file>: helm template into $OUT, remembered for schema validation when it succeeds
  local chart=$1 values=$2 target
  target="$OUT/$chart-$(basename "$values" .yaml).yaml"
  if "$HELM" template workspace "$CHARTS/$chart" --namespace workspace --kube-version "$KUBE_VERSION" \
    -f "$values" >"$target" 2>"$OUT/check.log"; then
    record PASS "helm template charts/$chart -f ${values#"$REPO_DIR"/} ($(grep -c '^kind:' "$target") objects)"
    renders+=("$target|${values#"$REPO_DIR"/}|$chart")
  else
    record FAIL "helm template charts/$chart -f ${values#"$REPO_DIR"/}"
    sed 's/^/    /' "$OUT/check.log" >&2
  fi
}
for values in "$REPO_DIR"/deploy/k8s/values-*.yaml; do render workspace "$values"; done
for chart in "${SERVICE_CHARTS[@]}" workspace; do
  for values in "$CHARTS/$chart"/ci/*.yaml; do
    [ -e "$values" ] && render "$chart" "$values"
  done
done

if [ "${SKIP_SCHEMA_VALIDATION:-}" != 1 ]; then
  for entry in "${renders[@]}"; do
    IFS='|' read -r rendered values chart <<<"$entry"
    check "kubernetes-validate --strict $KUBE_VERSION: charts/$chart -f $values (without $SKIP_KINDS)" \
      validate_schema "$rendered"
  done
else
  log "SKIP_SCHEMA_VALIDATION=1: rendered objects not validated against the Kubernetes schemas"
fi

printf '%s\n' "${results[@]}"
if [ "$failed" -ne 0 ]; then die "some checks failed (their output is above)"; fi
log "all ${#results[@]} checks passed"
