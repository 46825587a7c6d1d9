{{/*
cis's environment (ConfigMap): the shared base, and the addresses of the components of the same release it calls,
derived when not set:
  IDENTITY_URL      http://<release>-identity (portal magic links),
  JWKS_URL          http://<release>-identity/.well-known/jwks.json (access token keys),
  NOTIFICATION_URL  http://<release>-notification (e-mail).
Secrets (DATABASE_URL, CIS_ENCRYPTION_KEYS, CIS_IDENTIFIER_HASH_KEY, NOTIFICATION_TOKEN) come from existingSecrets
and secretEnvVars, never from here.
*/}}
{{- define "cis.env" -}}
{{- $env := include "workspace-lib.env.base" . | fromYaml -}}
{{- $identity := printf "http://%s" (include "workspace-lib.siblingFullname" (dict "name" "identity" "context" .)) -}}
{{- if not (hasKey $env "IDENTITY_URL") -}}
{{- $_ := set $env "IDENTITY_URL" $identity -}}
{{- end -}}
{{- if not (hasKey $env "JWKS_URL") -}}
{{- $_ := set $env "JWKS_URL" (printf "%s/.well-known/jwks.json" ((get $env "IDENTITY_URL") | trimSuffix "/")) -}}
{{- end -}}
{{- if not (hasKey $env "NOTIFICATION_URL") -}}
{{- $_ := set $env "NOTIFICATION_URL" (printf "http://%s" (include "workspace-lib.siblingFullname" (dict "name" "notification" "context" .))) -}}
{{- end -}}
{{- if ne (get $env "BUS") "memory" -}}
{{- include "workspace-lib.require" (dict "value" (get $env "KAFKA_BROKERS") "name" "env.KAFKA_BROKERS (or global.env.KAFKA_BROKERS)" "why" "the Kafka bootstrap servers" "context" .) -}}
{{- $env = merge $env (include "workspace-lib.kafkaEnv" . | fromYaml) -}}
{{- end -}}
{{- if not (or .Values.existingSecrets .Values.secretEnvVars) -}}
{{- fail "cis: existingSecrets (or secretEnvVars) must name the Secret(s) holding DATABASE_URL, CIS_ENCRYPTION_KEYS, CIS_IDENTIFIER_HASH_KEY and NOTIFICATION_TOKEN" -}}
{{- end -}}
{{- include "workspace-lib.runtimeRoleOnly" . -}}
{{- toYaml $env -}}
{{- end -}}
