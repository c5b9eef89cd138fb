#!/bin/bash
# Import A/B, interleaved: the build before (a worktree at BEFORE) loads its own export, this tree
# loads its own; each line gives the rate, the importer's user CPU and Elasticsearch's CPU.
# usage: BEFORE=/tmp/before BEFORE_FILE=b.ndjson FILE=w.ndjson [ROUNDS=3] bash ab-import.sh
set -euo pipefail
ES=${ELASTICSEARCH_URL:-http://127.0.0.1:9200}
escpu() { curl -s "$ES/_nodes/stats/process?filter_path=nodes.*.process.cpu.total_in_millis" | grep -o '[0-9]*}' | tr -d '}'; }
run() { # dir alias file label
  local c1 c2
  c1=$(escpu)
  (cd "$1" && INDEX_ALIAS=$2 /usr/bin/time -f "[%U user]" npx tsx scripts/import.ts "$3" 2>&1 | grep -E "done in|live in|user" | tr '\n' ' ')
  c2=$(escpu)
  echo " ES cpu $((c2 - c1))ms <- $4"
}
for _ in $(seq 1 "${ROUNDS:-3}"); do
  run "$BEFORE" import-ab-before "$BEFORE_FILE" before
  run "$(git rev-parse --show-toplevel)" import-ab-this "$FILE" this
done
