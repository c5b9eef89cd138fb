#!/usr/bin/env bash
# Import and reindex throughput at scale, with peak RSS from /usr/bin/time -v.
#   bash bench/import-reindex-1m.sh [count]      (default 1,000,000; the stack must be running)
# Uses a throw-away alias and deletes its indices and the NDJSON file afterwards.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
COUNT="${1:-1000000}"
ES="${ELASTICSEARCH_URL:-http://127.0.0.1:9200}"
ALIAS="bench-import-$(od -An -N4 -tx4 /dev/urandom | tr -d ' ')"
WORK="$(mktemp -d)"
cleanup() {
  # By name: wildcard deletes are refused where action.destructive_requires_name is on.
  for index in $(curl -fsS "$ES/_cat/indices/$ALIAS-*?h=index" 2>/dev/null); do curl -fsS -XDELETE "$ES/$index" >/dev/null || true; done
  rm -rf "$WORK"
}
trap cleanup EXIT

measure() {
  local label="$1"; shift
  INDEX_ALIAS="$ALIAS" /usr/bin/time -v "$@" 2>"$WORK/$label.log" >/dev/null || { cat "$WORK/$label.log" >&2; exit 1; }
  grep -E '^(import|reindex): (done|[0-9]+ records loaded)|^(read|imported|copied) [0-9/]+ (records|docs) in' "$WORK/$label.log"
  grep -E 'Elapsed \(wall clock\)|Maximum resident set size' "$WORK/$label.log" | sed 's/^\s*/  /'
}

node --import tsx scripts/export.ts --count "$COUNT" --out "$WORK/wallpapers.ndjson" 2>/dev/null
echo "== import of $COUNT records ($(du -h "$WORK/wallpapers.ndjson" | cut -f1) of NDJSON) into alias $ALIAS"
measure import node --import tsx scripts/import.ts "$WORK/wallpapers.ndjson"
# Lucene documents count each palette colour too (nested); the size is of the primary, as loaded.
curl -fsS "$ES/_cat/indices/$ALIAS-*?h=index,docs.count,pri.store.size&bytes=mb" | sed 's/^/  index (name, Lucene documents, MB): /'
echo "== reindex of $COUNT documents"
measure reindex node --import tsx scripts/reindex.ts
