#!/usr/bin/env bash
# Installs what a fresh Debian machine lacks for the local stack and the tests:
# redis-server (Debian), unzip, curl, wrk (benchmark smoke test) and chromium (docs page test); schemathesis
# (PyPI, API fuzzing); npm dependencies when node_modules is missing. With --run (npm run up), only
# what running the stack needs: no test tool, so a machine whose Python refuses pip installs
# (Debian 12's "externally managed" one) or a user who cannot install packages still gets a stack.
# Java 17, Maven, and a Node.js with npm to bootstrap are expected on the machine; their absence is
# reported. The project's own Node.js (24 LTS) comes from npm as the `node` package, into
# node_modules/.bin, which npm scripts put first on PATH.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
say() { printf '[prereqs] %s\n' "$*" >&2; }

TESTS=1
[ "${1:-}" = "--run" ] && TESTS=0
missing=()
command -v redis-server >/dev/null 2>&1 || missing+=(redis-server)
command -v redis-cli >/dev/null 2>&1 || missing+=(redis-tools)
command -v unzip >/dev/null 2>&1 || missing+=(unzip)
command -v curl >/dev/null 2>&1 || missing+=(curl)
if [ "$TESTS" = 1 ]; then
  command -v wrk >/dev/null 2>&1 || missing+=(wrk)
  command -v jq >/dev/null 2>&1 || missing+=(jq)
  # The docs page test drives Debian's Chromium (playwright-core does not download browsers here).
  if [ "${SKIP_BROWSER:-}" != "1" ] && [ ! -x /usr/bin/chromium ]; then missing+=(chromium); fi
  # The compose file's test validates it offline with docker-compose when Compose v2 is absent.
  if ! command -v docker-compose >/dev/null 2>&1 && ! docker compose version >/dev/null 2>&1; then missing+=(docker-compose); fi
fi
if [ "${#missing[@]}" -gt 0 ]; then
  if [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null 2>&1; then
    say "installing ${missing[*]} from Debian"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq >/dev/null
    apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  else
    say "missing: ${missing[*]} (install them with your package manager)"; exit 1
  fi
fi
for tool in java mvn node npm; do
  command -v "$tool" >/dev/null 2>&1 || { say "missing: $tool (Java 17, Maven and a Node.js with npm are required)"; exit 1; }
done
if [ "$TESTS" = 1 ] && ! command -v st >/dev/null 2>&1 && [ "${SKIP_FUZZ:-}" != "1" ]; then
  say "installing schemathesis from PyPI (API fuzzing)"
  python3 -m pip install --quiet --disable-pip-version-check 'schemathesis>=4,<5'
fi
if [ ! -d "$ROOT/node_modules" ] || [ "$ROOT/package-lock.json" -nt "$ROOT/node_modules/.package-lock.json" ]; then
  say "installing npm dependencies"
  # onnxruntime-node's install script fetches optional GPU libraries from outside; its CPU build ships in the package.
  (cd "$ROOT" && ONNXRUNTIME_NODE_INSTALL=skip npm ci --no-audit --no-fund --loglevel=error)
fi
bash "$ROOT/scripts/fetch-model.sh"
