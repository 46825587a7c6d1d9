{{/*
The drive's environment (ConfigMap): the shared base, and what the chart derives when not set:
  IDENTITY_URL   http://<release>-identity (tenant regions, storage tiers, colleagues' names),
  CIS_URL        http://<release>-cis (the CIS documents the drive files, ADR 0046),
  JWKS_URL       http://<release>-identity/.well-known/jwks.json (access token keys),
  DRIVE_REGION   global.region (one release per region, ADR 0049),
  OBJECT_STORE_PUBLIC_URL  global.objectStorePublicUrl (the bff's CSP reads the same value).
OBJECT_STORE_URL and OBJECT_STORE_PUBLIC_URL are required: the drive stores objects only in its region's object store.
Secrets (DATABASE_URL, SHARE_LINK_SECRET, OBJECT_STORE_ACCESS_KEY, OBJECT_STORE_SECRET_KEY, CIS_DOCUMENTS_TOKEN) come from existingSecrets and secretEnvVars,
never from here.
*/}}
{{- define "drive.env" -}}
{{- $env := include "workspace-lib.env.base" . | fromYaml -}}
{{- $identity := printf "http://%s" (include "workspace-lib.siblingFullname" (dict "name" "identity" "context" .)) -}}
{{- if not (hasKey $env "IDENTITY_URL") -}}
{{- $_ := set $env "IDENTITY_URL" $identity -}}
{{- end -}}
{{- if not (hasKey $env "JWKS_URL") -}}
{{- $_ := set $env "JWKS_URL" (printf "%s/.well-known/jwks.json" ((get $env "IDENTITY_URL") | trimSuffix "/")) -}}
{{- end -}}
{{- if not (hasKey $env "CIS_URL") -}}
{{- $_ := set $env "CIS_URL" (printf "http://%s" (include "workspace-lib.siblingFullname" (dict "name" "cis" "context" .))) -}}
{{- end -}}
{{- if and (not (hasKey $env "DRIVE_REGION")) .Values.global.region -}}
{{- $_ := set $env "DRIVE_REGION" .Values.global.region -}}
{{- end -}}
{{- include "workspace-lib.require" (dict "value" (get $env "DRIVE_REGION") "name" "global.region (or env.DRIVE_REGION)" "why" "the region whose object store and tenants this release serves" "context" .) -}}
{{- if not (has (get $env "DRIVE_REGION") (list "uk" "eu" "us")) -}}
{{- fail (printf "drive: DRIVE_REGION (global.region) must be uk, eu or us, not %s" (get $env "DRIVE_REGION")) -}}
{{- end -}}
{{- if and (not (hasKey $env "OBJECT_STORE_PUBLIC_URL")) (.Values.global).objectStorePublicUrl -}}
{{- $_ := set $env "OBJECT_STORE_PUBLIC_URL" (.Values.global.objectStorePublicUrl | trimSuffix "/") -}}
{{- end -}}
{{- include "workspace-lib.require" (dict "value" (get $env "OBJECT_STORE_URL") "name" "env.OBJECT_STORE_URL" "why" "the region's object store (MinIO) as the drive reaches it" "context" .) -}}
{{- include "workspace-lib.require" (dict "value" (get $env "OBJECT_STORE_PUBLIC_URL") "name" "env.OBJECT_STORE_PUBLIC_URL (or global.objectStorePublicUrl)" "why" "the object store's origin as browsers reach it (presigned URLs)" "context" .) -}}
{{- if ne (get $env "BUS") "memory" -}}
{{- include "workspace-lib.require" (dict "value" (get $env "KAFKA_BROKERS") "name" "env.KAFKA_BROKERS (or global.env.KAFKA_BROKERS)" "why" "the Kafka bootstrap servers" "context" .) -}}
{{- $env = merge $env (include "workspace-lib.kafkaEnv" . | fromYaml) -}}
{{- end -}}
{{- if not (or .Values.existingSecrets .Values.secretEnvVars) -}}
{{- fail "drive: existingSecrets (or secretEnvVars) must name the Secret(s) holding DATABASE_URL, OBJECT_STORE_ACCESS_KEY and OBJECT_STORE_SECRET_KEY" -}}
{{- end -}}
{{- include "workspace-lib.runtimeRoleOnly" . -}}
{{- toYaml $env -}}
{{- end -}}
