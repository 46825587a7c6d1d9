{{/*
notification's environment (ConfigMap): the shared base and the SMTP and delivery settings, with the ones it cannot
do without checked (SMTP_HOST: the service's own default is the local sink of `make up`; MAIL_FROM). Secrets
(DATABASE_URL, NOTIFICATION_ENCRYPTION_KEYS, INTERNAL_API_TOKEN, SMTP_PASSWORD, IDENTITY_TOKEN) come from existingSecrets
and secretEnvVars, never from here. IDENTITY_URL defaults to http://<release>-identity, JWKS_URL to its public keys.
*/}}
{{- define "notification.env" -}}
{{- $env := include "workspace-lib.env.base" . | fromYaml -}}
{{- /* In-app notifications (ADR 0052): identity says who may approve; its keys verify the bell's callers. */ -}}
{{- if not (hasKey $env "IDENTITY_URL") -}}
{{- $_ := set $env "IDENTITY_URL" (printf "http://%s" (include "workspace-lib.siblingFullname" (dict "name" "identity" "context" .))) -}}
{{- end -}}
{{- if not (hasKey $env "JWKS_URL") -}}
{{- $_ := set $env "JWKS_URL" (printf "%s/.well-known/jwks.json" ((get $env "IDENTITY_URL") | trimSuffix "/")) -}}
{{- end -}}
{{- include "workspace-lib.require" (dict "value" (get $env "SMTP_HOST") "name" "env.SMTP_HOST" "why" "the SMTP relay e-mail is sent through" "context" .) -}}
{{- include "workspace-lib.require" (dict "value" (get $env "MAIL_FROM") "name" "env.MAIL_FROM" "why" "the sender address of every e-mail, e.g. Workspace <no-reply@workspace.example.com>" "context" .) -}}
{{- if ne (get $env "BUS") "memory" -}}
{{- include "workspace-lib.require" (dict "value" (get $env "KAFKA_BROKERS") "name" "env.KAFKA_BROKERS (or global.env.KAFKA_BROKERS)" "why" "the Kafka bootstrap servers" "context" .) -}}
{{- $env = merge $env (include "workspace-lib.kafkaEnv" . | fromYaml) -}}
{{- end -}}
{{- if not (or .Values.existingSecrets .Values.secretEnvVars) -}}
{{- fail "notification: existingSecrets (or secretEnvVars) must name the Secret(s) holding DATABASE_URL, NOTIFICATION_ENCRYPTION_KEYS and INTERNAL_API_TOKEN (and SMTP_PASSWORD when the relay wants authentication)" -}}
{{- end -}}
{{- include "workspace-lib.runtimeRoleOnly" . -}}
{{- toYaml $env -}}
{{- end -}}
