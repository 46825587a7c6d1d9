{{/*
notification's environment (ConfigMap): the shared base and the SMTP and delivery settings, with the ones it cannot
do without checked (SMTP_HOST: the service's own default is the local sink of `make up`; MAIL_FROM). Secrets
(DATABASE_URL, DATABASE_MIGRATION_URL, NOTIFICATION_ENCRYPTION_KEYS, INTERNAL_API_TOKEN, SMTP_PASSWORD) come from
existingSecrets and secretEnvVars, never from here.
*/}}
{{- define "notification.env" -}}
{{- $env := include "workspace-lib.env.base" . | fromYaml -}}
{{- include "workspace-lib.require" (dict "value" (get $env "SMTP_HOST") "name" "env.SMTP_HOST" "why" "the SMTP relay e-mail is sent through" "context" .) -}}
{{- include "workspace-lib.require" (dict "value" (get $env "MAIL_FROM") "name" "env.MAIL_FROM" "why" "the sender address of every e-mail, e.g. Workspace <no-reply@workspace.example.com>" "context" .) -}}
{{- if ne (get $env "BUS") "memory" -}}
{{- include "workspace-lib.require" (dict "value" (get $env "KAFKA_BROKERS") "name" "env.KAFKA_BROKERS (or global.env.KAFKA_BROKERS)" "why" "the Kafka bootstrap servers" "context" .) -}}
{{- $env = merge $env (include "workspace-lib.kafkaEnv" . | fromYaml) -}}
{{- end -}}
{{- if not (or .Values.existingSecrets .Values.secretEnvVars) -}}
{{- fail "notification: existingSecrets (or secretEnvVars) must name the Secret(s) holding DATABASE_URL, DATABASE_MIGRATION_URL, NOTIFICATION_ENCRYPTION_KEYS and INTERNAL_API_TOKEN (and SMTP_PASSWORD when the relay wants authentication)" -}}
{{- end -}}
{{- toYaml $env -}}
{{- end -}}
