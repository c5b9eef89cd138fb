"""Keep a copy of the catalogue in step, with the official Python client and the change feed.

    pip install ./clients/python
    API_URL=http://127.0.0.1:3000 API_KEY=wpc_... python docs/examples/mirror.py [state.json]

The first run copies the whole catalogue (the feed from its start is a snapshot); each later run
applies only what changed since, from the cursor it saved. When the API no longer continues that
cursor (CursorExpired: the record of changes was lost or restored), the copy is made again from the
start, keeping only what that walk serves.
"""

import json
import os
import sys
from pathlib import Path

from wallpaper_catalogue import Client, CursorExpired

state_path = Path(sys.argv[1] if len(sys.argv) > 1 else "mirror-state.json")
state = json.loads(state_path.read_text()) if state_path.exists() else {"cursor": None, "wallpapers": {}}


def apply_feed(client: Client, copy: dict, cursor: str | None) -> int:
    applied = 0
    for followed in client.changes.follow(cursor, until_end=True, per_page=100):
        change = followed.change
        if change["change"] == "delete":
            copy["wallpapers"].pop(str(change["id"]), None)
        else:
            copy["wallpapers"][str(change["id"])] = change["wallpaper"]
        # Saved with its page applied: a run cut short applies that page again, which is harmless.
        copy["cursor"] = followed.cursor
        applied += 1
    return applied


with Client(base_url=os.environ["API_URL"], api_key=os.environ["API_KEY"]) as client:
    try:
        applied = apply_feed(client, state, state["cursor"])
    except CursorExpired:
        state = {"cursor": None, "wallpapers": {}}
        applied = apply_feed(client, state, None)

state_path.write_text(json.dumps(state))
print(f"applied {applied} changes; the copy holds {len(state['wallpapers'])} wallpapers")
