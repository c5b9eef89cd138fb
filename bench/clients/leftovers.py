"""What fetching pictures costs in a folder that already holds many: a download of COUNT new
pictures into a folder of EXISTING, in one run, and as a sync fetches them, a page of 100 at a time.

    clients/python/.venv/bin/python bench/clients/leftovers.py --existing 100000 --count 2000 [--src DIR]

`--src` is the `src` folder of the client to measure (a worktree of the build before, for an A/B);
it defaults to this checkout's. Pictures come from an in-process transport (a few bytes each, no
network), so the figures are the client's own: its bookkeeping of the folder, not the transfer.
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
PICTURE = b"\x89PNG\r\n\x1a\n" + b"\x00" * 56


def timed(run: Any) -> tuple[float, float]:
    wall, cpu = time.perf_counter(), time.process_time()
    run()
    return time.perf_counter() - wall, time.process_time() - cpu


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--existing", type=int, default=100_000)
    parser.add_argument("--count", type=int, default=2000)
    parser.add_argument("--src", default=str(ROOT / "clients/python/src"))
    args = parser.parse_args()
    sys.path.insert(0, args.src)
    import httpx

    from wallpaper_catalogue import download

    transport = httpx.MockTransport(
        lambda _request: httpx.Response(200, stream=httpx.ByteStream(PICTURE), headers={"Content-Type": "image/png", "Content-Length": str(len(PICTURE))})
    )
    shared = getattr(download, "Leftovers", None)
    base = Path(tempfile.mkdtemp(prefix="leftovers-bench-"))
    try:
        for kind in ("download", "sync"):
            folder = base / kind
            folder.mkdir()
            for i in range(1, args.existing + 1):
                (folder / f"{i}.png").write_bytes(PICTURE)
            ids = range(args.existing + 1, args.existing + args.count + 1)
            http = download.picture_client(60.0, transport)

            def run() -> None:
                if kind == "download":
                    download.fetch_all([(i, f"http://pictures.test/{i}") for i in ids], folder, parallel=4, http=http)
                    return
                # As a sync does: a page of 100 at a time, with the folder as listed when it began.
                kept: dict[str, Any] = {"leftovers": shared(folder)} if shared is not None else {}
                for start in range(0, len(ids), 100):
                    download.fetch_all([(i, f"http://pictures.test/{i}") for i in ids[start : start + 100]], folder, parallel=4, http=http, **kept)

            wall, cpu = timed(run)
            http.close()
            assert len(os.listdir(folder)) == args.existing + args.count
            print(f"{kind}: {args.count} pictures into {args.existing:,}: {wall:.2f} s wall, {cpu:.2f} s CPU, {wall / args.count * 1000:.2f} ms a picture")
    finally:
        shutil.rmtree(base)


if __name__ == "__main__":
    main()
