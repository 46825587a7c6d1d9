{{/*
The component's Deployment. Usage, from a chart's templates/deployment.yaml: include "workspace-lib.deployment" .
The chart must also have templates/configmap.yaml (its checksum rolls the pods when the configuration changes).

Shutdown: on SIGTERM the process answers /readyz with 503, drains requests for up to SHUTDOWN_TIMEOUT_MS, flushes
its outbox relay, and exits at the latest 30 s after the signal (the hard limit of exitOnSignals in the kit). The
preStop sleep runs first, so endpoints stop sending traffic before the drain begins. The grace period must cover
preStop + max(SHUTDOWN_TIMEOUT_MS, 30 s), or the kubelet kills the pod mid-drain: rendering fails otherwise.
*/}}
{{- define "workspace-lib.deployment" -}}
{{- $env := include "workspace-lib.env.base" . | fromYaml -}}
{{- $shutdownMs := int64 (get $env "SHUTDOWN_TIMEOUT_MS" | default "25000") -}}
{{- $neededMs := add (mul (int64 .Values.preStopSleepSeconds) 1000) (max $shutdownMs 30000) -}}
{{- if le (mul (int64 .Values.terminationGracePeriodSeconds) 1000) $neededMs -}}
{{- fail (printf "%s: terminationGracePeriodSeconds (%d) must exceed preStopSleepSeconds + max(SHUTDOWN_TIMEOUT_MS, 30 s hard limit) = %d ms" (include "workspace-lib.name" .) (int64 .Values.terminationGracePeriodSeconds) $neededMs) -}}
{{- end -}}
apiVersion: apps/v1
kind: Deployment
metadata:
  name: {{ include "workspace-lib.fullname" . }}
  namespace: {{ .Release.Namespace | quote }}
  labels:
    {{- include "workspace-lib.labels" . | nindent 4 }}
  {{- with include "workspace-lib.annotations" (dict "context" .) }}
  {{- . | nindent 2 }}
  {{- end }}
