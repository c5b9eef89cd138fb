#!/usr/bin/env bash
# All tests: type check, unit tests, integration tests against a real Elasticsearch and
# Redis (including the docs page in headless Chromium), then schemathesis fuzzing.
# With ELASTICSEARCH_URL/REDIS_URL set, those are used; otherwise testcontainers when a
# Docker engine answers; otherwise the local stack (started here if it is not running).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
bash scripts/install-prereqs.sh
if [ -z "${ELASTICSEARCH_URL:-}${REDIS_URL:-}" ] && ! docker info >/dev/null 2>&1; then
  bash scripts/stack.sh start
fi
npx tsc --noEmit -p tsconfig.json
timeout 300 npx mocha 'test/unit/**/*.test.ts'
timeout 1500 npx mocha --require test/support/integration-setup.ts 'test/integration/**/*.test.ts'
# Schemathesis against the OpenAPI document: zero 5xx, every response conforming.
if [ "${SKIP_FUZZ:-}" != "1" ]; then timeout 600 bash scripts/fuzz.sh; fi
