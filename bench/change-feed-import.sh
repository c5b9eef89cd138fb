#!/usr/bin/env bash
# The importer's rate with change recording against the importer without it, side by side,
# alternating: a full import into a fresh alias, the same file again (a full import that compares
# every batch with the catalogue it replaces), and the same file as an incremental import. Records
# per second as the importer reports them ("live in" / "done in").
#   bash bench/change-feed-import.sh [count] [rounds]    (default 200,000 and 2)
# "before" is by default the committed build with recording turned off (recording-off.patch: no
# digest, no stamps, no comparison, no walk of what a full load replaces; the lock's confirm before
# each bulk request goes with it, about 0.1 %), so commit what is measured; or BEFORE=<git ref>, a
# build as it was (5c64bb7, the last before the feed, in the results up to 2026-11-27). The two
# full imports measure what recording costs. The incremental column does not: with recording it
# writes none of the unchanged records, without it every one.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
COUNT="${1:-200000}"
ROUNDS="${2:-2}"
BEFORE="${BEFORE:-recording-off}"
OFF=""
if [ "$BEFORE" = recording-off ]; then OFF=1; BEFORE=HEAD; fi
# shellcheck source=bench/import-builds.sh
source bench/import-builds.sh
# A patch that no longer applies fails the run here rather than measure recording against itself.
if [ -n "$OFF" ]; then git -C "$TREE" apply "$ROOT/bench/recording-off.patch"; fi
# A first import on a node pays for its warm-up (10,890 records/s against 21,000 after): not a round's.
import_in "$ROOT" bench-feed-warm "$WORK/wallpapers.ndjson" >/dev/null
drop bench-feed-warm

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
