{{/*
A pre-install/pre-upgrade hook Job that provisions the component's database roles and schema before its pods
start (provision.enabled; off by default). It runs provision.command in the component's own image, as the same
non-root user with the same security context, and gets:
  DATABASE_ADMIN_URL      from the Secret key provision.adminUrlSecret (an administrative connection; CloudNativePG's
                          <cluster>-superuser Secret has it under `uri`)
  DATABASE_URL            from existingSecrets / secretEnvVars, like the service: the runtime role
  DATABASE_MIGRATION_URL  from the Secret key migrate.ownerUrlSecret, like the migrate Job: the owner role
                          (the job creates or resets both roles' names and passwords)
  PROVISION_SCHEMA        provision.schema
  PROVISION_ROLE          provision.role (the owner role is <role>_owner)
The release's ConfigMap and ServiceAccount do not exist yet when a pre-install hook runs, so the job reads neither.
See charts/workspace-lib/README.md for the contract of the command.
*/}}
{{- define "workspace-lib.provisionJob" -}}
{{- if .Values.provision.enabled -}}
{{- include "workspace-lib.require" (dict "value" .Values.provision.adminUrlSecret.name "name" "provision.adminUrlSecret.name" "why" "the Secret holding an administrative database URL" "context" .) -}}
apiVersion: batch/v1
kind: Job
metadata:
  name: {{ printf "%s-provision" (include "workspace-lib.fullname" .) | trunc 63 | trimSuffix "-" }}
  namespace: {{ .Release.Namespace | quote }}
  labels:
    {{- include "workspace-lib.labels" . | nindent 4 }}
  annotations:
    helm.sh/hook: pre-install,pre-upgrade
    helm.sh/hook-weight: "-5"
    helm.sh/hook-delete-policy: before-hook-creation,hook-succeeded
    {{- with .Values.commonAnnotations }}
    {{- toYaml . | nindent 4 }}
    {{- end }}
spec:
  backoffLimit: {{ .Values.provision.backoffLimit }}
  activeDeadlineSeconds: {{ .Values.provision.activeDeadlineSeconds }}
  ttlSecondsAfterFinished: {{ .Values.provision.ttlSecondsAfterFinished }}
  template:
    metadata:
      labels:
        {{- /* Not the component's selector labels: its Service, PDB and NetworkPolicy must not pick this pod. */}}
        helm.sh/chart: {{ include "workspace-lib.chart" . }}
        app.kubernetes.io/name: {{ printf "%s-provision" (include "workspace-lib.name" .) | trunc 63 | trimSuffix "-" }}
        app.kubernetes.io/instance: {{ .Release.Name }}
        app.kubernetes.io/component: provision
        app.kubernetes.io/part-of: workspace
        app.kubernetes.io/managed-by: {{ .Release.Service }}
    spec:
      restartPolicy: Never
      serviceAccountName: {{ .Values.provision.serviceAccountName | default "default" }}
      automountServiceAccountToken: false
      {{- with include "workspace-lib.imagePullSecrets" . }}
      {{- . | nindent 6 }}
      {{- end }}
      {{- if .Values.podSecurityContext.enabled }}
      securityContext:
        {{- omit .Values.podSecurityContext "enabled" | toYaml | nindent 8 }}
      {{- end }}
      {{- with .Values.nodeSelector }}
      nodeSelector:
        {{- include "workspace-lib.tplvalues.render" (dict "value" . "context" $) | nindent 8 }}
      {{- end }}
      {{- with .Values.tolerations }}
      tolerations:
        {{- include "workspace-lib.tplvalues.render" (dict "value" . "context" $) | nindent 8 }}
      {{- end }}
      containers:
        - name: provision
          image: {{ include "workspace-lib.image" . | quote }}
          imagePullPolicy: {{ .Values.image.pullPolicy }}
          command:
            {{- toYaml .Values.provision.command | nindent 12 }}
          {{- if .Values.containerSecurityContext.enabled }}
          securityContext:
            {{- omit .Values.containerSecurityContext "enabled" | toYaml | nindent 12 }}
          {{- end }}
          {{- with .Values.existingSecrets }}
          envFrom:
            {{- range . }}
            - secretRef:
                name: {{ . | quote }}
            {{- end }}
          {{- end }}
          env:
            - name: DATABASE_ADMIN_URL
              valueFrom:
                secretKeyRef:
                  name: {{ .Values.provision.adminUrlSecret.name | quote }}
                  key: {{ .Values.provision.adminUrlSecret.key | quote }}
            - name: DATABASE_MIGRATION_URL
              valueFrom:
                secretKeyRef:
                  name: {{ .Values.migrate.ownerUrlSecret.name | quote }}
                  key: {{ .Values.migrate.ownerUrlSecret.key | quote }}
            - name: PROVISION_SCHEMA
              value: {{ .Values.provision.schema | quote }}
            - name: PROVISION_ROLE
              value: {{ .Values.provision.role | quote }}
            - name: LOG_LEVEL
              value: {{ (include "workspace-lib.env.base" . | fromYaml).LOG_LEVEL | default "info" | quote }}
            {{- range $name, $ref := .Values.secretEnvVars }}
            - name: {{ $name }}
              valueFrom:
                secretKeyRef:
                  name: {{ $ref.name | quote }}
                  key: {{ $ref.key | quote }}
            {{- end }}
          {{- with .Values.provision.resources }}
          resources:
            {{- toYaml . | nindent 12 }}
          {{- end }}
          volumeMounts:
            - name: tmp
              mountPath: /tmp
      volumes:
        - name: tmp
          emptyDir:
            sizeLimit: {{ .Values.tmpVolumeSizeLimit }}
{{- end -}}
{{- end -}}
