"""What a mirror's manifest costs as the mirror grows: a first sync of N wallpapers (pages of 100)
and then a sync of 100 changes at the tail, against a change feed answered in-process.

    clients/python/.venv/bin/python bench/clients/sync-manifest.py --count 20000 [--src DIR]

`--src` is the `src` folder of the client to measure (a worktree of the build before, for an A/B);
it defaults to this checkout's. Pictures are written by a stand-in for the download (a few bytes
each, no network), so the figures are the sync's own: its manifest, its bookkeeping, the feed's
JSON. Bytes written are the process's own count (/proc/self/io, wchar), pictures included.
"""

from __future__ import annotations

import argparse
import json
import resource
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
PICTURE = b"\x89PNG\r\n\x1a\n" + b"\x00" * 56


def written() -> int:
    for line in Path("/proc/self/io").read_text().splitlines():
        if line.startswith("wchar:"):
            return int(line.split()[1])
    raise RuntimeError("no wchar in /proc/self/io")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--count", type=int, default=20_000)
    parser.add_argument("--tail", type=int, default=100)
    parser.add_argument("--src", default=str(ROOT / "clients/python/src"))
    args = parser.parse_args()
    sys.path.insert(0, args.src)

    import httpx

    from wallpaper_catalogue import Client, sync
    from wallpaper_catalogue._pacing import Pacing
    from wallpaper_catalogue.download import Fetched

    def fetch_all(jobs: Any, folder: Path, *, on_done: Any, **_options: Any) -> Any:
        for wallpaper_id, _url in jobs:
            path = folder / f"{wallpaper_id}.png"
            path.write_bytes(PICTURE)
            on_done(Fetched(wallpaper_id, path, len(PICTURE), False))
        return [], []

    sync.fetch_all = fetch_all

    def upsert(i: int, title: str = "Calm Sea") -> dict[str, Any]:
        wallpaper = {"id": i, "title": title, "url": f"http://pictures.test/{i}.png", "category": "ocean", "resolution": "1920x1080", "width": 1920, "height": 1080}
        return {"id": i, "change": "upsert", "at": "2026-11-30T00:00:00Z", "wallpaper": wallpaper}

    changes = [upsert(i) for i in range(1, args.count + 1)]

    def api(request: httpx.Request) -> httpx.Response:
        if request.url.path == "/v1/wallpapers":
            return httpx.Response(200, json={"data": [], "meta": {"next_cursor": None}})
        start, size = int(request.url.params.get("cursor") or 0), int(request.url.params["per_page"])
        end = min(start + size, len(changes))
        return httpx.Response(200, json={"data": changes[start:end], "meta": {"next_cursor": str(end), "has_more": end < len(changes)}})

    client = Client(base_url="http://api.test", api_key="k", pacing=Pacing(), transport=httpx.MockTransport(api))
    folder = Path(tempfile.mkdtemp(prefix="sync-manifest-")) / "mirror"
    result: dict[str, Any] = {"count": args.count, "src": args.src}
    for name in ("first", "tail"):
        if name == "tail":
            changes.extend(upsert(i, "Renamed") for i in range(1, args.tail + 1))
        bytes_before, clock, cpu = written(), time.perf_counter(), time.process_time()
        report = sync.sync(client, folder, {})
        result[name] = {
            "changes": report.changes,
            "seconds": round(time.perf_counter() - clock, 2),
            "cpu_seconds": round(time.process_time() - cpu, 2),
            "mb_written": round((written() - bytes_before) / 1e6, 1),
            "manifest_mb": round((folder / sync.MANIFEST).stat().st_size / 1e6, 2),
        }
    result["peak_rss_mb"] = round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024)
    print(json.dumps(result))


if __name__ == "__main__":
    main()
