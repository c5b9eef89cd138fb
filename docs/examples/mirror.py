"""Keep a copy of the catalogue in step, with the official Python client and the change feed.

    pip install ./clients/python
    API_URL=http://127.0.0.1:3000 API_KEY=wpc_... python docs/examples/mirror.py [state.json]

The first run copies the whole catalogue (the feed from its start is a snapshot); each later run
applies only what changed since, from the cursor it saved. A run cut short (Ctrl-C, a network
error, the quota spent) saves how far it got, and the next run goes on from there. When the API no
longer continues that cursor (CursorExpired: the record of changes was lost or restored), the copy
is walked again from the start, keeping what that walk serves and dropping the rest once the
catalogue confirms it gone.
"""

import json
import os
import sys
from pathlib import Path
from typing import Any

from wallpaper_catalogue import Client, CursorExpired

state_path = Path(sys.argv[1] if len(sys.argv) > 1 else "mirror-state.json")
state = json.loads(state_path.read_text()) if state_path.exists() else {"cursor": None, "wallpapers": {}}


def apply_feed(client: Client, copy: dict[str, Any]) -> int:
    applied = 0
    for followed in client.changes.follow(copy["cursor"], until_end=True, per_page=100):
        change = followed.change
        if change["change"] == "delete":
            copy["wallpapers"].pop(str(change["id"]), None)
        else:
            copy["wallpapers"][str(change["id"])] = change["wallpaper"]
        # Saved with its change applied: a run cut short goes on from here, and may apply the rest of
        # the page again, which is harmless.
        copy["cursor"] = followed.cursor
        applied += 1
    return applied


def begin_again(copy: dict[str, Any]) -> None:
    """The walk from the start begins; what the copy held waits beside it (saved with it, so a run
    cut short mid-walk keeps it) until the walk ends."""
    copy["held"] = {**copy.get("held", {}), **copy["wallpapers"]}
    copy.update(cursor=None, wallpapers={})


def keep_what_is_still_there(client: Client, copy: dict[str, Any]) -> None:
    """Once the walk from the start has ended. A wallpaper a load is changing has left its old place in
    the feed and is not served at its new one yet: one the walk did not serve is dropped only once
    the catalogue no longer has it."""
    held = copy["held"]
    unserved = [key for key in held if key not in copy["wallpapers"]]
    for i in range(0, len(unserved), 100):
        chunk = unserved[i : i + 100]
        still_there = {str(w["id"]) for w in client.wallpapers.list(ids=[int(key) for key in chunk])["data"]}
        copy["wallpapers"].update({key: held[key] for key in chunk if key in still_there})
    del copy["held"]


with Client(base_url=os.environ["API_URL"], api_key=os.environ["API_KEY"]) as client:
    try:
        try:
            applied = apply_feed(client, state)
        except CursorExpired:
            begin_again(state)
            applied = apply_feed(client, state)
        if "held" in state:
            keep_what_is_still_there(client, state)
    finally:
        state_path.write_text(json.dumps(state))

print(f"applied {applied} changes; the copy holds {len(state['wallpapers'])} wallpapers")
