{{/*
Names, labels, image and small helpers shared by the Workspace service charts, in the style of Bitnami's
`common` library. Every template takes the calling chart's root context (`.`) unless it says otherwise, and
reads that chart's values in the layout of charts/identity/values.yaml.
*/}}

{{/* The component's name: the chart name, or nameOverride. */}}
{{- define "workspace-lib.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{/* The objects' name: fullnameOverride, or <release>-<name> (just <release> when it already contains <name>). */}}
{{- define "workspace-lib.fullname" -}}
{{- if .Values.fullnameOverride -}}
{{- .Values.fullnameOverride | trunc 63 | trimSuffix "-" -}}
{{- else -}}
{{- $name := include "workspace-lib.name" . -}}
{{- if contains $name .Release.Name -}}
{{- .Release.Name | trunc 63 | trimSuffix "-" -}}
{{- else -}}
{{- printf "%s-%s" .Release.Name $name | trunc 63 | trimSuffix "-" -}}
{{- end -}}
{{- end -}}
{{- end -}}

{{/*
The name another component of the same release gets by default (no overrides), e.g. the bff finding identity.
Usage: include "workspace-lib.siblingFullname" (dict "name" "identity" "context" $)
*/}}
{{- define "workspace-lib.siblingFullname" -}}
{{- $release := .context.Release.Name -}}
{{- if contains .name $release -}}
{{- $release | trunc 63 | trimSuffix "-" -}}
{{- else -}}
{{- printf "%s-%s" $release .name | trunc 63 | trimSuffix "-" -}}
{{- end -}}
{{- end -}}

{{- define "workspace-lib.chart" -}}
{{- printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{/* The image tag that runs: image.tag, else global.image.tag, else the chart's appVersion. */}}
{{- define "workspace-lib.imageTag" -}}
{{- $global := (.Values.global).image | default dict -}}
{{- .Values.image.tag | default $global.tag | default .Chart.AppVersion | toString -}}
{{- end -}}

{{/* The image tag as a label value: without a digest part (tag@sha256:... as skaffold sets it), at most 63 characters. */}}
{{- define "workspace-lib.versionLabel" -}}
{{- $tag := include "workspace-lib.imageTag" . | splitList "@" | first -}}
{{- regexReplaceAll "[^A-Za-z0-9_.-]" $tag "-" | trunc 63 | trimAll "-_." -}}
{{- end -}}

{{/* Labels on every object (app.kubernetes.io/* recommended labels, plus the region and commonLabels). */}}
{{- define "workspace-lib.labels" -}}
helm.sh/chart: {{ include "workspace-lib.chart" . }}
{{ include "workspace-lib.selectorLabels" . }}
app.kubernetes.io/version: {{ include "workspace-lib.versionLabel" . | quote }}
app.kubernetes.io/component: {{ include "workspace-lib.name" . }}
app.kubernetes.io/part-of: workspace
app.kubernetes.io/managed-by: {{ .Release.Service }}
{{- with (.Values.global).region }}
workspace.io/region: {{ . | quote }}
{{- end }}
{{- with .Values.commonLabels }}
{{ toYaml . }}
{{- end }}
{{- end -}}

{{/* The immutable subset used by selectors. */}}
{{- define "workspace-lib.selectorLabels" -}}
app.kubernetes.io/name: {{ include "workspace-lib.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end -}}

{{/*
metadata.annotations from commonAnnotations plus extra ones; empty when there are none.
Usage: with include "workspace-lib.annotations" (dict "extra" .Values.service.annotations "context" $)
*/}}
{{- define "workspace-lib.annotations" -}}
{{- $all := merge (deepCopy (.extra | default dict)) (deepCopy (.context.Values.commonAnnotations | default dict)) -}}
{{- if $all -}}
annotations:
  {{- toYaml $all | nindent 2 }}
{{- end -}}
{{- end -}}

{{/* registry/repository:tag, or registry/repository@digest when a digest is set; no registry part when none is set. */}}
{{- define "workspace-lib.image" -}}
{{- $global := (.Values.global).image | default dict -}}
{{- $registry := .Values.image.registry | default $global.registry -}}
{{- $repository := .Values.image.repository -}}
{{- $ref := printf ":%s" (include "workspace-lib.imageTag" .) -}}
{{- if .Values.image.digest -}}
{{- $ref = printf "@%s" .Values.image.digest -}}
{{- end -}}
{{- if $registry -}}
{{- printf "%s/%s%s" $registry $repository $ref -}}
{{- else -}}
{{- printf "%s%s" $repository $ref -}}
{{- end -}}
{{- end -}}

{{/* imagePullSecrets from global.image.pullSecrets and image.pullSecrets; empty when there are none. */}}
{{- define "workspace-lib.imagePullSecrets" -}}
{{- $names := list -}}
{{- range (concat (((.Values.global).image).pullSecrets | default list) (.Values.image.pullSecrets | default list)) -}}
{{- $names = append $names (. | toString) -}}
{{- end -}}
{{- if $names -}}
imagePullSecrets:
  {{- range ($names | uniq) }}
  - name: {{ . | quote }}
  {{- end }}
{{- end -}}
{{- end -}}

{{- define "workspace-lib.serviceAccountName" -}}
{{- if .Values.serviceAccount.create -}}
{{- default (include "workspace-lib.fullname" .) .Values.serviceAccount.name -}}
{{- else -}}
{{- default "default" .Values.serviceAccount.name -}}
{{- end -}}
{{- end -}}

{{/*
Renders a value that may contain templates (Bitnami's common.tplvalues.render).
Usage: include "workspace-lib.tplvalues.render" (dict "value" .Values.path "context" $)
*/}}
{{- define "workspace-lib.tplvalues.render" -}}
{{- $value := typeIs "string" .value | ternary .value (.value | toYaml) -}}
{{- if contains "{{" $value -}}
{{- tpl $value .context -}}
{{- else -}}
{{- $value -}}
{{- end -}}
{{- end -}}

{{/*
The component's environment before what its chart derives: global.env, then the chart's env on top, without empty
values (an empty value means "not set": the service's own default applies), plus PORT from containerPort and
MANAGEMENT_PORT from managementPort (health, readiness, metrics and the OpenAPI document are served there only).
Returns YAML (a map of strings); charts add what they derive and check what they require (identity.env, bff.env).
Usage: include "workspace-lib.env.base" .
   or: include "workspace-lib.env.base" (dict "globalKeys" (list "LOG_LEVEL") "context" .) to take only those
       keys from global.env (a component that reads few of the shared variables).
*/}}
{{- define "workspace-lib.env.base" -}}
{{- $ctx := hasKey . "context" | ternary (get . "context") . -}}
{{- $globalKeys := hasKey . "globalKeys" | ternary (get . "globalKeys") list -}}
{{- $global := (($ctx.Values.global).env | default dict) -}}
{{- if $globalKeys -}}
{{- $picked := dict -}}
{{- range $key := $globalKeys -}}
{{- if hasKey $global $key -}}
{{- $_ := set $picked $key (get $global $key) -}}
{{- end -}}
{{- end -}}
{{- $global = $picked -}}
{{- end -}}
{{- $env := dict -}}
{{- range $source := list $global ($ctx.Values.env | default dict) -}}
{{- range $key, $value := $source -}}
{{- $text := include "workspace-lib.string" $value -}}
{{- if ne $text "" -}}
{{- $_ := set $env $key $text -}}
{{- end -}}
{{- end -}}
{{- end -}}
{{- $_ := set $env "PORT" (include "workspace-lib.string" $ctx.Values.containerPort) -}}
{{- $_ := set $env "MANAGEMENT_PORT" (include "workspace-lib.string" $ctx.Values.managementPort) -}}
{{- toYaml $env -}}
{{- end -}}

{{/*
A value as the text an environment variable carries: "" for null, whole numbers without an exponent (values files
give numbers as float64, which toString would print as 1e+06), everything else through toString.
*/}}
{{- define "workspace-lib.string" -}}
{{- if kindIs "invalid" . -}}
{{- else if and (kindIs "float64" .) (eq . (float64 (int64 .))) -}}
{{- printf "%d" (int64 .) -}}
{{- else -}}
{{- toString . -}}
{{- end -}}
{{- end -}}

{{/*
Fails unless `value` is set, naming the value and saying what it is for.
Usage: include "workspace-lib.require" (dict "value" $x "name" "env.OIDC_ISSUER_URL" "why" "..." "context" $)
*/}}
{{- define "workspace-lib.require" -}}
{{- if or (kindIs "invalid" .value) (eq (toString .value) "") -}}
{{- fail (printf "%s: %s is required: %s" (include "workspace-lib.name" .context) .name .why) -}}
{{- end -}}
{{- end -}}
