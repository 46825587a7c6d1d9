{{/*
A prometheus-operator ServiceMonitor for /metrics on the management port (metrics.serviceMonitor.enabled; needs the
operator's CRDs).
*/}}
{{- define "workspace-lib.servicemonitor" -}}
{{- if .Values.metrics.serviceMonitor.enabled -}}
apiVersion: monitoring.coreos.com/v1
kind: ServiceMonitor
metadata:
  name: {{ include "workspace-lib.fullname" . }}
  namespace: {{ .Values.metrics.serviceMonitor.namespace | default .Release.Namespace | quote }}
  labels:
    {{- include "workspace-lib.labels" . | nindent 4 }}
    {{- with .Values.metrics.serviceMonitor.labels }}
    {{- toYaml . | nindent 4 }}
    {{- end }}
  {{- with include "workspace-lib.annotations" (dict "context" .) }}
  {{- . | nindent 2 }}
  {{- end }}
spec:
  jobLabel: app.kubernetes.io/name
  namespaceSelector:
    matchNames:
      - {{ .Release.Namespace | quote }}
  selector:
    matchLabels:
      {{- include "workspace-lib.selectorLabels" . | nindent 6 }}
  endpoints:
    - port: management
      path: /metrics
      interval: {{ .Values.metrics.serviceMonitor.interval }}
      {{- with .Values.metrics.serviceMonitor.scrapeTimeout }}
      scrapeTimeout: {{ . }}
      {{- end }}
{{- end -}}
{{- end -}}
