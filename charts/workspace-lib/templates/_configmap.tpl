{{/*
The component's non-secret environment. Usage, from a chart's templates/configmap.yaml:
  include "workspace-lib.configmap" (dict "env" (include "identity.env" . | fromYaml) "context" .)
*/}}
{{- define "workspace-lib.configmap" -}}
{{- $ctx := .context -}}
apiVersion: v1
kind: ConfigMap
metadata:
  name: {{ include "workspace-lib.fullname" $ctx }}
  namespace: {{ $ctx.Release.Namespace | quote }}
  labels:
    {{- include "workspace-lib.labels" $ctx | nindent 4 }}
  {{- with include "workspace-lib.annotations" (dict "context" $ctx) }}
  {{- . | nindent 2 }}
  {{- end }}
data:
  {{- range $key, $value := .env }}
  {{ $key }}: {{ $value | toString | quote }}
  {{- end }}
{{- end -}}
