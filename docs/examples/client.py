"""The API with Python and requests: list, search, page to the end, and wait out a 429.

    pip install requests
    API_URL=http://127.0.0.1:3000 API_KEY=wpc_... python3 docs/examples/client.py [category]

The official client (clients/python) does all of this and more; this shows the HTTP underneath.
"""
import os
import sys
import time

import requests

API_URL = os.environ["API_URL"]
session = requests.Session()
session.headers["Authorization"] = f"Bearer {os.environ['API_KEY']}"


def error_of(response):
    """The error code of an answer, or None when its body is not the API's JSON (a proxy's page)."""
    try:
        return response.json().get("error")
    except ValueError:
        return None


def get(path, **params):
    """GET a page; on 429 waits Retry-After seconds and asks again, unless that is past a minute (the
    hour's quota is spent: waiting would block for up to an hour) or the key itself is refused
    (too_many_auth_failures: waiting only brings back its 403); raises on other errors."""
    while True:
        response = session.get(f"{API_URL}{path}", params=params, timeout=30)
        if response.status_code != 429 or error_of(response) == "too_many_auth_failures":
            break
        wait = int(response.headers.get("Retry-After", "1"))
        if wait > 60:
            raise RuntimeError(f"quota spent: it frees up in {wait}s")
        print(f"rate limited: waiting {wait}s", file=sys.stderr)
        time.sleep(wait)
    if not response.ok:
        body = response.json()
        raise RuntimeError(f"{body['status']} {body['error']}: {body['message']}")
    return response.json()


category = sys.argv[1] if len(sys.argv) > 1 else "space"
print("newest:", get("/v1/wallpapers", per_page=1)["data"][0]["title"])
print("search 'mountain':", get("/v1/search", q="mountain", per_page=1)["meta"]["total_items"], "results")
# Wallpapers like the newest one (one page, never itself).
newest_id = get("/v1/wallpapers", per_page=1)["data"][0]["id"]
print(f"like {newest_id}:", len(get(f"/v1/wallpapers/{newest_id}/similar", per_page=5)["data"]), "wallpapers")
# By colour (a name or a hex), light or dark, with the palette in each item.
dark_blue = get("/v1/wallpapers", color="blue,#1e3a5f", tone="dark", include="colors", per_page=1)
print("dark and blue:", dark_blue["meta"]["total_items"], "wallpapers")

# Every wallpaper of the category: follow meta.next_cursor until it is null.
count, cursor = 0, None
while True:
    params = {"category": category, "per_page": 100}
    if cursor:
        params["cursor"] = cursor
    page = get("/v1/wallpapers", **params)
    count += len(page["data"])
    cursor = page["meta"]["next_cursor"]
    if not cursor:
        break
print(f"walked {count} wallpapers in {category}")
