{{/*
The component's PodDisruptionBudget (pdb.create). With neither pdb.minAvailable nor pdb.maxUnavailable set,
maxUnavailable is 1: a voluntary eviction (node drain) takes one pod at a time and never blocks on a single replica.
*/}}
{{- define "workspace-lib.pdb" -}}
{{- if .Values.pdb.create -}}
apiVersion: policy/v1
kind: PodDisruptionBudget
metadata:
  name: {{ include "workspace-lib.fullname" . }}
  namespace: {{ .Release.Namespace | quote }}
  labels:
    {{- include "workspace-lib.labels" . | nindent 4 }}
  {{- with include "workspace-lib.annotations" (dict "context" .) }}
  {{- . | nindent 2 }}
  {{- end }}
spec:
  {{- if ne (include "workspace-lib.string" .Values.pdb.minAvailable) "" }}
  minAvailable: {{ .Values.pdb.minAvailable }}
  {{- else if ne (include "workspace-lib.string" .Values.pdb.maxUnavailable) "" }}
  maxUnavailable: {{ .Values.pdb.maxUnavailable }}
  {{- else }}
  maxUnavailable: 1
  {{- end }}
  selector:
    matchLabels:
      {{- include "workspace-lib.selectorLabels" . | nindent 6 }}
{{- end -}}
{{- end -}}
