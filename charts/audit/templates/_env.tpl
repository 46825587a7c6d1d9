{{/*
The audit service's environment (ConfigMap): the shared base, and what the chart derives when not set:
  JWKS_URL   http://<release>-identity/.well-known/jwks.json (access token keys).
Secrets (DATABASE_URL, AUDIT_CHECKPOINT_PRIVATE_KEY) come from existingSecrets and secretEnvVars, never from here.
*/}}
{{- define "audit.env" -}}
{{- $env := include "workspace-lib.env.base" . | fromYaml -}}
{{- if not (hasKey $env "JWKS_URL") -}}
{{- $_ := set $env "JWKS_URL" (printf "http://%s/.well-known/jwks.json" (include "workspace-lib.siblingFullname" (dict "name" "identity" "context" .))) -}}
{{- end -}}
{{- if ne (get $env "BUS") "memory" -}}
{{- include "workspace-lib.require" (dict "value" (get $env "KAFKA_BROKERS") "name" "env.KAFKA_BROKERS (or global.env.KAFKA_BROKERS)" "why" "the Kafka bootstrap servers" "context" .) -}}
{{- $env = merge $env (include "workspace-lib.kafkaEnv" . | fromYaml) -}}
{{- end -}}
{{- if not (or .Values.existingSecrets .Values.secretEnvVars) -}}
{{- fail "audit: existingSecrets (or secretEnvVars) must name the Secret(s) holding DATABASE_URL" -}}
{{- end -}}
{{- include "workspace-lib.runtimeRoleOnly" . -}}
{{- toYaml $env -}}
{{- end -}}
