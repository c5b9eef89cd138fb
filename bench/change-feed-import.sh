#!/usr/bin/env bash
# The importer's rate with change recording against the build before it, side by side, alternating:
# a full import into a fresh alias, the same file again (a full import that compares every batch
# with the catalogue it replaces), and the same file as an incremental import (compares, writes
# nothing). Records per second as the importer reports them ("live in" / "done in").
#   bash bench/change-feed-import.sh [count] [rounds]    (default 200,000 and 2; BEFORE=<git ref>)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
COUNT="${1:-200000}"
ROUNDS="${2:-2}"
BEFORE="${BEFORE:-5c64bb7}"
# shellcheck source=bench/import-builds.sh
source bench/import-builds.sh

echo "| round | build | full import, fresh | full import, same file | incremental, same file |"
echo "|--:|---|--:|--:|--:|"
# Each round alternates which build goes first, and drops what a build loaded before the next one
# runs: the indices of earlier rounds, left until the end, had slowed the later ones.
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
