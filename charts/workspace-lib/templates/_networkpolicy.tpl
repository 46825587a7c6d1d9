{{/*
The component's NetworkPolicy (networkPolicy.enabled; needs a CNI that enforces it). Ingress to the http port:
from anywhere when networkPolicy.allowExternal, otherwise only from the components of this release named in
networkPolicy.allowedClients (their app.kubernetes.io/name) and the peers in networkPolicy.extraIngressFrom
(for example the Prometheus namespace). The management port (metrics, probes) only from networkPolicy.extraIngressFrom
(the scraper; kubelet probes come from the node). Egress is open unless networkPolicy.allowExternalEgress is false, in
which case only DNS and networkPolicy.extraEgress are allowed.
*/}}
{{- define "workspace-lib.networkpolicy" -}}
{{- if .Values.networkPolicy.enabled -}}
{{- $peers := list -}}
{{- range .Values.networkPolicy.allowedClients -}}
{{- $peers = append $peers (dict "podSelector" (dict "matchLabels" (dict "app.kubernetes.io/name" . "app.kubernetes.io/instance" $.Release.Name))) -}}
{{- end -}}
{{- $peers = concat $peers (.Values.networkPolicy.extraIngressFrom | default list) -}}
apiVersion: networking.k8s.io/v1
kind: NetworkPolicy
metadata:
  name: {{ include "workspace-lib.fullname" . }}
  namespace: {{ .Release.Namespace | quote }}
  labels:
    {{- include "workspace-lib.labels" . | nindent 4 }}
  {{- with include "workspace-lib.annotations" (dict "context" .) }}
  {{- . | nindent 2 }}
  {{- end }}
spec:
  podSelector:
    matchLabels:
      {{- include "workspace-lib.selectorLabels" . | nindent 6 }}
  policyTypes:
    - Ingress
    {{- if not .Values.networkPolicy.allowExternalEgress }}
    - Egress
    {{- end }}
  ingress:
    {{- if .Values.networkPolicy.allowExternal }}
    - ports:
        - port: http
          protocol: TCP
    {{- else if $peers }}
    {{- /* An empty `from` would admit everyone, so a rule is written only when it names someone. */}}
    - ports:
        - port: http
          protocol: TCP
      from:
        {{- toYaml $peers | nindent 8 }}
    {{- end }}
    {{- with .Values.networkPolicy.extraIngressFrom }}
    - ports:
        - port: management
          protocol: TCP
      from:
        {{- toYaml . | nindent 8 }}
    {{- end }}
    {{- with .Values.networkPolicy.extraIngress }}
    {{- toYaml . | nindent 4 }}
    {{- end }}
  {{- if not .Values.networkPolicy.allowExternalEgress }}
  egress:
    - ports:
        - port: 53
          protocol: UDP
        - port: 53
          protocol: TCP
    {{- with .Values.networkPolicy.extraEgress }}
    {{- toYaml . | nindent 4 }}
    {{- end }}
  {{- end }}
{{- end -}}
{{- end -}}
