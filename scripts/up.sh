#!/usr/bin/env bash
# One command from a fresh clone to a running API with demo data:
# installs prerequisites, starts Elasticsearch and Redis, seeds demo wallpapers,
# creates a demo key, serves the API (compiled, as `npm start` does) and, once it answers,
# prints the key with ready-to-paste requests.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
ASKED_COUNT="${DEMO_COUNT:-}"
DEMO_COUNT="${DEMO_COUNT:-10000}"
PORT="${PORT:-3000}"
export PORT
say() { printf '[up] %s\n' "$*" >&2; }
case "$DEMO_COUNT" in
  '' | *[!0-9]* | 0* | ?????????? | ???????????*) bad_count=1 ;;
  *) bad_count=$((DEMO_COUNT > 100000000)) ;;
esac
if [ "$bad_count" = 1 ]; then say "DEMO_COUNT must be a whole number from 1 to 100000000, got '$DEMO_COUNT'"; exit 2; fi
# The API's ports are looked at first, so a taken one (or one that is no port) is said before a
# minute of seeding, not after.
for name in PORT METRICS_PORT PICTURES_PORT; do
  port="${!name:-}"
  [ "$name" = PORT ] && port="${port:-3000}"
  [ "$name" = METRICS_PORT ] && port="${port:-9464}"
  [ "$name" = PICTURES_PORT ] && port="${port:-3100}"
  case "$port" in
    0) [ "$name" = METRICS_PORT ] || { say "$name must be a port from 1 to 65535, got '$port'"; exit 2; } ;;
    '' | *[!0-9]* | 0* | ??????*) say "$name must be a port from 1 to 65535, got '$port'"; exit 2 ;;
    *) if [ "$port" -gt 65535 ]; then say "$name must be a port from 1 to 65535, got '$port'"; exit 2; fi ;;
  esac
  # The pictures' port may already serve them (stack.sh pictures-start keeps a server it finds).
  if [ "$name" != PICTURES_PORT ] && [ "$port" != 0 ] && (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
    say "port $port is taken (an earlier npm run up still serving?): stop that, or set $name"
    exit 1
  fi
done
# The demo wallpapers' pictures: drawn from their words, served here, and read for their palettes.
PICTURES_PORT="${PICTURES_PORT:-3100}"
export IMAGE_BASE_URL="${IMAGE_BASE_URL:-http://127.0.0.1:$PICTURES_PORT}"
# The stack starts on ES_PORT and REDIS_PORT (stack.sh says to set them when a port is taken); the
# seed, the key and the API must then talk to those, not to the default ports, where another
# Elasticsearch may answer and be seeded over.
export ELASTICSEARCH_URL="${ELASTICSEARCH_URL:-http://127.0.0.1:${ES_PORT:-9200}}"
export REDIS_URL="${REDIS_URL:-redis://127.0.0.1:${REDIS_PORT:-6379}}"

bash scripts/install-prereqs.sh --run
bash scripts/stack.sh start
bash scripts/stack.sh pictures-start 42
# A catalogue already behind the alias is kept: a second `up` starts in seconds instead of drawing
# and reading 10,000 pictures again, and a catalogue the developer imported is never seeded over.
npm run --silent seed -- --count "$DEMO_COUNT" --seed 42 --extract-colors --if-absent
ALIAS="${INDEX_ALIAS:-wallpapers}"
# One read of the catalogue: its size, and where it names the pictures (a kept catalogue names
# them where they were served when it was seeded).
CATALOGUE="$(curl -fsS --max-time 10 "${ELASTICSEARCH_URL%%,*}/$ALIAS/_search?size=1&track_total_hits=true&filter_path=hits.total.value,hits.hits._source.url" 2>/dev/null || true)"
COUNT="$(printf '%s' "$CATALOGUE" | sed -nE 's/.*"value":([0-9]+).*/\1/p')"
PICTURES_AT="$(printf '%s' "$CATALOGUE" | sed -nE 's#.*"url":"(https?://[^/"]*).*#\1#p')"
SERVED_AT="$(printf '%s' "$IMAGE_BASE_URL" | sed -nE 's#^(https?://[^/]*).*#\1#p')"
# What a seed pasted from here needs to replace this catalogue: where the pictures are served, and
# the stack and alias this up uses when they are not the defaults.
SEED_ENV="IMAGE_BASE_URL=$IMAGE_BASE_URL"
[ "$ELASTICSEARCH_URL" = http://127.0.0.1:9200 ] || SEED_ENV="$SEED_ENV ELASTICSEARCH_URL=$ELASTICSEARCH_URL"
[ -z "${INDEX_ALIAS:-}" ] || SEED_ENV="$SEED_ENV INDEX_ALIAS=$INDEX_ALIAS"
if [ -n "$PICTURES_AT" ] && [ "$PICTURES_AT" != "$SERVED_AT" ]; then
  say "the catalogue kept names its pictures at $PICTURES_AT, not $IMAGE_BASE_URL: serve them there, or replace it while this up serves them ($SEED_ENV npm run seed -- --count ${COUNT:-$DEMO_COUNT} --seed 42 --extract-colors)"
fi
if [ -n "$ASKED_COUNT" ] && [ "${COUNT:-}" != "$ASKED_COUNT" ]; then
  say "DEMO_COUNT=$ASKED_COUNT: the catalogue already there was kept; to replace it with $ASKED_COUNT demo wallpapers, while this up serves their pictures:"
  # The seed reads the pictures where this up serves them: without IMAGE_BASE_URL it would read
  # them at the configuration's default address, which serves none (helper-149).
  say "  $SEED_ENV npm run seed -- --count $ASKED_COUNT --seed 42 --extract-colors"
fi
# Cursors are sealed with CURSOR_SECRET. Without one, each start of the API picked its own, and
# every cursor a client kept (a change feed's, a `wallpapers sync` folder's) was refused after the
# next `up`. The API makes one on its first start and keeps it with the stack, readable by its
# owner only (CURSOR_SECRET_FILE, as compose keeps it in a volume).
if [ -z "${CURSOR_SECRET:-}" ]; then
  export CURSOR_SECRET_FILE="${CURSOR_SECRET_FILE:-${STACK_DIR:-$ROOT/.stack}/cursor-secret}"
fi
KEY="$(npm run --silent keys -- create --tier free --account demo)"
[ -n "$KEY" ] || { echo "could not create a demo key" >&2; exit 1; }

# The banner waits for the server to answer, so its requests work when pasted: compiling and
# loading the search model take a few seconds after this point. It stops waiting if the server
# stops (exec keeps this shell's pid for it) or after two minutes.
(
  answered=0
  for _ in $(seq 1 600); do
    kill -0 $$ 2>/dev/null || exit 0
    curl -fs "http://127.0.0.1:$PORT/healthz" >/dev/null 2>&1 && answered=1 && break
    sleep 0.2
  done
  [ "$answered" = 1 ] || exit 0
  sleep 0.2 # the server's "listening" lines are written within 50 ms (batched); the banner comes last
  cat >&2 <<MSG

  Wallpaper catalogue API: http://127.0.0.1:$PORT  (${COUNT:-?} wallpapers)
  Developer portal:        http://127.0.0.1:$PORT/portal  (sign up, generate and rotate keys, usage)
  Demo API key (free tier, shown once):

    $KEY

  Try:
    curl -s -H "Authorization: Bearer $KEY" "http://127.0.0.1:$PORT/v1/wallpapers?per_page=2"
    curl -s -H "Authorization: Bearer $KEY" "http://127.0.0.1:$PORT/v1/search?q=mountain+sunset"
    curl -s -H "Authorization: Bearer $KEY" "http://127.0.0.1:$PORT/v1/wallpapers?color=blue&tone=dark&include=tags,colors&per_page=2"

  Each wallpaper's url and thumbnail open in a browser (drawn at $IMAGE_BASE_URL).

  Stop the API with Ctrl-C; stop Elasticsearch and Redis with: ${STACK_DIR:+STACK_DIR=$STACK_DIR }npm run stack:stop

MSG
) &
# The production way: compile src/ to dist/ and run it with node (package.json "start").
exec npm --silent start
