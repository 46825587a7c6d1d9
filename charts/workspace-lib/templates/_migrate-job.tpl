{{/*
The migrate step (ADR 0033): a pre-install/pre-upgrade hook Job (weight 0, after the provisioning hook's -5) that
applies the component's database migrations as the schema owner before the new pods start. It runs
migrate.command (`node dist/main.js migrate`) in the component's own image, as the same non-root user with the same
security context, and gets only:
  DATABASE_MIGRATION_URL  from the Secret key migrate.ownerUrlSecret (the owner role <role>_owner)
  LOG_LEVEL               the component's log level
The Deployment never gets the owner's URL (workspace-lib.runtimeRoleOnly refuses it), so a serving pod holds the
runtime role only and cannot turn row-level security off.
*/}}
{{- define "workspace-lib.migrateJob" -}}
{{- if .Values.migrate.enabled -}}
{{- include "workspace-lib.require" (dict "value" .Values.migrate.ownerUrlSecret.name "name" "migrate.ownerUrlSecret.name" "why" "the Secret holding the schema owner's database URL (DATABASE_MIGRATION_URL of the migrate step)" "context" .) -}}
apiVersion: batch/v1
kind: Job
metadata:
  name: {{ printf "%s-migrate" (include "workspace-lib.fullname" .) | trunc 63 | trimSuffix "-" }}
  namespace: {{ .Release.Namespace | quote }}
  labels:
    {{- include "workspace-lib.labels" . | nindent 4 }}
  annotations:
    helm.sh/hook: pre-install,pre-upgrade
    helm.sh/hook-weight: "0"
    helm.sh/hook-delete-policy: before-hook-creation,hook-succeeded
    {{- with .Values.commonAnnotations }}
    {{- toYaml . | nindent 4 }}
    {{- end }}
spec:
  backoffLimit: {{ .Values.migrate.backoffLimit }}
  activeDeadlineSeconds: {{ .Values.migrate.activeDeadlineSeconds }}
  ttlSecondsAfterFinished: {{ .Values.migrate.ttlSecondsAfterFinished }}
  template:
    metadata:
      labels:
        {{- /* Not the component's selector labels: its Service, PDB and NetworkPolicy must not pick this pod. */}}
        helm.sh/chart: {{ include "workspace-lib.chart" . }}
        app.kubernetes.io/name: {{ printf "%s-migrate" (include "workspace-lib.name" .) | trunc 63 | trimSuffix "-" }}
        app.kubernetes.io/instance: {{ .Release.Name }}
        app.kubernetes.io/component: migrate
        app.kubernetes.io/part-of: workspace
        app.kubernetes.io/managed-by: {{ .Release.Service }}
    spec:
      restartPolicy: Never
      serviceAccountName: {{ .Values.migrate.serviceAccountName | default "default" }}
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
        - name: migrate
          image: {{ include "workspace-lib.image" . | quote }}
          imagePullPolicy: {{ .Values.image.pullPolicy }}
          command:
            {{- toYaml .Values.migrate.command | nindent 12 }}
          {{- if .Values.containerSecurityContext.enabled }}
          securityContext:
            {{- omit .Values.containerSecurityContext "enabled" | toYaml | nindent 12 }}
          {{- end }}
          env:
            - name: DATABASE_MIGRATION_URL
              valueFrom:
                secretKeyRef:
                  name: {{ .Values.migrate.ownerUrlSecret.name | quote }}
                  key: {{ .Values.migrate.ownerUrlSecret.key | quote }}
            - name: LOG_LEVEL
              value: {{ (include "workspace-lib.env.base" . | fromYaml).LOG_LEVEL | default "info" | quote }}
          {{- with .Values.migrate.resources }}
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

{{/*
Fails rendering when the serving pods would get the schema owner's URL or migrate at start: DATABASE_MIGRATION_URL
belongs to the migrate Job only (migrate.ownerUrlSecret), and MIGRATE_AT_START to one-process setups (`make up`,
tests). A Secret in existingSecrets cannot be read here: a serving process that finds DATABASE_MIGRATION_URL in
its environment refuses to start (services/kit/src/config.ts, checkServingDatabaseConfig).
*/}}
{{- define "workspace-lib.runtimeRoleOnly" -}}
{{- $name := include "workspace-lib.name" . -}}
{{- if hasKey (.Values.secretEnvVars | default dict) "DATABASE_MIGRATION_URL" -}}
{{- fail (printf "%s: secretEnvVars.DATABASE_MIGRATION_URL: the serving pods hold the runtime role only; give the schema owner's URL to the migrate Job as migrate.ownerUrlSecret" $name) -}}
{{- end -}}
{{- range $entry := .Values.extraEnvVars | default list -}}
{{- if has (get $entry "name") (list "DATABASE_MIGRATION_URL" "MIGRATE_AT_START") -}}
{{- fail (printf "%s: extraEnvVars.%s: not for serving pods (the migrate Job runs the migrations as the schema owner)" $name (get $entry "name")) -}}
{{- end -}}
{{- end -}}
{{- $env := include "workspace-lib.env.base" . | fromYaml -}}
{{- range $key := list "DATABASE_MIGRATION_URL" "MIGRATE_AT_START" -}}
{{- if hasKey $env $key -}}
{{- fail (printf "%s: env.%s (or global.env.%s): not for serving pods (the migrate Job runs the migrations as the schema owner)" $name $key $key) -}}
{{- end -}}
{{- end -}}
{{- end -}}