spec:
  {{- if not .Values.autoscaling.enabled }}
  replicas: {{ .Values.replicaCount }}
  {{- end }}
  revisionHistoryLimit: {{ .Values.revisionHistoryLimit }}
  {{- with .Values.updateStrategy }}
  strategy:
    {{- toYaml . | nindent 4 }}
  {{- end }}
  selector:
    matchLabels:
      {{- include "workspace-lib.selectorLabels" . | nindent 6 }}
  template:
    metadata:
      labels:
        {{- include "workspace-lib.labels" . | nindent 8 }}
        {{- with .Values.podLabels }}
        {{- toYaml . | nindent 8 }}
        {{- end }}
      annotations:
        checksum/config: {{ include (print .Template.BasePath "/configmap.yaml") . | sha256sum }}
        {{- with .Values.podAnnotations }}
        {{- include "workspace-lib.tplvalues.render" (dict "value" . "context" $) | nindent 8 }}
        {{- end }}
    spec:
      serviceAccountName: {{ include "workspace-lib.serviceAccountName" . }}
      automountServiceAccountToken: false
      {{- with include "workspace-lib.imagePullSecrets" . }}
      {{- . | nindent 6 }}
      {{- end }}
      {{- if .Values.podSecurityContext.enabled }}
      securityContext:
        {{- omit .Values.podSecurityContext "enabled" | toYaml | nindent 8 }}
      {{- end }}
      terminationGracePeriodSeconds: {{ .Values.terminationGracePeriodSeconds }}
      {{- with .Values.priorityClassName }}
      priorityClassName: {{ . | quote }}
      {{- end }}
      {{- with .Values.nodeSelector }}
      nodeSelector:
        {{- include "workspace-lib.tplvalues.render" (dict "value" . "context" $) | nindent 8 }}
      {{- end }}
      {{- with .Values.tolerations }}
      tolerations:
        {{- include "workspace-lib.tplvalues.render" (dict "value" . "context" $) | nindent 8 }}
      {{- end }}
      {{- with .Values.affinity }}
      affinity:
        {{- include "workspace-lib.tplvalues.render" (dict "value" . "context" $) | nindent 8 }}
      {{- end }}
      {{- with .Values.topologySpreadConstraints }}
      topologySpreadConstraints:
        {{- include "workspace-lib.tplvalues.render" (dict "value" . "context" $) | nindent 8 }}
      {{- end }}
      containers:
        - name: {{ include "workspace-lib.name" . }}
          image: {{ include "workspace-lib.image" . | quote }}
          imagePullPolicy: {{ .Values.image.pullPolicy }}
          {{- if .Values.containerSecurityContext.enabled }}
          securityContext:
            {{- omit .Values.containerSecurityContext "enabled" | toYaml | nindent 12 }}
          {{- end }}
          ports:
            - name: http
              containerPort: {{ .Values.containerPort }}
              protocol: TCP
          {{- include "workspace-lib.containerEnv" . | nindent 10 }}
          {{- if .Values.startupProbe.enabled }}
          startupProbe:
            httpGet:
              path: /healthz
              port: http
            {{- omit .Values.startupProbe "enabled" | toYaml | nindent 12 }}
          {{- end }}
          {{- if .Values.livenessProbe.enabled }}
          livenessProbe:
            httpGet:
              path: /healthz
              port: http
            {{- omit .Values.livenessProbe "enabled" | toYaml | nindent 12 }}
          {{- end }}
          {{- if .Values.readinessProbe.enabled }}
          readinessProbe:
            httpGet:
              path: /readyz
              port: http
            {{- omit .Values.readinessProbe "enabled" | toYaml | nindent 12 }}
          {{- end }}
          {{- if gt (int64 .Values.preStopSleepSeconds) 0 }}
          lifecycle:
            preStop:
              exec:
                command: ["sleep", {{ .Values.preStopSleepSeconds | toString | quote }}]
          {{- end }}
          {{- with .Values.resources }}
          resources:
            {{- toYaml . | nindent 12 }}
          {{- end }}
          volumeMounts:
            - name: tmp
              mountPath: /tmp
            {{- with include "workspace-lib.kafkaVolumeMount" . | trim }}
            {{- . | nindent 12 }}
            {{- end }}
      volumes:
        # The root filesystem is read-only; Node and its libraries may still want a scratch directory.
        - name: tmp
          emptyDir:
            sizeLimit: {{ .Values.tmpVolumeSizeLimit }}
        {{- with include "workspace-lib.kafkaVolume" . | trim }}
        {{- . | nindent 8 }}
        {{- end }}
{{- end -}}

{{/*
envFrom and env of the service container: the ConfigMap, then every Secret in existingSecrets (their keys are
environment variable names; a later source wins for a name set twice), then single variables from Secrets
(secretEnvVars) and extraEnvVars.
*/}}
{{- define "workspace-lib.containerEnv" -}}
envFrom:
  - configMapRef:
      name: {{ include "workspace-lib.fullname" . }}
  {{- range .Values.existingSecrets }}
  - secretRef:
      name: {{ . | quote }}
  {{- end }}
{{- include "workspace-lib.secretEnv" . }}
{{- end -}}

{{/* env: secretEnvVars (NAME: {name, key}) and extraEnvVars. */}}
{{- define "workspace-lib.secretEnv" -}}
{{- if or .Values.secretEnvVars .Values.extraEnvVars }}
env:
  {{- range $name, $ref := .Values.secretEnvVars }}
  - name: {{ $name }}
    valueFrom:
      secretKeyRef:
        name: {{ $ref.name | quote }}
        key: {{ $ref.key | quote }}
  {{- end }}
  {{- with .Values.extraEnvVars }}
  {{- include "workspace-lib.tplvalues.render" (dict "value" . "context" $) | nindent 2 }}
  {{- end }}
{{- end }}
{{- end -}}
