{{/* An Ingress to the component's Service (ingress.enabled), optionally with TLS. Only the bff uses it. */}}
{{- define "workspace-lib.ingress" -}}
{{- if .Values.ingress.enabled -}}
{{- include "workspace-lib.require" (dict "value" .Values.ingress.hostname "name" "ingress.hostname" "why" "the host browsers use" "context" .) -}}
apiVersion: networking.k8s.io/v1
kind: Ingress
metadata:
  name: {{ include "workspace-lib.fullname" . }}
  namespace: {{ .Release.Namespace | quote }}
  labels:
    {{- include "workspace-lib.labels" . | nindent 4 }}
  {{- $annotations := include "workspace-lib.tplvalues.render" (dict "value" (.Values.ingress.annotations | default dict) "context" .) | fromYaml }}
  {{- with include "workspace-lib.annotations" (dict "extra" $annotations "context" .) }}
  {{- . | nindent 2 }}
  {{- end }}
spec:
  {{- with .Values.ingress.ingressClassName }}
  ingressClassName: {{ . | quote }}
  {{- end }}
  rules:
    - host: {{ .Values.ingress.hostname | quote }}
      http:
        paths:
          - path: {{ .Values.ingress.path }}
            pathType: {{ .Values.ingress.pathType }}
            backend:
              service:
                name: {{ include "workspace-lib.fullname" . }}
                port:
                  name: http
  {{- if .Values.ingress.tls }}
  tls:
    - hosts:
        - {{ .Values.ingress.hostname | quote }}
      secretName: {{ .Values.ingress.tlsSecretName | default (printf "%s-tls" .Values.ingress.hostname) | quote }}
  {{- end }}
{{- end -}}
{{- end -}}
