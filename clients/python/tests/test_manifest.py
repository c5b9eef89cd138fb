"""When a mirror saves where it stands, then a save costs what it changed, not the whole mirror, and
the manifest reads back as it was saved, after a save cut short and from the older version too."""

from __future__ import annotations

import errno
import json
import os
import signal
import sys
from pathlib import Path
from typing import Any

import httpx
import pytest

from wallpaper_catalogue import cli, download, sync
from wallpaper_catalogue.sync import MANIFEST, Manifest

from .fakes import PICTURE, feed, item, serve_api

if sys.platform != "win32":
    import fcntl

AT = "2026-11-30T00:00:00Z"


def upsert(wallpaper_id: int, pictures: str, title: str = "Calm Sea") -> dict[str, Any]:
    return {"id": wallpaper_id, "change": "upsert", "at": AT, "wallpaper": item(wallpaper_id, f"{pictures}/{wallpaper_id}.png", title)}


def paged_feed(changes: list[dict[str, Any]], asked: list[str | None]) -> Any:
    """A change feed of `changes` in pages of `per_page`, its cursor the offset; at its end, a
    cursor that keeps the place."""

    def api(request: httpx.Request) -> httpx.Response:
        if request.url.path == "/v1/wallpapers":
            return httpx.Response(200, json={"data": [], "meta": {"next_cursor": None}})
        cursor = request.url.params.get("cursor")
        asked.append(cursor)
        start, size = int(cursor or 0), int(request.url.params["per_page"])
        end = min(start + size, len(changes))
        return httpx.Response(200, json={"data": changes[start:end], "meta": {"next_cursor": str(end), "has_more": end < len(changes)}})

    return api


