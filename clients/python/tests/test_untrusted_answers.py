"""When the server answers outside the contract (a stranger on a plain-http path, a broken proxy, a
hostile mirror), then the client and the tool stop with a clear message: no file outside the
folder, no file the tool did not make deleted, no endless walk, nothing a terminal acts on."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable, Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import httpx
import pytest

from wallpaper_catalogue import Client, cli
from wallpaper_catalogue._pacing import Pacing
from wallpaper_catalogue.download import fetch_all
from wallpaper_catalogue.errors import ApiError
from wallpaper_catalogue.sync import MANIFEST

from .fakes import PICTURE, everything_under, feed, item, page, serve_api

BAD_IDS: list[Any] = ["../escaped", "/tmp/absolute", "*", "1\x00x", 5.5, True, 0, -3, 2**60, "7"]


@pytest.mark.parametrize("bad", BAD_IDS, ids=ascii)
def test_when_a_listing_gives_an_id_that_is_no_wallpaper_id_then_nothing_is_written_and_the_answer_is_refused(
    bad: Any, tmp_path: Path, pictures: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    serve_api(monkeypatch, lambda _r: httpx.Response(200, json=page([item(bad, f"{pictures}/a.png"), item(3, f"{pictures}/b.png")])))
    folder = tmp_path / "mirror"
    assert cli.main(["download", "--dir", str(folder), "--quiet"]) == 1
    assert "unexpected_response" in capsys.readouterr().err
    assert everything_under(tmp_path) == ["mirror"]


def test_when_pictures_are_fetched_under_ids_that_are_no_wallpaper_ids_then_each_fails_alone_and_the_rest_are_fetched(tmp_path: Path, pictures: str) -> None:
    # The tool never passes such ids (the page is refused first); fetch_all is a public function.
    folder = tmp_path / "mirror"
    jobs: list[tuple[Any, str]] = [(bad, f"{pictures}/x.png") for bad in BAD_IDS] + [(7, f"{pictures}/7.png")]
    outcome: list[Any] = []
    worker = threading.Thread(target=lambda: outcome.append(fetch_all(jobs, folder, parallel=1)), daemon=True)
    worker.start()
    worker.join(20)
    assert not worker.is_alive(), "a picture that raised left the listing waiting"
    done, failed = outcome[0]
    assert [f.wallpaper_id for f in done] == [7]
    assert len(failed) == len(BAD_IDS)
    assert everything_under(tmp_path) == ["mirror", "mirror/7.png"]


def looping(kind: str) -> Callable[[httpx.Request], httpx.Response]:
    """Pages a, b, a, b...: each with more after it, each holding one wallpaper; after 20 pages, an
    end, so that a walk that does not notice ends rather than hangs."""
    asked = [0]

    def answer(request: httpx.Request) -> httpx.Response:
        asked[0] += 1
        on_a = request.url.params.get("cursor") == "a"
        following = None if asked[0] > 20 else "b" if on_a else "a"
        wallpaper_id = 2 if on_a else 1
        if kind == "changes":
            change = {"id": wallpaper_id, "change": "delete", "at": "2026-11-30T00:00:00Z"}
            return httpx.Response(200, json={"data": [change], "meta": {"next_cursor": following or "end", "has_more": following is not None}})
        return httpx.Response(200, json=page([item(wallpaper_id, f"http://pictures.test/{wallpaper_id}.png")], following))

    return answer


def test_when_cursors_lead_back_to_a_page_read_before_then_a_walk_stops_with_unexpected_response() -> None:
    for kind, walk in (
        ("list", lambda c: list(c.wallpapers.all())),
        ("list", lambda c: list(c.search.all("sea"))),
        ("changes", lambda c: list(c.changes.follow(until_end=True))),
    ):
        sent: list[httpx.Request] = []
        answer = looping(kind)

        def api(request: httpx.Request, answer: Callable[[httpx.Request], httpx.Response] = answer, sent: list[httpx.Request] = sent) -> httpx.Response:
            sent.append(request)
            return answer(request)

        with Client(base_url="http://api.test", api_key="k", transport=httpx.MockTransport(api)) as client, pytest.raises(ApiError) as refused:
            walk(client)
        assert refused.value.error == "unexpected_response"
        assert len(sent) == 3


@pytest.mark.parametrize("shape", ["the same page under a cursor that varies", "empty pages that say there is more"])
def test_when_a_walk_goes_round_under_new_cursors_then_it_stops_with_unexpected_response(shape: str) -> None:
    sent: list[httpx.Request] = []

    def api(request: httpx.Request) -> httpx.Response:
        sent.append(request)
        cursor = request.url.params.get("cursor", "c") + " "
        changes = [{"id": 1, "change": "delete", "at": "2026-11-30T00:00:00Z"}] if shape.startswith("the same") else []
        return httpx.Response(200, json={"data": changes, "meta": {"next_cursor": None if len(sent) > 20 else cursor, "has_more": len(sent) <= 20}})

    with Client(base_url="http://api.test", api_key="k", transport=httpx.MockTransport(api)) as client, pytest.raises(ApiError) as refused:
        list(client.changes.follow(until_end=True))
    assert refused.value.error == "unexpected_response"
    assert len(sent) <= 3


def test_when_the_change_feed_loops_then_a_sync_stops_with_1_having_asked_three_pages(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    sent = serve_api(monkeypatch, looping("changes"))
    assert cli.main(["sync", "--dir", str(tmp_path / "mirror"), "--quiet"]) == 1
    assert "unexpected_response" in capsys.readouterr().err
    changes = [r for r in sent if r.url.path == "/v1/changes"]
    assert len(changes) == 3


def test_when_the_feed_deletes_a_wallpaper_the_mirror_never_fetched_then_a_file_of_that_name_is_left_alone(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "mirror"
    folder.mkdir()
    (folder / "7.jpg").write_text("mine")

    serve_api(monkeypatch, feed(lambda: [{"id": 7, "change": "delete", "at": "2026-11-30T00:00:00Z"}]))
    assert cli.main(["sync", "--dir", str(folder), "--quiet"]) == 0
    assert (folder / "7.jpg").read_text() == "mine"
    assert "0 removed" in capsys.readouterr().err


@pytest.mark.parametrize(
    "manifest",
    [
        b"{broken",
        b"[]",
        b'{"filters": {}, "files": []}',
        b'{"filters": {}, "pending": {"../x": "http://pictures.test/x.png"}}',
        b'{"filters": {}, "files": {"*": {"file": "*.png"}}}',
        b'{"filters": {}, "cursor": 5}',
        b'{"filters": {}, "pending": {"5": 7}}',
        b"\xff\xfe\x00",
        b'{"filters": {}, "files": {"' + b"9" * 5000 + b'": {}}}',
        b'{"filters": ' + b"[" * 200_000 + b"]" * 200_000 + b"}",
        b'{"version": 2, "filters": {}}\n{"files": {"../x": {"file": "x.png"}}}\n',
        b'{"version": 2, "filters": {}}\n{"pending": {"5": 7}}\n',
        b'{"version": 2, "filters": {}}\n{"files": {"5": "5.png"}}\n',
        b'{"version": 2, "filters": {}}\n[1]\n',
        b'{"version": 2, "filters": {}}\nnot json\n{}\n',
        b'{"version": 2, "filters": {}}\n' + b"[" * 200_000 + b"\n",
        b'{"version": 2, "filters": {}}\n{"files": {"008": {"file": "8.png"}}}\n',
        b'{"version": 3, "filters": {}}\n',
    ],
    ids=lambda manifest: ascii(manifest[:40]),
)
def test_when_the_manifest_was_tampered_with_then_the_sync_stops_with_2_saying_so_and_touches_nothing(
    manifest: bytes, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "mirror"
    folder.mkdir()
    (folder / MANIFEST).write_bytes(manifest)
    (folder / "5.png").write_bytes(PICTURE)
    sent = serve_api(monkeypatch, lambda _r: httpx.Response(500))
    assert cli.main(["sync", "--dir", str(folder), "--quiet"]) == 2
    assert "is not a manifest this tool wrote" in capsys.readouterr().err
    assert sent == []
    assert everything_under(folder) == sorted([MANIFEST, "5.png"])


@pytest.mark.parametrize(
    "body",
    [json.dumps(body) for body in [{"data": []}, [], {"data": {}, "meta": {}}, {"data": [17], "meta": {}}, {"data": [{"id": "17"}], "meta": {}}]]
    + ["[" * 200_000 + "]" * 200_000, '{"data": [{"id": 1, "downloads": Infinity}], "meta": {}}', '{"data": [], "meta": {"x": NaN}}'],
    ids=lambda body: ascii(body[:40]),
)
def test_when_a_page_is_not_shaped_as_the_contract_says_then_the_command_says_so_with_1_without_a_traceback(
    body: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    serve_api(monkeypatch, lambda _r: httpx.Response(200, content=body.encode(), headers={"Content-Type": "application/json"}))
    assert cli.main(["list"]) == 1
    assert "wallpapers: 200 unexpected_response" in capsys.readouterr().err


def test_when_a_wallpaper_or_a_list_of_ids_is_not_shaped_as_the_contract_says_then_no_traceback(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    serve_api(monkeypatch, lambda _r: httpx.Response(200, json=[{"id": 1}]))
    assert cli.main(["get", "1"]) == 1
    assert "wallpapers: 200 unexpected_response" in capsys.readouterr().err
    listed = {"data": [item(1, "http://pictures.test/1.png")], "meta": {"missing": 5}}
    serve_api(monkeypatch, lambda _r: httpx.Response(200, json=listed))
    assert cli.main(["list", "--ids", "1,5"]) == 0
    serve_api(monkeypatch, lambda _r: httpx.Response(200, json={**listed, "meta": {"missing": ["\x1b]0;PWNED\x07"]}}))
    assert cli.main(["list", "--ids", "1,5"]) == 0
    err = capsys.readouterr().err
    assert "\x1b" not in err and "not found: ?]0;PWNED?" in err


def test_when_the_api_s_gzip_inflates_to_nothing_then_its_bytes_still_count_against_the_largest_answer() -> None:
    # A gzip header, then empty stored blocks that are never the last: a stream that never ends.
    endless = b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x02\x03" + b"\x00\x00\x00\xff\xff" * 40_000

    def api(_request: httpx.Request) -> httpx.Response:
        return httpx.Response(200, headers={"Content-Encoding": "gzip", "Content-Type": "application/json"}, stream=httpx.ByteStream(endless))

    with Client(base_url="http://api.test", api_key="k", pacing=Pacing(max_body_bytes=100_000), transport=httpx.MockTransport(api)) as client:
        with pytest.raises(ApiError) as refused:
            client.wallpapers.list()
    assert refused.value.error == "unexpected_response" and "larger than 100000 bytes" in refused.value.message


def test_when_the_feed_upserts_a_wallpaper_whose_name_a_file_of_the_user_s_has_then_the_file_stays_and_the_run_says_so(
    tmp_path: Path, pictures: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "mirror"
    folder.mkdir()
    (folder / "7.jpg").write_text("my own photo")

    serve_api(monkeypatch, feed(lambda: [{"id": 7, "change": "upsert", "at": "2026-11-30T00:00:00Z", "wallpaper": item(7, f"{pictures}/7.png")}]))
    assert cli.main(["sync", "--dir", str(folder), "--quiet"]) == 1
    assert "7.jpg is not this mirror's" in capsys.readouterr().err
    assert sorted(p.name for p in folder.iterdir()) == sorted([MANIFEST, "7.jpg"])
    assert (folder / "7.jpg").read_text() == "my own photo"


def test_when_characters_cannot_be_shown_or_would_reorder_or_break_lines_then_they_print_as_question_marks() -> None:
    assert cli.shown("a\ud800b\u2028c\u200fd\U000e0041e") == "a?b?c?d?e"
    assert cli.shown("Café – 東京 🌅") == "Café – 東京 🌅"


def test_when_a_change_is_neither_an_upsert_with_its_wallpaper_nor_a_delete_then_the_sync_stops_with_1(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    serve_api(monkeypatch, feed(lambda: [{"id": 4, "change": "upsert", "at": "2026-11-30T00:00:00Z", "wallpaper": {"id": 4, "url": None}}]))
    assert cli.main(["sync", "--dir", str(tmp_path / "mirror"), "--quiet"]) == 1
    assert "unexpected_response" in capsys.readouterr().err


def test_when_text_from_the_server_holds_what_a_terminal_acts_on_then_it_is_printed_as_question_marks(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    title = "Calm\x1b]0;PWNED\x07\x1b[2J Sea\u202e"
    serve_api(monkeypatch, lambda _r: httpx.Response(200, json=page([{**item(1, "http://pictures.test/1.png", title), "resolution": None}])))
    assert cli.main(["list"]) == 0
    out = capsys.readouterr().out
    assert "\x1b" not in out and "\x07" not in out and "\u202e" not in out
    assert "Calm?]0;PWNED??[2J Sea?" in out and "None" in out

    def refused(_request: httpx.Request) -> httpx.Response:
        return httpx.Response(400, json={"error": "invalid_request", "message": "bad \x1b[2J", "status": 400})

    serve_api(monkeypatch, refused)
    assert cli.main(["list"]) == 1
    assert "bad ?[2J" in capsys.readouterr().err


def test_when_the_quota_s_reset_is_not_a_time_then_it_is_not_waited_for_and_the_json_stays_json(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    headers = {"X-RateLimit-Limit": "1000", "X-RateLimit-Remaining": "0", "X-RateLimit-Reset": "inf"}

    serve_api(monkeypatch, feed(lambda: [], headers))
    assert cli.main(["sync", "--dir", str(tmp_path / "mirror"), "--quiet", "--json"]) == 0
    out, err = capsys.readouterr()

    def no_constants(name: str) -> None:
        raise AssertionError(f"{name} is not JSON")

    assert json.loads(out, parse_constant=no_constants)["quota_spent"] is None
    assert "inf" not in err


def test_when_a_list_walk_meets_an_item_again_as_a_whole_page_then_it_goes_on_to_the_end() -> None:
    # An import mid-walk lowered the downloads of wallpaper 1, served already: the keyset walk meets it again.
    order = [1, 2, 3, 1, 4, 5]

    def api(request: httpx.Request) -> httpx.Response:
        at = int(request.url.params.get("cursor", "0"))
        following = str(at + 1) if at + 1 < len(order) else None
        return httpx.Response(200, json=page([item(order[at], f"http://pictures.test/{order[at]}.png")], following))

    with Client(base_url="http://api.test", api_key="k", transport=httpx.MockTransport(api)) as client:
        assert [w["id"] for w in client.wallpapers.all(per_page=1)] == order


def test_when_a_mirror_restarts_with_other_filters_in_its_folder_then_its_pictures_are_still_its_own(
    tmp_path: Path, pictures: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "mirror"
    catalogue = [{**item(1, f"{pictures}/1.png"), "category": "space"}, {**item(2, f"{pictures}/2.png"), "category": "ocean"}]

    serve_api(monkeypatch, feed(lambda: [{"id": w["id"], "change": "upsert", "at": "2026-11-30T00:00:00Z", "wallpaper": w} for w in catalogue]))
    assert cli.main(["sync", "--dir", str(folder), "--quiet", "--category", "space"]) == 0
    assert cli.main(["sync", "--dir", str(folder), "--quiet", "--category", "ocean"]) == 2
    assert cli.main(["sync", "--dir", str(folder), "--quiet", "--category", "ocean", "--restart"]) == 0
    err = capsys.readouterr().err
    assert "not this mirror's" not in err
    assert sorted(p.name for p in folder.iterdir()) == sorted([MANIFEST, "2.png"])


def test_when_a_user_s_picture_sits_beside_the_mirror_s_under_the_same_id_then_the_mirror_deletes_only_its_own(
    tmp_path: Path, pictures: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "mirror"
    deleted = [False]

    upsert = {"id": 7, "change": "upsert", "at": "2026-11-30T00:00:00Z", "wallpaper": item(7, f"{pictures}/7.png")}
    serve_api(monkeypatch, feed(lambda: [{"id": 7, "change": "delete", "at": "2026-11-30T01:00:00Z"} if deleted[0] else upsert]))
    assert cli.main(["sync", "--dir", str(folder), "--quiet"]) == 0
    # The user's pictures of every other type: whichever is found first by id, it is not the mirror's.
    from wallpaper_catalogue.download import IMAGE_EXTENSIONS

    mine = [f"7.{ext}" for ext in IMAGE_EXTENSIONS if ext != "png"]
    for name in mine:
        (folder / name).write_text("my own photo")
    deleted[0] = True
    assert cli.main(["sync", "--dir", str(folder), "--quiet"]) == 0
    assert sorted(p.name for p in folder.iterdir()) == sorted([MANIFEST, *mine])


def test_when_another_run_left_a_part_by_the_picture_s_name_then_a_download_renames_only_what_it_wrote(tmp_path: Path) -> None:
    from wallpaper_catalogue.download import fetch_picture

    halfway, go_on = threading.Event(), threading.Event()
    # Larger than a file's write buffer: what came first is on disk before the rest comes.
    big = PICTURE + bytes(range(256)) * 1024

    class Slow(BaseHTTPRequestHandler):
        def do_GET(self) -> None:  # noqa: N802 (http.server's name)
            self.send_response(200)
            self.send_header("Content-Type", "image/png")
            self.send_header("Content-Length", str(len(big)))
            self.end_headers()
            self.wfile.write(big[:100_000])
            self.wfile.flush()
            halfway.set()
            go_on.wait(10)
            self.wfile.write(big[100_000:])

        def log_message(self, *_args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Slow)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    outcome: list[object] = []

    def fetch() -> None:
        with httpx.Client() as http:
            outcome.append(fetch_picture(http, f"http://127.0.0.1:{server.server_address[1]}/7", tmp_path, 7))

    runner = threading.Thread(target=fetch)
    runner.start()
    try:
        assert halfway.wait(10)
        time.sleep(0.2)
        # A second run on the folder, killed part way, left its half picture by the name the first had used.
        (tmp_path / "7.png.part").write_bytes(b"TRUNC")
        go_on.set()
        runner.join(10)
    finally:
        go_on.set()
        server.shutdown()
        server.server_close()
    assert (tmp_path / "7.png").read_bytes() == big
    # The other run's, written moments ago, is not taken for a leftover: it may be under way.
    assert sorted(p.name for p in tmp_path.iterdir()) == ["7.png", "7.png.part"]
    assert (tmp_path / "7.png.part").read_bytes() == b"TRUNC"
