#!/usr/bin/env bash
# The Python client's models (TypedDicts), generated from openapi/openapi.json by
# datamodel-code-generator. `--check` fails when the committed ones differ from what the contract
# generates (as check:client does for the TypeScript client).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
PY="$ROOT/clients/python"
OUT="$PY/src/wallpaper_catalogue/models.py"
generate() {
  "$PY/.venv/bin/datamodel-codegen" --input "$ROOT/openapi/openapi.json" --input-file-type openapi \
    --output-model-type typing.TypedDict --target-python-version 3.10 --use-standard-collections \
    --use-union-operator --disable-timestamp --use-schema-description --enum-field-as-literal all --formatters black isort \
    --custom-file-header '"""The API'"'"'s schemas as TypedDicts, generated from openapi/openapi.json by scripts/python-models.sh: do not edit."""' \
    --output "$1"
}
if [ "${1:-}" = "--check" ]; then
  mkdir -p "$ROOT/test-output"
  generate "$ROOT/test-output/python-models.py"
  diff -u "$OUT" "$ROOT/test-output/python-models.py"
  echo "python models match the contract"
else
  generate "$OUT"
fi
