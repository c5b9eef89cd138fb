#!/usr/bin/env bash
# What keeping titles' completions costs an incremental import that changes what it touches, side by
# side with the build before, alternating: each round loads the same catalogue into a fresh alias,
# then imports a file that changes every record's downloads, renames one in a hundred and deletes
# one in a hundred. Records per second as the importer reports them ("done in").
#   bash bench/title-carriers-import.sh [count] [rounds]    (default 200,000 and 2; BEFORE=<git ref>)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
COUNT="${1:-200000}"
ROUNDS="${2:-2}"
BEFORE="${BEFORE:-75dd9e4}"
# shellcheck source=bench/import-builds.sh
source bench/import-builds.sh
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

one() {
  local build="$1" tree="$2" alias="bench-carriers-$1-$round"
  ALIASES+=("$alias")
  import_in "$tree" "$alias" "$WORK/wallpapers.ndjson" >/dev/null
  echo "| $round | $build | $(import_in "$tree" "$alias" --incremental "$WORK/changed.ndjson") |"
  drop "$alias"
}
echo "| round | build | incremental, every record changed (records/s) |"
echo "|--:|---|--:|"
for round in $(seq 1 "$ROUNDS"); do
  if (( round % 2 )); then one before "$TREE"; one now "$ROOT"; else one now "$ROOT"; one before "$TREE"; fi
done
