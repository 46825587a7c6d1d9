{{/* The component's HorizontalPodAutoscaler (autoscaling.enabled); the Deployment then leaves replicas to it. */}}
{{- define "workspace-lib.hpa" -}}
{{- if .Values.autoscaling.enabled -}}
apiVersion: autoscaling/v2
kind: HorizontalPodAutoscaler
metadata:
  name: {{ include "workspace-lib.fullname" . }}
  namespace: {{ .Release.Namespace | quote }}
  labels:
    {{- include "workspace-lib.labels" . | nindent 4 }}
  {{- with include "workspace-lib.annotations" (dict "context" .) }}
  {{- . | nindent 2 }}
  {{- end }}
spec:
  scaleTargetRef:
    apiVersion: apps/v1
    kind: Deployment
    name: {{ include "workspace-lib.fullname" . }}
  minReplicas: {{ .Values.autoscaling.minReplicas }}
  maxReplicas: {{ .Values.autoscaling.maxReplicas }}
  metrics:
    {{- with .Values.autoscaling.targetCPU }}
    - type: Resource
      resource:
        name: cpu
        target:
          type: Utilization
          averageUtilization: {{ . }}
    {{- end }}
    {{- with .Values.autoscaling.targetMemory }}
    - type: Resource
      resource:
        name: memory
        target:
          type: Utilization
          averageUtilization: {{ . }}
    {{- end }}
{{- end -}}
{{- end -}}
