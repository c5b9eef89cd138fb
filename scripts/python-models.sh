#!/usr/bin/env bash
# The Python client's models (TypedDicts), generated from openapi/openapi.json by
# datamodel-code-generator, and its query parameters by scripts/python-params.py. `--check` fails when the committed ones differ from what the contract
# generates (as check:client does for the TypeScript client).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
PY="$ROOT/clients/python"
OUT="$PY/src/wallpaper_catalogue/models.py"
PARAMS="$PY/src/wallpaper_catalogue/params.py"
generate() {
  "$PY/.venv/bin/datamodel-codegen" --input "$ROOT/openapi/openapi.json" --input-file-type openapi \
    --output-model-type typing.TypedDict --target-python-version 3.10 --use-standard-collections \
    --use-union-operator --disable-timestamp --use-schema-description --enum-field-as-literal all --formatters black isort \
    --custom-file-header '"""The API'"'"'s schemas as TypedDicts, generated from openapi/openapi.json by scripts/python-models.sh: do not edit."""' \
    --output "$1"
}
# The query parameters of the client's methods (params.py), formatted as the package is.
generate_params() {
  "$PY/.venv/bin/python" "$ROOT/scripts/python-params.py" "$1"
  "$PY/.venv/bin/black" --quiet --config "$PY/pyproject.toml" "$1"
}
# Written outside the package either way: inside it, the formatters read the package's settings
# (longer lines), and the models written there differed from those the check compares them with.
mkdir -p "$ROOT/test-output"
generate "$ROOT/test-output/python-models.py"
generate_params "$ROOT/test-output/python-params.py"
if [ "${1:-}" = "--check" ]; then
  diff -u "$OUT" "$ROOT/test-output/python-models.py"
  diff -u "$PARAMS" "$ROOT/test-output/python-params.py"
  echo "python models and parameters match the contract"
else
  cp "$ROOT/test-output/python-models.py" "$OUT"
  cp "$ROOT/test-output/python-params.py" "$PARAMS"
fi
