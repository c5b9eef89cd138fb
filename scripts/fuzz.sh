#!/usr/bin/env bash
# Fuzzes the running API against its OpenAPI document with schemathesis (PyPI):
# every response must conform and none may be a 5xx. Bounded by FUZZ_EXAMPLES per
# operation and FUZZ_MAX_SECONDS overall. Starts its own API on a free port over a
# small seeded index, with a key on a tier whose limit does not interfere.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
FUZZ_EXAMPLES="${FUZZ_EXAMPLES:-25}"
FUZZ_MAX_SECONDS="${FUZZ_MAX_SECONDS:-150}"
export INDEX_ALIAS="${FUZZ_ALIAS:-fuzz-wallpapers}"
export RATE_LIMIT_TIERS="free:1000,premium:10000,fuzz:9999999"
export LOG_LEVEL=warn
# Its own Redis database, and no per-IP block: the fuzzer sends thousands of
# requests without keys on purpose (the block itself is covered by the tests).
export REDIS_URL="${FUZZ_REDIS_URL:-redis://127.0.0.1:6379/14}"
export AUTH_FAILURE_LIMIT=1000000

if ! command -v st >/dev/null 2>&1; then
  echo "[fuzz] installing schemathesis from PyPI" >&2
  python3 -m pip install --quiet 'schemathesis>=4,<5'
fi
ST="$(command -v st || echo "python3 -m schemathesis.cli")"

[ -n "${ELASTICSEARCH_URL:-}" ] || bash scripts/stack.sh start
npx tsx scripts/seed.ts --count 500 --seed 7 --keep 1 >&2
KEY="$(npx tsx scripts/keys.ts create --tier fuzz --account fuzz-runner)"
PORT="$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')"
# The production build (built already when SKIP_BUILD=1: npm test builds it once), started as one
# process: through npx the trap killed only the wrapper and left the server running after the fuzz.
[ "${SKIP_BUILD:-}" = "1" ] || npm run --silent build >&2
PORT="$PORT" HOST=127.0.0.1 METRICS_PORT=0 node dist/server.js > "${TMPDIR:-/tmp}/fuzz-api.log" 2>&1 &
API_PID=$!
trap 'kill "$API_PID" 2>/dev/null || true; wait "$API_PID" 2>/dev/null || true' EXIT
# Ready means Elasticsearch, the alias and Redis answer; a server that never gets there fails the run.
ready=0
for _ in $(seq 1 300); do
  if curl -fsS "http://127.0.0.1:$PORT/readyz" >/dev/null 2>&1; then ready=1; break; fi
  kill -0 "$API_PID" 2>/dev/null || break
  sleep 0.2
done
if [ "$ready" != 1 ]; then
  echo "the API did not become ready; its log:" >&2
  cat "${TMPDIR:-/tmp}/fuzz-api.log" >&2
  exit 1
fi

mkdir -p test-output
# positive_data_acceptance is left out: q is trimmed before its length rule, so a
# schema-valid q of only spaces is rightly refused (documented in the q parameter).
$ST --config-file scripts/schemathesis.toml run "http://127.0.0.1:$PORT/v1/openapi.json" \
  --header "Authorization: Bearer $KEY" \
  --checks all --exclude-checks positive_data_acceptance \
  --max-examples "$FUZZ_EXAMPLES" --max-time "$FUZZ_MAX_SECONDS" \
  --seed 20261121 --workers 2 --request-timeout 10 \
  --generation-database none \
  --report junit --report-dir test-output/schemathesis
