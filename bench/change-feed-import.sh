#!/usr/bin/env bash
# The importer's rate with change recording against the build before it, side by side, alternating:
# a full import into a fresh alias, the same file again (a full import that compares every batch
# with the catalogue it replaces), and the same file as an incremental import (compares, writes
# nothing). Records per second as the importer reports them ("live in" / "done in").
#   bash bench/change-feed-import.sh [count] [rounds]    (default 200,000 and 2; BEFORE=<git ref>)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
ROOT="$PWD"
COUNT="${1:-200000}"
ROUNDS="${2:-2}"
BEFORE="${BEFORE:-5c64bb7}"
ES="${ELASTICSEARCH_URL:-http://127.0.0.1:9200}"
WORK="$(mktemp -d)"
TREE="$WORK/before"
ALIASES=()
cleanup() {
  for alias in "${ALIASES[@]}"; do drop "$alias"; done
  git -C "$ROOT" worktree remove --force "$TREE" >/dev/null 2>&1 || true
  rm -rf "$WORK"
}
trap cleanup EXIT
git worktree add --detach -q "$TREE" "$BEFORE"
ln -s "$ROOT/node_modules" "$TREE/node_modules"
node --import tsx scripts/export.ts --count "$COUNT" --out "$WORK/wallpapers.ndjson" 2>/dev/null

# The importer's own summary line; the progress bar's lines carry a rate too.
rate() { grep -E '^import: (live|done) in' | grep -Eo '\(([0-9]+) records/s\)' | tr -dc '0-9'; }
import_in() {
  local tree="$1" alias="$2"; shift 2
  (cd "$tree" && INDEX_ALIAS="$alias" node --import tsx scripts/import.ts "$@" 2>&1) | rate
}

echo "| round | build | full import, fresh | full import, same file | incremental, same file |"
echo "|--:|---|--:|--:|--:|"
# Each round alternates which build goes first, and drops what a build loaded before the next one
# runs: the indices of earlier rounds, left until the end, had slowed the later ones.
drop() {
  for index in $(curl -fsS "$ES/_cat/indices/$1-*?h=index" 2>/dev/null); do curl -fsS -XDELETE "$ES/$index" >/dev/null || true; done
}
for round in $(seq 1 "$ROUNDS"); do
  order="before now"; [ $((round % 2)) -eq 0 ] && order="now before"
  for build in $order; do
    tree="$ROOT"; [ "$build" = before ] && tree="$TREE"
    alias="bench-feed-$build-$round-$(od -An -N2 -tx2 /dev/urandom | tr -d ' ')"
    ALIASES+=("$alias")
    fresh="$(import_in "$tree" "$alias" "$WORK/wallpapers.ndjson")"
    again="$(import_in "$tree" "$alias" "$WORK/wallpapers.ndjson")"
    incremental="$(import_in "$tree" "$alias" "$WORK/wallpapers.ndjson" --incremental)"
    echo "| $round | $build | $fresh | $again | $incremental |"
    drop "$alias"
  done
done
