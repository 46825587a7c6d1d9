{{/*
The component's Service: port `service.port` (name http) to the container's http port, and `managementPort` (name
management) for the metrics scraper. The Ingress routes to http only, so the operational endpoints are not public.
*/}}
{{- define "workspace-lib.service" -}}
apiVersion: v1
kind: Service
metadata:
  name: {{ include "workspace-lib.fullname" . }}
  namespace: {{ .Release.Namespace | quote }}
  labels:
    {{- include "workspace-lib.labels" . | nindent 4 }}
  {{- with include "workspace-lib.annotations" (dict "extra" .Values.service.annotations "context" .) }}
  {{- . | nindent 2 }}
  {{- end }}
spec:
  type: {{ .Values.service.type }}
  ports:
    - name: http
      port: {{ .Values.service.port }}
      targetPort: http
      protocol: TCP
    - name: management
      port: {{ .Values.managementPort }}
      targetPort: management
      protocol: TCP
  selector:
    {{- include "workspace-lib.selectorLabels" . | nindent 4 }}
{{- end -}}
