{{/*
identity's environment (ConfigMap): the shared base, PORTAL_LOGIN_URL derived from global.publicUrl when not set,
CIS_URL (where requested portal sign-in links are sent through, ADR 0055) the cis of this release when not set,
and the settings identity cannot start without. Secrets (DATABASE_URL,
IDENTITY_ENCRYPTION_KEYS, INTERNAL_API_TOKEN, OIDC_CLIENT_SECRET) come from existingSecrets, never from here.
*/}}
{{- define "identity.env" -}}
{{- $env := include "workspace-lib.env.base" . | fromYaml -}}
{{- $publicUrl := (.Values.global).publicUrl | default "" | trimSuffix "/" -}}
{{- if and (not (hasKey $env "PORTAL_LOGIN_URL")) $publicUrl -}}
{{- $_ := set $env "PORTAL_LOGIN_URL" (printf "%s/portal-login" $publicUrl) -}}
{{- end -}}
{{- if not (hasKey $env "CIS_URL") -}}
{{- $_ := set $env "CIS_URL" (printf "http://%s" (include "workspace-lib.siblingFullname" (dict "name" "cis" "context" .))) -}}
{{- end -}}
{{- include "workspace-lib.require" (dict "value" (get $env "OIDC_ISSUER_URL") "name" "env.OIDC_ISSUER_URL" "why" "the issuer URL of the default IdP" "context" .) -}}
{{- include "workspace-lib.require" (dict "value" (get $env "OIDC_CLIENT_ID") "name" "env.OIDC_CLIENT_ID" "why" "identity's client id at the default IdP" "context" .) -}}
{{- include "workspace-lib.require" (dict "value" (get $env "PORTAL_LOGIN_URL") "name" "env.PORTAL_LOGIN_URL (or global.publicUrl)" "why" "where portal magic links land" "context" .) -}}
{{- if ne (get $env "BUS") "memory" -}}
{{- include "workspace-lib.require" (dict "value" (get $env "KAFKA_BROKERS") "name" "env.KAFKA_BROKERS (or global.env.KAFKA_BROKERS)" "why" "the Kafka bootstrap servers" "context" .) -}}
{{- $env = merge $env (include "workspace-lib.kafkaEnv" . | fromYaml) -}}
{{- end -}}
{{- if not (or .Values.existingSecrets .Values.secretEnvVars) -}}
{{- fail "identity: existingSecrets (or secretEnvVars) must name the Secret(s) holding DATABASE_URL, IDENTITY_ENCRYPTION_KEYS, INTERNAL_API_TOKEN and OIDC_CLIENT_SECRET" -}}
{{- end -}}
{{- include "workspace-lib.runtimeRoleOnly" . -}}
{{- toYaml $env -}}
{{- end -}}
