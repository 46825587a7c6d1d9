# The verbs. `make up` runs the product on its embedded default; `make test` runs every suite against real
# PostgreSQL, Kafka and MinIO, installing and starting what is missing.
SHELL := /bin/bash
LOCAL := deploy/local

.PHONY: up install infra infra-down test test-unit test-kafka-auth lint cycles typecheck build bench generate clean

up: install
	@bash $(LOCAL)/up.sh

install:
	@bash $(LOCAL)/install.sh

infra: install
	@bash $(LOCAL)/infra.sh up
	@bash $(LOCAL)/infra.sh env

infra-down:
	@bash $(LOCAL)/infra.sh down

test:
	@bash $(LOCAL)/run-tests.sh

# Also the last step of `make test` (about 40 s: its own broker starts and stops): the kit's Kafka adapter over
# SASL_SSL with ACLs, against a second, test-only broker (deploy/local/kafka-auth.sh) apart from the shared one.
test-kafka-auth: install
	@bash $(LOCAL)/kafka-auth.sh test

test-unit: install
	@NODE_OPTIONS="--experimental-vm-modules --no-warnings=ExperimentalWarning" node node_modules/jest/bin/jest.js --selectProjects unit

lint: install
	@npx eslint . && npx prettier --check . && node deploy/local/check-spec-coverage.mjs && $(MAKE) --no-print-directory cycles && (cd proto && ../node_modules/.bin/buf lint)

# No import cycles inside any package (type-only imports count: a cycle closed by a type is still a tangle).
cycles: install
	@npx madge --circular --no-spinner --extensions ts,tsx services/*/src bff/src web/src

typecheck: install
	@npx tsc -p tsconfig.json --noEmit && npx tsc -p web/tsconfig.json

build: install
	@node $(LOCAL)/build.mjs

generate: install
	@cd proto && PATH="$(CURDIR)/node_modules/.bin:$$PATH" buf generate

bench: install
	@bash $(LOCAL)/bench.sh

clean:
	rm -rf node_modules services/*/dist proto/dist test-results
