#!/usr/bin/env bash
# The Python client and its `wallpapers` tool: a virtualenv with the package and its dev tools
# (from PyPI), the models checked against the contract, mypy --strict, then pytest against the real
# stack (the Elasticsearch and Redis `npm test` uses; the tests start their own API and pictures).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
PY="$ROOT/clients/python"
VENV="$PY/.venv"
bash "$ROOT/scripts/python-env.sh"
bash "$ROOT/scripts/python-models.sh" --check
(cd "$PY" && "$VENV/bin/mypy" --no-error-summary)
# The scripts and the API the tests start, transpiled once (test/support/compiled-scripts.ts).
COMPILED_SCRIPTS_DIR="$(cd "$ROOT" && node_modules/.bin/node --import tsx test/support/compile-scripts-cli.ts compiled-python)"
export COMPILED_SCRIPTS_DIR
cd "$PY" && "$VENV/bin/pytest" -q "$@"
