"""Fakes the offline tests share: an API answered in-process, and a server of one picture over
127.0.0.1 (pictures are fetched over a real socket, as the tool fetches them)."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import httpx
import pytest

from wallpaper_catalogue import Client, cli
from wallpaper_catalogue._pacing import Pacing

PICTURE = b"\x89PNG\r\n\x1a\n" + b"\x00" * 200


@contextmanager
def picture_server(delay: float = 0.0) -> Iterator[str]:
    """A server of one PNG at every path, over 127.0.0.1: where listed pictures are fetched from;
    each answered `delay` seconds late."""

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:  # noqa: N802 (http.server's name)
            time.sleep(delay)
            self.send_response(200)
            self.send_header("Content-Type", "image/png")
            self.send_header("Content-Length", str(len(PICTURE)))
            self.end_headers()
            self.wfile.write(PICTURE)

        def log_message(self, *_args: object) -> None:
            pass

    class Server(ThreadingHTTPServer):
        # Eight pictures asked at once overflow http.server's backlog of 5: a dropped connection is
        # tried again a second later.
        request_queue_size = 64

    server = Server(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


def page(items: list[dict[str, Any]], next_cursor: str | None = None, has_more: bool | None = None) -> dict[str, Any]:
    meta: dict[str, Any] = {"current_page": 1, "per_page": 100, "total_items": len(items), "total_pages": 1, "next_cursor": next_cursor}
    if has_more is not None:
        meta["has_more"] = has_more
    return {"data": items, "meta": meta}


def item(wallpaper_id: Any, url: str, title: str = "Calm Sea") -> dict[str, Any]:
    return {"id": wallpaper_id, "title": title, "url": url, "category": "ocean", "resolution": "1920x1080", "width": 1920, "height": 1080}


def feed(changes: Callable[[], list[dict[str, Any]]], headers: dict[str, str] | None = None) -> Callable[[httpx.Request], httpx.Response]:
    """An API whose list is empty (what a new mirror asks, to check its filters) and whose change
    feed is one last page of `changes()`."""

    def api(request: httpx.Request) -> httpx.Response:
        if request.url.path == "/v1/wallpapers":
            return httpx.Response(200, headers=headers, json=page([]))
        return httpx.Response(200, headers=headers, json={"data": changes(), "meta": {"next_cursor": "end", "has_more": False}})

    return api


def serve_api(monkeypatch: pytest.MonkeyPatch, answer: Callable[[httpx.Request], httpx.Response]) -> list[httpx.Request]:
    sent: list[httpx.Request] = []

    def api(request: httpx.Request) -> httpx.Response:
        sent.append(request)
        return answer(request)

    monkeypatch.setattr(
        cli, "_client", lambda _args, **_kw: Client(base_url="http://api.test", api_key="k", pacing=Pacing(), transport=httpx.MockTransport(api))
    )
    return sent


def everything_under(folder: Path) -> list[str]:
    return sorted(str(p.relative_to(folder)) for p in folder.rglob("*"))
