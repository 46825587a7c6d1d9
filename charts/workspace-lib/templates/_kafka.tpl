{{/*
Kafka with TLS and SCRAM-SHA-512, as a Strimzi KafkaUser whose ACLs are the service's part in the event flow
(ADR 0034). Reads the chart's `kafka` values (layout of charts/cis/values.yaml):
  kafka.tls.enabled, kafka.tls.caSecret.{name,key}           the brokers' CA, mounted as a file
  kafka.sasl.enabled, kafka.sasl.username,
  kafka.sasl.passwordSecret.{name,key}                       the SCRAM user and its password, mounted as a file
  kafka.user.create, kafka.user.cluster, kafka.user.consumes the KafkaUser and the topics it reads
The service writes only its own topic, <chart>.events.v1 (Write, Describe, and Create: it creates the topic at
start when missing), reads only kafka.user.consumes (Read, Describe), and joins only consumer groups named
<chart>-... (Read): its Kafka user can neither forge another service's events nor take over another's group.
*/}}

{{/* Where the CA and the password are mounted in the container. */}}
{{- define "workspace-lib.kafkaMountPath" -}}/etc/workspace/kafka{{- end -}}

{{/* The SCRAM user: kafka.sasl.username, else the KafkaUser's name (the component's fullname). */}}
{{- define "workspace-lib.kafkaUsername" -}}
{{- .Values.kafka.sasl.username | default (include "workspace-lib.fullname" .) -}}
{{- end -}}

{{/* The Secret with the password: kafka.sasl.passwordSecret.name, else the one the User Operator writes (the user's name). */}}
{{- define "workspace-lib.kafkaPasswordSecret" -}}
{{- .Values.kafka.sasl.passwordSecret.name | default (include "workspace-lib.kafkaUsername" .) -}}
{{- end -}}

{{/*
The kit's Kafka security variables (services/kit/src/config.ts), for the ConfigMap; fails on settings the kit
would refuse at start. Usage in a chart's env: merge $env (include "workspace-lib.kafkaEnv" . | fromYaml)
*/}}
{{- define "workspace-lib.kafkaEnv" -}}
{{- $kafka := .Values.kafka -}}
{{- if and $kafka.sasl.enabled (not $kafka.tls.enabled) -}}
{{- fail (printf "%s: kafka.sasl.enabled needs kafka.tls.enabled (the events would travel in clear)" (include "workspace-lib.name" .)) -}}
{{- end -}}
{{- $env := dict -}}
{{- if $kafka.tls.enabled -}}
{{- $_ := set $env "KAFKA_TLS" "true" -}}
{{- if $kafka.tls.caSecret.name -}}
{{- $_ := set $env "KAFKA_TLS_CA_FILE" (printf "%s/ca.crt" (include "workspace-lib.kafkaMountPath" .)) -}}
{{- end -}}
{{- end -}}
{{- if $kafka.sasl.enabled -}}
{{- $_ := set $env "KAFKA_SASL_MECHANISM" "scram-sha-512" -}}
{{- $_ := set $env "KAFKA_SASL_USERNAME" (include "workspace-lib.kafkaUsername" .) -}}
{{- $_ := set $env "KAFKA_SASL_PASSWORD_FILE" (printf "%s/password" (include "workspace-lib.kafkaMountPath" .)) -}}
{{- end -}}
{{- toYaml $env -}}
{{- end -}}

{{/* The projected volume holding the CA and the password; empty when neither is used. */}}
{{- define "workspace-lib.kafkaVolume" -}}
{{- $kafka := .Values.kafka | default dict -}}
{{- $tls := and ($kafka.tls).enabled ($kafka.tls).caSecret.name -}}
{{- $sasl := ($kafka.sasl).enabled -}}
{{- if or $tls $sasl }}
- name: kafka
  projected:
    defaultMode: 0440
    sources:
      {{- if $tls }}
      - secret:
          name: {{ $kafka.tls.caSecret.name | quote }}
          items:
            - key: {{ $kafka.tls.caSecret.key | quote }}
              path: ca.crt
      {{- end }}
      {{- if $sasl }}
      - secret:
          name: {{ include "workspace-lib.kafkaPasswordSecret" . | quote }}
          items:
            - key: {{ $kafka.sasl.passwordSecret.key | quote }}
              path: password
      {{- end }}
{{- end }}
{{- end -}}

{{- define "workspace-lib.kafkaVolumeMount" -}}
{{- $kafka := .Values.kafka | default dict -}}
{{- if or (and ($kafka.tls).enabled ($kafka.tls).caSecret.name) ($kafka.sasl).enabled }}
- name: kafka
  mountPath: {{ include "workspace-lib.kafkaMountPath" . }}
  readOnly: true
{{- end }}
{{- end -}}

{{/*
A Strimzi KafkaUser with the ACLs above, in the release's namespace (the User Operator watches it and writes the
password into a Secret of the user's name). Usage, from a chart's templates/kafkauser.yaml:
include "workspace-lib.kafkaUser" .
*/}}
{{- define "workspace-lib.kafkaUser" -}}
{{- if and .Values.kafka.user.create .Values.kafka.sasl.enabled -}}
apiVersion: kafka.strimzi.io/v1beta2
kind: KafkaUser
metadata:
  name: {{ include "workspace-lib.kafkaUsername" . }}
  namespace: {{ .Release.Namespace | quote }}
  labels:
    {{- include "workspace-lib.labels" . | nindent 4 }}
    strimzi.io/cluster: {{ .Values.kafka.user.cluster | quote }}
  {{- with include "workspace-lib.annotations" (dict "context" .) }}
  {{- . | nindent 2 }}
  {{- end }}
spec:
  authentication:
    type: scram-sha-512
  authorization:
    type: simple
    acls:
      # Writes its own topic only (each topic has one producer: consumers check the events' source against it).
      - resource:
          type: topic
          name: {{ printf "%s.events.v1" .Chart.Name | quote }}
          patternType: literal
        operations: [Write, Describe, Create]
        host: "*"
      {{- range .Values.kafka.user.consumes }}
      - resource:
          type: topic
          name: {{ . | quote }}
          patternType: literal
        operations: [Read, Describe]
        host: "*"
      {{- end }}
      {{- if .Values.kafka.user.consumes }}
      # Its consumer groups are named <chart>-... (e.g. identity-portal-access, identity-scope-cache-<pod>).
      - resource:
          type: group
          name: {{ printf "%s-" .Chart.Name | quote }}
          patternType: prefix
        operations: [Read]
        host: "*"
      {{- end }}
{{- end }}
{{- end -}}
