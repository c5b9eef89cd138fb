#!/usr/bin/env bash
# The API with curl and jq: list, search, page to the end, and wait out a 429.
#   API_URL=http://127.0.0.1:3000 API_KEY=wpc_... bash docs/examples/curl.sh [category]
set -euo pipefail
API_URL="${API_URL:?set API_URL}"
API_KEY="${API_KEY:?set API_KEY}"
CATEGORY="${1:-space}"

# GET with the key; on 429 waits Retry-After seconds and asks again, unless that is past a minute
# (the hour's quota is spent: waiting would block for up to an hour) or the key itself is refused
# (too_many_auth_failures: waiting only brings back its 403). Prints the body.
get() {
  local url="$1" headers body status
  headers="$(mktemp)"
  while :; do
    body="$(curl -sS -D "$headers" -H "Authorization: Bearer $API_KEY" "$url")"
    status="$(awk 'NR==1 {print $2}' "$headers")"
    if [ "$status" != "429" ] || [ "$(jq -r '.error? // empty' <<<"$body" 2>/dev/null)" = "too_many_auth_failures" ]; then break; fi
    wait="$(awk 'tolower($1)=="retry-after:" {print $2+0}' "$headers")"
    if [ "${wait:-1}" -gt 60 ]; then
      rm -f "$headers"
      echo "quota spent: it frees up in ${wait}s" >&2
      return 1
    fi
    echo "rate limited: waiting ${wait:-1}s" >&2
    sleep "${wait:-1}"
  done
  rm -f "$headers"
  [ "${status:0:1}" = "2" ] || { echo "HTTP $status: $body" >&2; return 1; }
  printf '%s' "$body"
}

# Each answer is kept before it is printed, so that a refusal stops the script (set -e) at once.
newest="$(get "$API_URL/v1/wallpapers?per_page=1")"
echo "newest: $(jq -r '.data[0].title' <<<"$newest")"
found="$(get "$API_URL/v1/search?q=mountain&per_page=1")"
echo "search 'mountain': $(jq -r '.meta.total_items' <<<"$found") results"
# Wallpapers like the newest one (one page, never itself).
first="$(jq -r '.data[0].id' <<<"$newest")"
like="$(get "$API_URL/v1/wallpapers/$first/similar?per_page=5")"
echo "like $first: $(jq -r '.data | length' <<<"$like") wallpapers"
# By colour (a name or a hex, %23 for '#'), light or dark, with the palette in each item.
blue="$(get "$API_URL/v1/wallpapers?color=blue,%231e3a5f&tone=dark&include=colors&per_page=1")"
echo "dark and blue: $(jq -r '.meta.total_items' <<<"$blue") wallpapers"

# Every wallpaper of the category, page by page: follow meta.next_cursor until it is null.
url="$API_URL/v1/wallpapers?category=$CATEGORY&per_page=100"
count=0
while :; do
  page="$(get "$url")"
  count=$((count + $(jq '.data | length' <<<"$page")))
  cursor="$(jq -r '.meta.next_cursor // empty' <<<"$page")"
  [ -n "$cursor" ] || break
  url="$API_URL/v1/wallpapers?category=$CATEGORY&per_page=100&cursor=$cursor"
done
echo "walked $count wallpapers in $CATEGORY"
