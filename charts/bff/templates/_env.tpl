{{/*
The bff's environment (ConfigMap). From global.env it takes only what it reads (LOG_LEVEL,
OTEL_EXPORTER_OTLP_ENDPOINT, SHUTDOWN_TIMEOUT_MS, TRUST_PROXY); it derives
  IDENTITY_URL  http://<release>-identity (the Service of identity in the same release, port 80),
  CIS_URL       http://<release>-cis (the Service of cis in the same release, port 80),
  DRIVE_URL     http://<release>-drive (the Service of the drive in the same release, port 80),
  AUDIT_URL     http://<release>-audit (the Service of the audit service in the same release, port 80),
  NOTIFICATION_URL  http://<release>-notification (the Service of notification in the same release, port 80),
  OBJECT_STORE_PUBLIC_URL  global.objectStorePublicUrl (the region's object store as browsers reach it: the CSP),
  PUBLIC_URL    global.publicUrl, else the ingress host (https with ingress.tls),
  TRUST_PROXY   1 behind the ingress (one hop: its controller appends the client's address), false otherwise,
when they are not set. Secrets (SESSION_SECRET, INTERNAL_API_TOKEN) come from existingSecrets or secretEnvVars,
never from here: every replica must hold the same SESSION_SECRET (sessions at identity are keyed and sealed with it,
and the sign-in cookie may come back to another replica), so rendering fails when extraEnvVars gives either as a
plain value, or when existingSecrets is empty and neither secretEnvVars nor extraEnvVars (valueFrom) names both.
*/}}
{{- define "bff.env" -}}
{{- $env := include "workspace-lib.env.base" (dict "globalKeys" (list "LOG_LEVEL" "OTEL_EXPORTER_OTLP_ENDPOINT" "SHUTDOWN_TIMEOUT_MS" "TRUST_PROXY") "context" .) | fromYaml -}}
{{- if not (hasKey $env "IDENTITY_URL") -}}
{{- $_ := set $env "IDENTITY_URL" (printf "http://%s" (include "workspace-lib.siblingFullname" (dict "name" "identity" "context" .))) -}}
{{- end -}}
{{- if not (hasKey $env "CIS_URL") -}}
{{- $_ := set $env "CIS_URL" (printf "http://%s" (include "workspace-lib.siblingFullname" (dict "name" "cis" "context" .))) -}}
{{- end -}}
{{- if not (hasKey $env "DRIVE_URL") -}}
{{- $_ := set $env "DRIVE_URL" (printf "http://%s" (include "workspace-lib.siblingFullname" (dict "name" "drive" "context" .))) -}}
{{- end -}}
{{- if not (hasKey $env "AUDIT_URL") -}}
{{- $_ := set $env "AUDIT_URL" (printf "http://%s" (include "workspace-lib.siblingFullname" (dict "name" "audit" "context" .))) -}}
{{- end -}}
{{- if not (hasKey $env "NOTIFICATION_URL") -}}
{{- $_ := set $env "NOTIFICATION_URL" (printf "http://%s" (include "workspace-lib.siblingFullname" (dict "name" "notification" "context" .))) -}}
{{- end -}}
{{- if and (not (hasKey $env "OBJECT_STORE_PUBLIC_URL")) (.Values.global).objectStorePublicUrl -}}
{{- $_ := set $env "OBJECT_STORE_PUBLIC_URL" (.Values.global.objectStorePublicUrl | trimSuffix "/") -}}
{{- end -}}
{{- if not (hasKey $env "PUBLIC_URL") -}}
{{- if (.Values.global).publicUrl -}}
{{- $_ := set $env "PUBLIC_URL" (.Values.global.publicUrl | trimSuffix "/") -}}
{{- else if and .Values.ingress.enabled .Values.ingress.hostname -}}
{{- $_ := set $env "PUBLIC_URL" (printf "%s://%s" (.Values.ingress.tls | ternary "https" "http") .Values.ingress.hostname) -}}
{{- end -}}
{{- end -}}
{{- if not (hasKey $env "TRUST_PROXY") -}}
{{- $_ := set $env "TRUST_PROXY" (.Values.ingress.enabled | ternary "1" "false") -}}
{{- end -}}
{{- include "workspace-lib.require" (dict "value" (get $env "PUBLIC_URL") "name" "env.PUBLIC_URL (or global.publicUrl, or ingress.hostname)" "why" "the browser-facing origin, e.g. https://workspace.example.com" "context" .) -}}
{{- range $name := list "SESSION_SECRET" "INTERNAL_API_TOKEN" -}}
{{- $fromSecret := or $.Values.existingSecrets (hasKey ($.Values.secretEnvVars | default dict) $name) -}}
{{- range $entry := $.Values.extraEnvVars -}}
{{- if and (kindIs "map" $entry) (eq (toString (get $entry "name")) $name) -}}
{{- if not (get $entry "valueFrom") -}}
{{- fail (printf "bff: %s must come from a Secret (existingSecrets or secretEnvVars), never a value in extraEnvVars" $name) -}}
{{- end -}}
{{- $fromSecret = true -}}
{{- end -}}
{{- end -}}
{{- if not $fromSecret -}}
{{- fail (printf "bff: existingSecrets (or secretEnvVars) must name the Secret holding %s (every replica reads the same one)" $name) -}}
{{- end -}}
{{- end -}}
{{- toYaml $env -}}
{{- end -}}
