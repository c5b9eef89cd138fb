#!/usr/bin/env bash
# Every lint: ESLint with type information, beside the rest one after the other (Prettier, the layer
# rules, the contract's lints and the client's drift check). Each is one process on about one core,
# ESLint about as long as the rest together, so two lanes take the lint from about 60 s to 47 s on
# an idle two-core machine (none where the cores are busy already, as in npm test's first phase).
# Each lane's output is shown whole; the lint fails when either does.
set -uo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
ESLINT_LOG="$(mktemp)"
ESLINT_PID=""
trap '[ -z "$ESLINT_PID" ] || kill "$ESLINT_PID" 2>/dev/null; rm -f "$ESLINT_LOG"' EXIT
npx eslint . >"$ESLINT_LOG" 2>&1 &
ESLINT_PID=$!
rest=0
npx prettier --check . &&
  npx depcruise src bench scripts test --config .dependency-cruiser.cjs &&
  npm run --silent lint:contract || rest=$?
eslint=0
wait "$ESLINT_PID" || eslint=$?
ESLINT_PID=""
cat "$ESLINT_LOG"
[ "$eslint" -eq 0 ] || echo "eslint failed (exit $eslint)" >&2
[ "$rest" -eq 0 ] && [ "$eslint" -eq 0 ]