def whole_writes(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The size of each manifest written whole (renamed into place)."""
    sizes: list[int] = []
    replace = os.replace

    def counted(source: Any, target: Any) -> None:
        if Path(target).name == MANIFEST:
            sizes.append(Path(source).stat().st_size)
        replace(source, target)

    monkeypatch.setattr(os, "replace", counted)
    return sizes


def test_when_a_first_sync_walks_many_pages_then_the_manifest_is_written_whole_a_few_times_not_once_a_page(
    tmp_path: Path, pictures: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # As a mirror of a million would, at a size a test fetches in a moment: change lines outgrow
    # the whole manifest long before WHOLE_AT_LEAST.
    monkeypatch.setattr(sync, "WHOLE_AT_LEAST", 4096)
    folder = tmp_path / "mirror"
    changes = [upsert(i, pictures) for i in range(1, 401)]
    serve_api(monkeypatch, paged_feed(changes, []))
    whole = whole_writes(monkeypatch)
    assert cli.main(["sync", "--dir", str(folder), "--quiet", "--page-size", "10", "--parallel", "8"]) == 0
    # 40 pages, each saved twice (pending, then the cursor): written whole, that was 80 writes of up
    # to the whole manifest. Written whole as it doubles, it is a handful, all of them together a
    # few times the last.
    assert len(whole) <= 8, whole
    assert sum(whole) <= 3 * os.path.getsize(folder / MANIFEST), (whole, os.path.getsize(folder / MANIFEST))
    saved = Manifest.open(folder, {})
    assert saved.cursor == "400" and saved.pending == {}
    assert sorted(map(int, saved.files)) == list(range(1, 401))
    assert all(entry["file"] == f"{key}.png" and entry["url"] == f"{pictures}/{key}.png" for key, entry in saved.files.items())


def test_when_a_mirror_follows_a_change_at_the_tail_then_the_save_appends_that_change_alone(
    tmp_path: Path, pictures: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "mirror"
    changes = [upsert(i, pictures) for i in range(1, 301)]
    serve_api(monkeypatch, paged_feed(changes, []))
    assert cli.main(["sync", "--dir", str(folder), "--quiet", "--parallel", "8"]) == 0
    before = os.path.getsize(folder / MANIFEST)

    changes += [upsert(5, pictures, "Renamed"), {"id": 6, "change": "delete", "at": AT}]
    whole = whole_writes(monkeypatch)
    assert cli.main(["sync", "--dir", str(folder), "--quiet"]) == 0
    assert whole == []
    assert 0 < os.path.getsize(folder / MANIFEST) - before < 1000
    saved = Manifest.open(folder, {})
    assert saved.cursor == "302" and saved.files["5"]["title"] == "Renamed" and "6" not in saved.files
    assert not (folder / "6.png").exists() and (folder / "5.png").read_bytes() == PICTURE


def test_when_the_last_save_was_cut_short_then_the_manifest_reads_as_before_it_and_the_next_save_writes_it_whole(
    tmp_path: Path, pictures: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "mirror"
    changes = [upsert(i, pictures) for i in range(1, 4)]
    asked: list[str | None] = []
    serve_api(monkeypatch, paged_feed(changes, asked))
    assert cli.main(["sync", "--dir", str(folder), "--quiet"]) == 0
    with (folder / MANIFEST).open("ab") as out:
        out.write(b'{"cursor":"999","files":{"2":nu')

    assert Manifest.open(folder, {}).cursor == "3"
    changes.append({"id": 2, "change": "delete", "at": AT})
    whole = whole_writes(monkeypatch)
    assert cli.main(["sync", "--dir", str(folder), "--quiet"]) == 0
    assert asked[-1] == "3" and len(whole) == 1
    text = (folder / MANIFEST).read_text()
    assert "999" not in text and text.endswith("\n")
    assert sorted(Manifest.open(folder, {}).files) == ["1", "3"]


def test_when_a_manifest_was_written_by_the_first_version_then_the_mirror_goes_on_from_its_cursor(
    tmp_path: Path, pictures: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "mirror"
    folder.mkdir()
    (folder / "1.png").write_bytes(PICTURE)
    first = {
        "version": 1,
        "filters": {},
        "cursor": "1",
        "files": {"1": {"file": "1.png", "url": f"{pictures}/1.png", "title": "Calm Sea", "category": "ocean"}},
        "pending": {},
    }
    (folder / MANIFEST).write_text(json.dumps(first, indent=1, sort_keys=True))
    asked: list[str | None] = []
    serve_api(monkeypatch, paged_feed([upsert(1, pictures), upsert(2, pictures)], asked))
    assert cli.main(["sync", "--dir", str(folder), "--quiet"]) == 0
    assert asked == ["1"]
    saved = Manifest.open(folder, {})
    assert sorted(saved.files) == ["1", "2"] and saved.cursor == "2"
    assert json.loads((folder / MANIFEST).read_text().splitlines()[0])["version"] == 2


def test_when_a_page_of_changes_is_applied_then_the_manifest_reads_back_as_the_mirror_holds_it(
    tmp_path: Path, pictures: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "mirror"
    state = [[upsert(1, pictures), upsert(2, pictures), upsert(3, pictures)]]
    serve_api(monkeypatch, feed(lambda: state[0]))
    assert cli.main(["sync", "--dir", str(folder), "--quiet"]) == 0
    state[0] = [{"id": 1, "change": "delete", "at": AT}, upsert(2, pictures, "Renamed"), upsert(4, pictures)]
    assert cli.main(["sync", "--dir", str(folder), "--quiet"]) == 0
    saved = Manifest.open(folder, {})
    assert {key: entry["title"] for key, entry in saved.files.items()} == {"2": "Renamed", "3": "Calm Sea", "4": "Calm Sea"}
    assert sorted(p.name for p in folder.iterdir()) == sorted([MANIFEST, "2.png", "3.png", "4.png"])


@pytest.mark.skipif(sys.platform == "win32", reason="no advisory locks: a sync there does not lock its folder")
def test_when_another_sync_of_the_folder_is_under_way_then_a_second_does_nothing_and_exits_1(
    tmp_path: Path, pictures: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "mirror"
    sent = serve_api(monkeypatch, paged_feed([upsert(1, pictures)], []))
    assert cli.main(["sync", "--dir", str(folder), "--quiet"]) == 0
    before = (folder / MANIFEST).read_bytes()
    sent.clear()

    # The lock as the other run holds it: on the folder, by another open file.
    other = os.open(folder, os.O_RDONLY)
    try:
        fcntl.flock(other, fcntl.LOCK_EX | fcntl.LOCK_NB)
        assert cli.main(["sync", "--dir", str(folder), "--quiet"]) == 1
        assert "another sync of" in capsys.readouterr().err
        assert sent == [] and (folder / MANIFEST).read_bytes() == before
    finally:
        os.close(other)
    assert cli.main(["sync", "--dir", str(folder), "--quiet"]) == 0
    assert len(sent) == 1


def test_when_a_page_upserts_a_wallpaper_then_deletes_it_then_its_picture_is_not_fetched_nor_kept(
    tmp_path: Path, pictures: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "mirror"
    serve_api(monkeypatch, paged_feed([upsert(4, pictures), upsert(5, pictures), {"id": 5, "change": "delete", "at": AT}], []))
    assert cli.main(["sync", "--dir", str(folder), "--quiet"]) == 0
    assert sorted(p.name for p in folder.iterdir()) == sorted([MANIFEST, "4.png"])
    assert sorted(Manifest.open(folder, {}).files) == ["4"]


@pytest.mark.skipif(sys.platform == "win32", reason="no advisory locks: a sync there does not lock its folder")
def test_when_the_folder_cannot_be_locked_then_the_sync_runs_unlocked(tmp_path: Path, pictures: str, monkeypatch: pytest.MonkeyPatch) -> None:
    def no_locks(*_args: object) -> None:
        raise OSError(errno.ENOLCK, "No locks available")

    monkeypatch.setattr(fcntl, "flock", no_locks)
    folder = tmp_path / "mirror"
    serve_api(monkeypatch, paged_feed([upsert(1, pictures)], []))
    assert cli.main(["sync", "--dir", str(folder), "--quiet"]) == 0
    assert (folder / "1.png").read_bytes() == PICTURE


def test_when_a_damaged_manifest_is_restarted_then_the_folder_is_mirrored_anew_and_the_line_was_named(
    tmp_path: Path, pictures: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "mirror"
    folder.mkdir()
    (folder / MANIFEST).write_text('{"version": 2, "filters": {}}\n{"cursor": "1"}\n\x00\x00\x00\n{"cursor": "2"}\n')
    serve_api(monkeypatch, paged_feed([upsert(1, pictures)], []))
    assert cli.main(["sync", "--dir", str(folder), "--quiet"]) == 2
    assert "line 3" in capsys.readouterr().err
    assert cli.main(["sync", "--dir", str(folder), "--quiet", "--restart"]) == 0
    assert (folder / "1.png").read_bytes() == PICTURE
    assert Manifest.open(folder, {}).cursor == "1"


def test_when_a_link_was_planted_by_the_manifest_s_temporary_name_then_what_it_points_to_is_untouched(
    tmp_path: Path, pictures: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "mirror"
    folder.mkdir()
    victim = tmp_path / "victim.txt"
    victim.write_text("keep me")
    (folder / f"{MANIFEST}.tmp").symlink_to(victim)
    serve_api(monkeypatch, feed(lambda: [upsert(1, pictures), upsert(2, pictures)]))
    assert cli.main(["sync", "--dir", str(folder), "--quiet"]) == 0
    serve_api(monkeypatch, feed(lambda: [upsert(3, pictures)]))
    assert cli.main(["sync", "--dir", str(folder), "--quiet"]) == 0
    assert victim.read_text() == "keep me"
    assert not (folder / MANIFEST).is_symlink()
    assert sorted(Manifest.open(folder, {}).files) == ["1", "2", "3"]


def test_when_the_manifest_itself_is_a_link_then_a_save_does_not_append_through_it(
    tmp_path: Path, pictures: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "mirror"
    serve_api(monkeypatch, feed(lambda: [upsert(1, pictures)]))
    assert cli.main(["sync", "--dir", str(folder), "--quiet"]) == 0
    victim = tmp_path / "victim.txt"
    victim.write_bytes((folder / MANIFEST).read_bytes())
    (folder / MANIFEST).unlink()
    (folder / MANIFEST).symlink_to(victim)
    before = victim.read_bytes()
    serve_api(monkeypatch, feed(lambda: [upsert(2, pictures)]))
    assert cli.main(["sync", "--dir", str(folder), "--quiet"]) == 1
    assert victim.read_bytes() == before
    assert "run again once the folder can be written" in capsys.readouterr().err


def test_when_a_pending_picture_was_written_but_never_named_and_the_feed_deletes_it_then_it_is_removed_and_no_failure_is_left(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # What a run killed between writing picture 3 and saving its name leaves: 3 pending, 3.png there.
    folder = tmp_path / "mirror"
    folder.mkdir()
    unreachable = "http://127.0.0.1:9/3.png"
    wallpaper = {"title": "Calm Sea", "url": unreachable, "category": "ocean"}
    whole = {"version": 2, "filters": {}, "cursor": "start", "files": {"3": wallpaper}, "pending": {"3": unreachable}}
    (folder / MANIFEST).write_text(json.dumps(whole) + "\n")
    (folder / "3.png").write_bytes(PICTURE)
    serve_api(monkeypatch, feed(lambda: [{"id": 3, "change": "delete", "at": AT}]))
    # Its fetch fails first (nothing answers there); the deletion then settles it: no failure is left.
    assert cli.main(["sync", "--dir", str(folder), "--quiet"]) == 0
    err = capsys.readouterr().err
    assert "tried again next run" not in err and "0 failed" in err
    assert sorted(p.name for p in folder.iterdir()) == [MANIFEST]
    assert Manifest.open(folder, {}).files == {}


def test_when_pictures_were_left_pending_then_the_next_run_reads_the_feed_first_and_fetches_only_what_it_did_not_settle(
    tmp_path: Path, pictures: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # An earlier run's fetches of 1, 2 and 3 failed. Since then 1 was deleted and 2 moved; 3 is as
    # it was. The pending retry came first and fetched 1 and 2's old address in vain: against a
    # host that no longer answers, a minute before the first change was read (helper-131).
    folder = tmp_path / "mirror"
    folder.mkdir()
    gone = "http://127.0.0.1:9"
    whole = {"version": 2, "filters": {}, "cursor": "start", "files": {}, "pending": {"1": f"{gone}/1.png", "2": f"{gone}/2.png", "3": f"{pictures}/3.png"}}
    (folder / MANIFEST).write_text(json.dumps(whole) + "\n")
    events: list[str] = []
    changes = [{"id": 1, "change": "delete", "at": AT}, upsert(2, pictures), upsert(4, gone)]
    read_feed = feed(lambda: changes)

    def api(request: httpx.Request) -> httpx.Response:
        events.append(f"feed {request.url.params.get('cursor')}")
        return read_feed(request)

    serve_api(monkeypatch, api)
    real = download.fetch_picture

    def fetching(http: Any, url: str, into: Path, wallpaper_id: int, **kwargs: Any) -> Any:
        events.append(url)
        return real(http, url, into, wallpaper_id, **kwargs)

    monkeypatch.setattr(download, "fetch_picture", fetching)
    assert cli.main(["sync", "--dir", str(folder), "--quiet", "--parallel", "1"]) == 1
    # 4's host does not answer: it waits for the next run, not tried twice in this one.
    assert events == ["feed start", f"{pictures}/2.png", f"{gone}/4.png", f"{pictures}/3.png"]
    assert sorted(p.name for p in folder.iterdir()) == sorted([MANIFEST, "2.png", "3.png"])
    manifest = Manifest.open(folder, {})
    assert sorted(manifest.files) == ["2", "3", "4"]
    assert manifest.pending == {"4": f"{gone}/4.png"}
    assert "4" in capsys.readouterr().err


def test_when_the_quota_is_spent_before_the_feed_is_read_then_what_was_left_pending_is_fetched_all_the_same(
    tmp_path: Path, pictures: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Pictures cost the API no request: a mirror whose every run spends the quota still gets them.
    folder = tmp_path / "mirror"
    folder.mkdir()
    whole = {"version": 2, "filters": {}, "cursor": "start", "files": {}, "pending": {"3": f"{pictures}/3.png"}}
    (folder / MANIFEST).write_text(json.dumps(whole) + "\n")
    spent = {"error": "rate_limit_exceeded", "message": "spent", "status": 429}
    serve_api(monkeypatch, lambda _request: httpx.Response(429, headers={"Retry-After": "3600"}, json=spent))
    assert cli.main(["sync", "--dir", str(folder), "--quiet"]) == 0
    assert sorted(p.name for p in folder.iterdir()) == sorted([MANIFEST, "3.png"])
    manifest = Manifest.open(folder, {})
    assert manifest.pending == {} and manifest.cursor == "start"


def test_when_the_folder_cannot_be_written_then_sync_says_so_in_a_line_and_exits_1(
    tmp_path: Path, pictures: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "mirror"

    def read_only(self: Manifest) -> None:
        raise OSError(errno.EROFS, os.strerror(errno.EROFS), str(self.folder / f"{MANIFEST}.tmp"))

    monkeypatch.setattr(Manifest, "save", read_only)
    serve_api(monkeypatch, feed(lambda: [upsert(1, pictures)]))
    assert cli.main(["sync", "--dir", str(folder), "--quiet"]) == 1
    err = capsys.readouterr().err
    assert "Read-only file system" in err and "Traceback" not in err


def test_when_the_feed_no_longer_continues_a_mirror_s_cursor_then_it_walks_again_across_runs_and_deletes_only_at_the_walk_s_end(
    tmp_path: Path, pictures: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "mirror"
    asked: list[str | None] = []
    serve_api(monkeypatch, paged_feed([upsert(1, pictures), upsert(2, pictures), upsert(3, pictures)], asked))
    assert cli.main(["sync", "--dir", str(folder), "--quiet"]) == 0

    # The record was lost with wallpaper 3's deletion: its cursor "3" is refused, and a walk from
    # the start serves 1 and 2, a page at a time, the quota spent after the first page.
    walk = paged_feed([upsert(1, pictures), upsert(2, pictures)], asked)
    spent = [False]

    def api(request: httpx.Request) -> httpx.Response:
        cursor = request.url.params.get("cursor")
        if cursor == "3":
            return httpx.Response(410, json={"error": "cursor_expired", "message": "This cursor was read in a record of changes since lost", "status": 410})
        if cursor == "1" and not spent[0]:
            spent[0] = True
            return httpx.Response(429, headers={"Retry-After": "3600"}, json={"error": "rate_limit_exceeded", "message": "spent", "status": 429})
        return walk(request)

    serve_api(monkeypatch, api)
    assert cli.main(["sync", "--dir", str(folder), "--quiet", "--page-size", "1", "--max-wait", "1"]) == 0
    cut = Manifest.open(folder, {})
    assert (cut.cursor, cut.walk, cut.sweeping) == ("1", 1, True)
    assert (folder / "3.png").exists()

    assert cli.main(["sync", "--dir", str(folder), "--quiet", "--page-size", "1"]) == 0
    done = Manifest.open(folder, {})
    assert (done.cursor, done.walk, done.sweeping, sorted(done.files)) == ("2", 1, False, ["1", "2"])
    assert sorted(p.name for p in folder.iterdir()) == sorted([MANIFEST, "1.png", "2.png"])
    # The feed as the walks read it (the 410 and the 429 aside): the first walk, the walk again's two runs.
    assert asked == [None, None, "1"]


def test_when_a_manifest_s_walk_is_not_what_the_tool_writes_then_it_is_refused(tmp_path: Path) -> None:
    folder = tmp_path / "mirror"
    folder.mkdir()
    for walk in ('"1"', "-1", "true"):
        (folder / MANIFEST).write_text(f'{{"version":2,"filters":{{}},"cursor":null,"files":{{}},"pending":{{}},"walk":{walk}}}\n')
        with pytest.raises(sync.SyncError, match="walk is not what the tool writes"):
            Manifest.open(folder, {})


def test_when_a_walk_again_serves_nothing_then_no_picture_is_deleted_and_the_run_says_so(
    tmp_path: Path, pictures: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "mirror"
    serve_api(monkeypatch, paged_feed([upsert(1, pictures), upsert(2, pictures)], []))
    assert cli.main(["sync", "--dir", str(folder), "--quiet"]) == 0
    empty = paged_feed([], [])

    def api(request: httpx.Request) -> httpx.Response:
        if request.url.params.get("cursor") == "2":
            return httpx.Response(410, json={"error": "cursor_expired", "message": "lost", "status": 410})
        return empty(request)

    serve_api(monkeypatch, api)
    assert cli.main(["sync", "--dir", str(folder), "--quiet"]) == 0
    assert "served nothing, so no picture was deleted" in capsys.readouterr().err
    assert sorted(p.name for p in folder.iterdir()) == sorted([MANIFEST, "1.png", "2.png"])
    assert not Manifest.open(folder, {}).sweeping


def test_when_a_walk_again_misses_a_wallpaper_the_catalogue_still_holds_then_its_picture_stays(
    tmp_path: Path, pictures: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "mirror"
    serve_api(monkeypatch, paged_feed([upsert(1, pictures), upsert(2, pictures), upsert(3, pictures)], []))
    assert cli.main(["sync", "--dir", str(folder), "--quiet"]) == 0
    # A load is changing 2: its old number is gone and its new one not yet served. 3 was deleted
    # with the record that held its tombstone.
    walk = paged_feed([upsert(1, pictures)], [])
    asked_ids: list[str] = []

    def api(request: httpx.Request) -> httpx.Response:
        if request.url.params.get("cursor") == "3":
            return httpx.Response(410, json={"error": "cursor_expired", "message": "lost", "status": 410})
        if "ids" in request.url.params:
            asked_ids.append(request.url.params["ids"])
            data = [item(2, f"{pictures}/2.png")] if "2" in request.url.params["ids"].split(",") else []
            return httpx.Response(200, json={"data": data, "meta": {"next_cursor": None, "missing": [3]}})
        return walk(request)

    serve_api(monkeypatch, api)
    assert cli.main(["sync", "--dir", str(folder), "--quiet"]) == 0
    assert asked_ids == ["2,3"]
    assert sorted(p.name for p in folder.iterdir()) == sorted([MANIFEST, "1.png", "2.png"])
    assert sorted(Manifest.open(folder, {}).files) == ["1", "2"]


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
@pytest.mark.parametrize(
    ("name", "code", "said"), [("SIGINT", 130, "interrupted"), ("SIGTERM", 143, "stopped by SIGTERM"), ("SIGHUP", 129, "stopped by SIGHUP")]
)
def test_when_a_sync_is_stopped_part_way_through_a_page_then_the_pictures_it_fetched_are_kept_and_the_next_run_fetches_only_the_rest(
    tmp_path: Path, pictures: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], name: str, code: int, said: str
) -> None:
    # A page of six; Ctrl-C (SIGINT), or what `timeout` in a cron job, a scheduler or a container's
    # stop sends (SIGTERM), or a closed terminal (SIGHUP), as the fourth picture is fetched. Each run
    # stopped so had fetched the whole page again, and one stopped every time never got past it;
    # SIGTERM and SIGHUP had ended the run where it stood, a .part left (helper-131).
    signum = getattr(signal, name)
    folder = tmp_path / "mirror"
    serve_api(monkeypatch, feed(lambda: [upsert(i, pictures) for i in range(1, 7)]))
    real = download.fetch_picture
    asked: list[int] = []

    def ended_at_the_fourth(http: Any, url: str, into: Path, wallpaper_id: int, **kwargs: Any) -> Any:
        asked.append(wallpaper_id)
        if len(asked) == 4:
            os.kill(os.getpid(), signum)
            # Under way until the run stops it: then it ends as a picture cut short does.
            kwargs["stop"].wait(10)
        return real(http, url, into, wallpaper_id, **kwargs)

    def not_handled(_signum: int, _frame: object) -> None:
        raise AssertionError(f"{name} reached the test's handler, not the command's")

    # Python's own handler for SIGINT raises KeyboardInterrupt; the others would end pytest.
    before = signal.signal(signum, not_handled) if name != "SIGINT" else signal.getsignal(signum)
    try:
        monkeypatch.setattr(download, "fetch_picture", ended_at_the_fourth)
        assert cli.main(["sync", "--dir", str(folder), "--quiet", "--parallel", "1"]) == code
        assert signal.getsignal(signum) is (before if name == "SIGINT" else not_handled)
    finally:
        signal.signal(signum, before)
    assert said in capsys.readouterr().err
    assert sorted(Manifest.open(folder, {}).pending) == ["4", "5", "6"]
    inodes = {p.name: p.stat().st_ino for p in folder.iterdir() if p.name != MANIFEST}
    assert sorted(inodes) == ["1.png", "2.png", "3.png"]

    asked.clear()
    monkeypatch.setattr(
        download, "fetch_picture", lambda http, url, into, wallpaper_id, **kw: asked.append(wallpaper_id) or real(http, url, into, wallpaper_id, **kw)
    )
    assert cli.main(["sync", "--dir", str(folder), "--quiet"]) == 0
    assert sorted(asked) == [4, 5, 6]
    assert {name: (folder / name).stat().st_ino for name in inodes} == inodes
    assert sorted(Manifest.open(folder, {}).files) == [str(i) for i in range(1, 7)]


class ClosedTerminal:
    """Standard error on a terminal that has closed: every write fails (EIO)."""

    def write(self, _text: str) -> int:
        raise OSError(errno.EIO, os.strerror(errno.EIO))

    def flush(self) -> None:
        raise OSError(errno.EIO, os.strerror(errno.EIO))


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
def test_when_the_terminal_closes_under_a_sync_then_it_still_exits_129_having_saved_what_it_fetched(
    tmp_path: Path, pictures: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Writing why it stopped to the closed terminal had raised EIO: exit 1 and a traceback (helper-133).
    folder = tmp_path / "mirror"
    serve_api(monkeypatch, feed(lambda: [upsert(i, pictures) for i in range(1, 4)]))
    real = download.fetch_picture

    def hung_up_at_the_second(http: Any, url: str, into: Path, wallpaper_id: int, **kwargs: Any) -> Any:
        if wallpaper_id == 2:
            monkeypatch.setattr(sys, "stderr", ClosedTerminal())
            os.kill(os.getpid(), signal.SIGHUP)
            kwargs["stop"].wait(10)
        return real(http, url, into, wallpaper_id, **kwargs)

    before = signal.getsignal(signal.SIGHUP)
    try:
        monkeypatch.setattr(download, "fetch_picture", hung_up_at_the_second)
        assert cli.main(["sync", "--dir", str(folder), "--quiet", "--parallel", "1"]) == 129
    finally:
        signal.signal(signal.SIGHUP, before)
    assert sorted(Manifest.open(folder, {}).pending) == ["2", "3"]
