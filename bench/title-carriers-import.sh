#!/usr/bin/env bash
# What keeping titles' completions costs an incremental import that changes what it touches, side by
# side with the build before, alternating: each round loads the same catalogue into a fresh alias,
# then imports a file that changes every record's downloads, renames one in a hundred and deletes
# one in a hundred. Records per second as the importer reports them ("done in").
#   bash bench/title-carriers-import.sh [count] [rounds]    (default 200,000 and 2; BEFORE=<git ref>)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
ROOT="$PWD"
COUNT="${1:-200000}"
ROUNDS="${2:-2}"
BEFORE="${BEFORE:-75dd9e4}"
ES="${ELASTICSEARCH_URL:-http://127.0.0.1:9200}"
WORK="$(mktemp -d)"
TREE="$WORK/before"
drop() {
  for index in $(curl -fsS "$ES/_cat/indices/$1-*?h=index" 2>/dev/null); do curl -fsS -XDELETE "$ES/$index" >/dev/null || true; done
}
cleanup() {
  drop bench-carriers-before
  drop bench-carriers-now
  git -C "$ROOT" worktree remove --force "$TREE" >/dev/null 2>&1 || true
  rm -rf "$WORK"
}
trap cleanup EXIT
git worktree add --detach -q "$TREE" "$BEFORE"
ln -s "$ROOT/node_modules" "$TREE/node_modules"
node --import tsx scripts/export.ts --count "$COUNT" --out "$WORK/wallpapers.ndjson" 2>/dev/null
python3 - "$WORK/wallpapers.ndjson" "$WORK/changed.ndjson" <<'PY'
import json, sys
with open(sys.argv[1]) as source, open(sys.argv[2], 'w') as out:
    for n, line in enumerate(source):
        record = json.loads(line)
        if n % 100 == 0:
            out.write(json.dumps({'id': record['id'], 'deleted': True}) + '\n')
            continue
        record['downloads'] += 1
        if n % 100 == 1:
            record['title'] += ' Renamed'
        out.write(json.dumps(record) + '\n')
PY

rate() { grep -E '^import: (live|done) in' | grep -Eo '\(([0-9]+) records/s\)' | tr -dc '0-9'; }
import_in() {
  local tree="$1" alias="$2"; shift 2
  (cd "$tree" && INDEX_ALIAS="$alias" node --import tsx scripts/import.ts "$@" 2>&1) | rate
}
one() {
  local build="$1" tree="$2" alias="bench-carriers-$1"
  drop "$alias"
  import_in "$tree" "$alias" "$WORK/wallpapers.ndjson" >/dev/null
  echo "| $round | $build | $(import_in "$tree" "$alias" --incremental "$WORK/changed.ndjson") |"
  drop "$alias"
}
echo "| round | build | incremental, every record changed (records/s) |"
echo "|--:|---|--:|"
for round in $(seq 1 "$ROUNDS"); do
  if (( round % 2 )); then one before "$TREE"; one now "$ROOT"; else one now "$ROOT"; one before "$TREE"; fi
done
