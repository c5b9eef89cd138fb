#!/usr/bin/env bash
# The Python client's virtualenv (clients/python/.venv): the package, editable, with its dev tools,
# from PyPI. Made again only when pyproject.toml changed since.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
PY="$ROOT/clients/python"
VENV="$PY/.venv"
if [ ! -x "$VENV/bin/pytest" ] || [ "$PY/pyproject.toml" -nt "$VENV/.installed" ]; then
  python3 -m venv "$VENV"
  "$VENV/bin/pip" install --quiet --disable-pip-version-check -e "$PY[dev]"
  touch "$VENV/.installed"
fi
