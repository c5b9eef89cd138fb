# Sourced by the importer's side-by-side benchmarks (change-feed-import.sh, title-carriers-import.sh):
# the build before in a worktree, COUNT demo records exported to $WORK/wallpapers.ndjson, the
# importer's rate as it reports it, and dropping what a run loaded (ALIASES, at exit too).
# The caller sets COUNT and BEFORE and runs from the repository's root.
ROOT="$PWD"
ES="${ELASTICSEARCH_URL:-http://127.0.0.1:9200}"
WORK="$(mktemp -d)"
TREE="$WORK/before"
ALIASES=()
drop() {
  for index in $(curl -fsS "$ES/_cat/indices/$1-*?h=index" 2>/dev/null); do curl -fsS -XDELETE "$ES/$index" >/dev/null || true; done
}
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
