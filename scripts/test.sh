#!/usr/bin/env bash
# All tests: type check, lint (eslint, prettier, layer rules), unit tests, integration tests against a real Elasticsearch and
# Redis (including the docs page in headless Chromium), then schemathesis fuzzing, the fault suite and a short chaos soak.
# With ELASTICSEARCH_URL/REDIS_URL set, those are used; otherwise testcontainers when a
# Docker engine answers; otherwise the local stack (started here if it is not running).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
# Each phase's wall time, so the run's budget (about 25 minutes in CI) is seen where it goes.
last=$SECONDS
lap() { echo "[time] $1: $((SECONDS - last)) s (total ${SECONDS} s)"; last=$SECONDS; }
bash scripts/install-prereqs.sh
lap "prerequisites"
LOG="$(mktemp)"
STACK_LOG="$(mktemp)"
PYENV_LOG="$(mktemp)"
PYTEST_LOG="$(mktemp)"
TSC_LOG="$(mktemp)"
BUILD_LOG="$(mktemp)"
CLUSTER_LOG=""
CLUSTER_PID=""
PYTEST_PID=""
TSC_PID=""
BUILD_PID=""
# On any exit: the logs removed, and what runs in the background stopped (a cluster started here too).
cleanup() {
  rm -f "$LOG" "$STACK_LOG" "$PYENV_LOG" "$PYTEST_LOG" "$TSC_LOG" "$BUILD_LOG" ${CLUSTER_LOG:+"$CLUSTER_LOG"}
  for pid in "$PYTEST_PID" "$TSC_PID" "$BUILD_PID"; do [ -z "$pid" ] || kill "$pid" 2>/dev/null || true; done
  if [ -n "$CLUSTER_LOG" ]; then
    [ -z "$CLUSTER_PID" ] || kill "$CLUSTER_PID" 2>/dev/null || true
    bash scripts/stack.sh stop-cluster >/dev/null 2>&1 || true
  fi
}
trap cleanup EXIT
# Beside the type check and the lint, which need neither: the local stack's start (mostly its JVM
# warming up) and the Python client's virtualenv (mostly downloads; the docs' Python examples run
# in it too). Each is waited for, its output shown, before the tests.
STACK_PID=""
if [ -z "${ELASTICSEARCH_URL:-}${REDIS_URL:-}" ] && ! docker info >/dev/null 2>&1; then
  bash scripts/stack.sh start >"$STACK_LOG" 2>&1 &
  STACK_PID=$!
fi
bash scripts/python-env.sh >"$PYENV_LOG" 2>&1 &
PYENV_PID=$!
waited() {
  local what="$1" pid="$2" log="$3" code=0
  wait "$pid" || code=$?
  cat "$log"
  [ "$code" -eq 0 ] || { echo "$what failed (exit $code)" >&2; exit 1; }
}
summary() {
  local passed failed
  passed=$( (grep -Eo '^ +[0-9]+ passing' "$LOG" || true) | awk '{s+=$1} END {print s+0}')
  failed=$( (grep -Eo '^ +[0-9]+ failing' "$LOG" || true) | awk '{s+=$1} END {print s+0}')
  echo "tests: $passed passed, $failed failed"
}
# Beside the lint (two processes, scripts/lint.sh): the type check, and the production build (dist/)
# that the fuzz, the fault suite and the soak run. It is built once, here, and they are told so
# (SKIP_BUILD=1): each had built it again, 7 to 10 s, the fuzz's while the Python tests and the
# cluster topology were starting.
npx tsc --noEmit -p tsconfig.json >"$TSC_LOG" 2>&1 &
TSC_PID=$!
npm run --silent build >"$BUILD_LOG" 2>&1 &
BUILD_PID=$!
npm run --silent lint
# The official client builds and packs as its own package.
(cd clients/typescript && npm pack --dry-run --silent >/dev/null)
pid="$TSC_PID"
TSC_PID=""
waited "the type check" "$pid" "$TSC_LOG"
pid="$BUILD_PID"
BUILD_PID=""
waited "the production build" "$pid" "$BUILD_LOG"
export SKIP_BUILD=1
lap "type check, lint, build and client pack"
[ -z "$STACK_PID" ] || waited "the local stack's start" "$STACK_PID" "$STACK_LOG"
waited "the Python client's virtualenv" "$PYENV_PID" "$PYENV_LOG"
lap "stack and Python env (what was left of them)"
status=0
timeout 300 npx mocha --parallel --jobs 4 'test/unit/**/*.test.ts' 2>&1 | tee -a "$LOG" || status=1
lap "unit tests"
# Two files at a time: most of a file's time is spent waiting on Elasticsearch, Redis and the
# scripts it spawns, so two workers take the suite from about 680 s to 420 s on two cores. Each
# worker keeps its own Redis database (test/support/integration-setup.ts).
if [ "$status" -eq 0 ]; then
  timeout 1500 npx mocha --parallel --jobs 2 --exit --require test/support/integration-setup.ts 'test/integration/**/*.test.ts' 2>&1 | tee -a "$LOG" || status=1
  lap "integration tests"
fi
summary
[ "$status" -eq 0 ] || exit 1
# The fault suite and the soak share one cluster topology (3 Elasticsearch nodes, Redis Cluster):
# starting it takes about a minute (mostly its JVMs warming up) and stopping it 20 s, which each would
# otherwise pay. It starts here, beside the Python tests, whose time is mostly spent waiting on the
# API. A topology found running is left as it is; one started here is stopped when this script ends,
# failed or not.
if [ "${SKIP_FAULTS:-}" != "1" ] && ! curl -fsS --max-time 2 http://127.0.0.1:9201/_cluster/health >/dev/null 2>&1; then
  CLUSTER_LOG="$(mktemp)"
  bash scripts/stack.sh start --es-nodes 3 --redis-cluster >"$CLUSTER_LOG" 2>&1 &
  CLUSTER_PID=$!
fi
# The Python client and its tool (models against the contract, mypy --strict, pytest on the real
# stack) beside schemathesis: each keeps about one core busy, one Python process mostly waiting on
# the API, so run one after the other they left half the machine idle for four minutes.
timeout 600 bash scripts/python-tests.sh >"$PYTEST_LOG" 2>&1 &
PYTEST_PID=$!
# Schemathesis against the OpenAPI document: zero 5xx, every response conforming.
if [ "${SKIP_FUZZ:-}" != "1" ]; then timeout 600 bash scripts/fuzz.sh; lap "schemathesis"; fi
pid="$PYTEST_PID"
PYTEST_PID=""
waited "the Python tests" "$pid" "$PYTEST_LOG"
lap "Python tests (what was left of them)"
[ "${SKIP_FAULTS:-}" != "1" ] || exit 0
if [ -n "$CLUSTER_PID" ]; then
  waited "the cluster topology's start" "$CLUSTER_PID" "$CLUSTER_LOG"
  CLUSTER_PID=""
  lap "cluster topology (what was left of its start)"
fi
# The fault suite: nodes and masters killed and hung under load; about 5 minutes.
timeout 1200 npm run --silent test:faults
lap "fault suite"
# Two minutes of the chaos soak: random kills and stops of nodes and masters, and an API restart, under
# the benchmark's scenario mix; 0 failed requests, p99 ≤ 1 s a minute, bounded over-admission, flat RSS.
timeout 900 npm run --silent test:chaos -- --minutes 2
lap "chaos soak"
