{{/* The component's ServiceAccount (serviceAccount.create). The services call no Kubernetes API: no token is mounted. */}}
{{- define "workspace-lib.serviceaccount" -}}
{{- if .Values.serviceAccount.create -}}
apiVersion: v1
kind: ServiceAccount
metadata:
  name: {{ include "workspace-lib.serviceAccountName" . }}
  namespace: {{ .Release.Namespace | quote }}
  labels:
    {{- include "workspace-lib.labels" . | nindent 4 }}
  {{- with include "workspace-lib.annotations" (dict "extra" .Values.serviceAccount.annotations "context" .) }}
  {{- . | nindent 2 }}
  {{- end }}
automountServiceAccountToken: {{ .Values.serviceAccount.automountServiceAccountToken }}
{{- end -}}
{{- end -}}
