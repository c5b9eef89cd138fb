#!/usr/bin/env bash
# One command from a fresh clone to a running API with demo data:
# installs prerequisites, starts Elasticsearch and Redis, seeds demo wallpapers,
# creates a demo key, prints it with a ready-to-paste request, then serves the API
# (compiled, as `npm start` does).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
DEMO_COUNT="${DEMO_COUNT:-10000}"
PORT="${PORT:-3000}"
export PORT

bash scripts/install-prereqs.sh
bash scripts/stack.sh start
npm run --silent seed -- --count "$DEMO_COUNT" --seed 42
KEY="$(npm run --silent keys -- create --tier free --account demo)"
[ -n "$KEY" ] || { echo "could not create a demo key" >&2; exit 1; }

cat >&2 <<MSG

  Wallpaper catalogue API: http://127.0.0.1:$PORT  ($DEMO_COUNT demo wallpapers)
  Developer portal:        http://127.0.0.1:$PORT/portal  (sign up, generate and rotate keys, usage)
  Demo API key (free tier, shown once):

    $KEY

  Try:
    curl -s -H "Authorization: Bearer $KEY" "http://127.0.0.1:$PORT/v1/wallpapers?per_page=2"
    curl -s -H "Authorization: Bearer $KEY" "http://127.0.0.1:$PORT/v1/search?q=mountain+sunset"

  Stop the API with Ctrl-C; stop Elasticsearch and Redis with: npm run stack:stop

MSG
# The production way: compile src/ to dist/ and run it with node (package.json "start").
exec npm --silent start
