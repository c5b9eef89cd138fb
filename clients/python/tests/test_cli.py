"""When the `wallpapers` tool runs against the real API, then ..."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import httpx
import pytest

from wallpaper_catalogue.download import existing
from wallpaper_catalogue.sync import MANIFEST, Manifest

from .conftest import Stack, free_port


def wallpapers(stack: Stack, key: str, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**stack.env, "API_KEY": key, "WALLPAPERS_URL": stack.url}
    return subprocess.run([sys.executable, "-m", "wallpaper_catalogue.cli", *args], env=env, capture_output=True, text=True, timeout=300)


def catalogue_ids(stack: Stack, key: str) -> set[int]:
    listed = wallpapers(stack, key, "list", "--json")
    assert listed.returncode == 0, listed.stderr
    return {w["id"] for w in json.loads(listed.stdout)}


def pictures_in(folder: Path) -> set[int]:
    return {int(p.stem) for p in folder.iterdir() if p.is_file() and p.name != MANIFEST and not p.name.endswith((".part", ".tmp"))}


def test_when_listing_commands_take_limit_and_json_then_they_print_a_json_array_of_at_most_that_many(stack: Stack) -> None:
    key = stack.key()
    listed = wallpapers(stack, key, "list", "--limit", "5", "--json")
    assert listed.returncode == 0, listed.stderr
    assert len(json.loads(listed.stdout)) == 5
    word = json.loads(listed.stdout)[0]["title"].split()[0]
    found = wallpapers(stack, key, "search", word, "--limit", "2", "--json")
    assert found.returncode == 0 and 1 <= len(json.loads(found.stdout)) <= 2
    one = wallpapers(stack, key, "get", str(json.loads(listed.stdout)[0]["id"]), "--json")
    assert json.loads(one.stdout)["id"] == json.loads(listed.stdout)[0]["id"]
    plain = wallpapers(stack, key, "list", "--limit", "1").stdout.splitlines()
    assert len(plain) == 1 and plain[0].split()[0] == str(json.loads(listed.stdout)[0]["id"])


def test_when_arguments_are_wrong_then_the_exit_code_is_2_or_the_api_error_is_named(stack: Stack) -> None:
    key = stack.key()
    assert wallpapers(stack, key, "list", "--limit", "0").returncode == 2
    refused = wallpapers(stack, key, "list", "--category", "nonsense")
    assert refused.returncode == 1 and "400 invalid_request" in refused.stderr and "category" in refused.stderr


def test_when_the_api_cannot_be_reached_then_one_line_says_so_after_the_retries(stack: Stack) -> None:
    env = {**stack.env, "API_KEY": "wpc_unused", "WALLPAPERS_URL": f"http://127.0.0.1:{free_port()}"}
    done = subprocess.run([sys.executable, "-m", "wallpaper_catalogue.cli", "list", "--limit", "1"], env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode == 1
    assert done.stderr.startswith("wallpapers: cannot reach http://127.0.0.1:") and done.stderr.count("\n") == 1, done.stderr


def test_when_pictures_are_downloaded_then_they_are_pictures_and_a_second_run_resumes(stack: Stack, tmp_path: Path) -> None:
    key = stack.key()
    first = wallpapers(stack, key, "download", "--dir", str(tmp_path), "--limit", "4", "--json", "--quiet")
    assert first.returncode == 0, first.stderr
    files = json.loads(first.stdout)
    assert len(files) == 4
    for entry in files:
        head = Path(entry["file"]).read_bytes()[:4]
        assert head[:3] == b"\xff\xd8\xff" or head == b"\x89PNG" or head[:4] == b"RIFF"
    again = wallpapers(stack, key, "download", "--dir", str(tmp_path), "--limit", "4", "--quiet")
    assert "0 downloaded, 4 already there" in again.stderr


def test_when_a_picture_is_not_one_then_it_is_refused_and_named(stack: Stack, tmp_path: Path) -> None:
    from wallpaper_catalogue.download import DownloadError, fetch_picture

    with httpx.Client() as http:
        try:
            fetch_picture(http, f"{stack.url}/healthz", tmp_path, 1)
        except DownloadError as refused:
            assert "not a picture" in str(refused)
        else:
            raise AssertionError("a JSON answer was taken for a picture")
    assert list(tmp_path.iterdir()) == []


def test_when_a_mirror_meets_an_import_a_deletion_and_a_spent_quota_then_the_folder_matches_the_catalogue(stack: Stack, tmp_path: Path) -> None:
    key = stack.key()
    folder = tmp_path / "mirror"
    first = wallpapers(stack, key, "sync", "--dir", str(folder), "--quiet", "--json")
    assert first.returncode == 0, first.stderr
    assert pictures_in(folder) == catalogue_ids(stack, key)

    # The catalogue changes: one record changes picture, one is new, one is deleted.
    records = stack.records(60)
    changed = {**records[3], "url": records[4]["url"], "title": "Moved Picture"}
    added = {**records[5], "id": 90_001, "title": "Newcomer"}
    stack.load([changed, added, {"id": records[6]["id"], "deleted": True}], incremental=True)

    # A key of 12 requests an hour, 3 changes a page: the quota runs out mid-run, which stops cleanly.
    tiny = stack.key("tiny")
    for _ in range(10):
        spent = wallpapers(stack, tiny, "list", "--limit", "1")
        assert spent.returncode == 0, (_, spent.stderr)
    stopped = wallpapers(stack, tiny, "sync", "--dir", str(folder), "--page-size", "1", "--max-wait", "1", "--quiet", "--json")
    assert stopped.returncode == 0, stopped.stderr
    assert "quota is spent" in stopped.stderr.lower() and "run again then to continue" in stopped.stderr
    assert json.loads(stopped.stdout)["quota_spent"] > 0
    partial = json.loads(stopped.stdout)["changes"]
    assert 0 < partial < 3

    resumed = wallpapers(stack, key, "sync", "--dir", str(folder), "--quiet", "--json")
    assert resumed.returncode == 0, resumed.stderr
    assert json.loads(resumed.stdout)["changes"] == 3 - partial
    assert pictures_in(folder) == catalogue_ids(stack, key)
    assert records[6]["id"] not in pictures_in(folder) and 90_001 in pictures_in(folder)
    assert Manifest.open(folder, {}).files[str(records[3]["id"])]["url"] == records[4]["url"]
    moved = existing(folder, int(records[3]["id"]))
    assert moved is not None and moved.read_bytes() == httpx.get(str(records[4]["url"])).content


def test_when_the_record_of_changes_is_lost_then_a_mirror_walks_again_and_deletes_what_the_walk_did_not_serve(stack: Stack, tmp_path: Path) -> None:
    key = stack.key()
    folder = tmp_path / "mirror"
    first = wallpapers(stack, key, "sync", "--dir", str(folder), "--quiet", "--json")
    assert first.returncode == 0, first.stderr
    gone = sorted(pictures_in(folder))[7]
    # Deleted, then the tombstone lost with the record: no change says wallpaper `gone` left.
    stack.load([{"id": gone, "deleted": True}], incremental=True)
    stack.lose_record_of_changes()

    again = wallpapers(stack, key, "sync", "--dir", str(folder), "--quiet", "--json")
    assert again.returncode == 0, again.stderr
    assert "walked the change feed again from its start" in again.stderr and "cursor" in json.loads(again.stdout)["walked_again"]
    assert json.loads(again.stdout)["removed"] == 1
    assert pictures_in(folder) == catalogue_ids(stack, key) and gone not in pictures_in(folder)
    assert not Manifest.open(folder, {}).sweeping

    # The next load begins a new history, which a walk read while the record was missing cannot go
    # on in (its deletions could have been lost too): the mirror walks once more, fetching only what is new.
    added = {**stack.records(60)[8], "id": 90_002, "title": "After the Loss"}
    stack.load([added], incremental=True)
    after = wallpapers(stack, key, "sync", "--dir", str(folder), "--quiet", "--json")
    assert after.returncode == 0, after.stderr
    assert json.loads(after.stdout)["walked_again"] is not None
    assert (json.loads(after.stdout)["fetched"], json.loads(after.stdout)["removed"]) == (1, 0)
    assert pictures_in(folder) == catalogue_ids(stack, key)
    settled = wallpapers(stack, key, "sync", "--dir", str(folder), "--quiet", "--json")
    assert json.loads(settled.stdout)["walked_again"] is None and json.loads(settled.stdout)["changes"] == 0


def test_when_a_mirror_has_filters_then_only_what_matches_is_kept_and_other_filters_are_refused(stack: Stack, tmp_path: Path) -> None:
    key = stack.key()
    records = stack.records(60)
    category = str(records[0]["category"])
    mirrored = wallpapers(stack, key, "sync", "--dir", str(tmp_path), "--category", category, "--quiet")
    assert mirrored.returncode == 0, mirrored.stderr
    listed = wallpapers(stack, key, "list", "--category", category, "--json")
    assert pictures_in(tmp_path) == {w["id"] for w in json.loads(listed.stdout)}
    other = wallpapers(stack, key, "sync", "--dir", str(tmp_path), "--tone", "dark", "--quiet")
    assert other.returncode == 2 and "mirrors other filters" in other.stderr
    colour = wallpapers(stack, key, "sync", "--dir", str(tmp_path / "c"), "--color", "red")
    assert colour.returncode == 2


def test_when_a_new_mirror_s_filters_are_wrong_then_it_stops_at_once_with_2_naming_them(stack: Stack, tmp_path: Path) -> None:
    key = stack.key()
    typo = wallpapers(stack, key, "sync", "--dir", str(tmp_path / "a"), "--category", "spcae", "--quiet")
    assert typo.returncode == 2 and "category" in typo.stderr and "Traceback" not in typo.stderr
    assert not (tmp_path / "a" / MANIFEST).exists()
    size = wallpapers(stack, key, "sync", "--dir", str(tmp_path / "b"), "--min-resolution", "foo", "--quiet")
    assert size.returncode == 2 and "min_resolution" in size.stderr and "Traceback" not in size.stderr


def test_when_usage_is_wrong_then_it_says_so_with_2_before_asking_anything(stack: Stack, tmp_path: Path) -> None:
    taken = tmp_path / "a-file"
    taken.write_text("mine")
    for args in (
        ["download", "--dir", str(taken)],
        ["sync", "--dir", str(taken)],
        ["download", "--dir", str(taken / "below")],
        ["sync", "--dir", str(taken / "below"), "--category", "space"],
        ["download", "--dir", str(tmp_path), "--parallel", "0"],
        ["list", "--tags", ","],
        ["sync", "--dir", str(tmp_path / "m"), "--category", "space", "--tags", " "],
        ["list", "--ids", ""],
        ["sync", "--dir", str(tmp_path / "m"), "--max-wait", "-1"],
        ["sync", "--dir", str(tmp_path / "m"), "--max-wait", "nan"],
    ):
        done = wallpapers(stack, "wpc_never_used", *args)
        assert done.returncode == 2 and "Traceback" not in done.stderr, (args, done.stderr)
    assert taken.read_text() == "mine"
    unset = subprocess.run([sys.executable, "-m", "wallpaper_catalogue.cli", "list"], env={**stack.env, "API_KEY": ""}, capture_output=True, text=True)
    assert unset.returncode == 2 and "API_KEY" in unset.stderr


def test_when_the_reader_stops_reading_then_the_tool_stops_quietly(
    stack: Stack, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from wallpaper_catalogue import cli

    class ClosedPipe:
        def __init__(self) -> None:
            self.file = open(tmp_path / "stdout", "w")  # noqa: SIM115 - closed below

        def write(self, _text: str) -> int:
            raise BrokenPipeError(32, "Broken pipe")

        def flush(self) -> None:
            pass

        def fileno(self) -> int:
            return self.file.fileno()

    pipe = ClosedPipe()
    monkeypatch.setenv("API_KEY", stack.key())
    monkeypatch.setenv("WALLPAPERS_URL", stack.url)
    monkeypatch.setattr(sys, "stdout", pipe)
    try:
        assert cli.main(["list", "--limit", "3"]) == 0
    finally:
        pipe.file.close()
    assert "Traceback" not in capsys.readouterr().err


def test_when_a_listing_asks_for_ids_or_more_fields_then_those_are_listed(stack: Stack) -> None:
    key = stack.key()
    first = json.loads(wallpapers(stack, key, "list", "--limit", "3", "--include", "tags", "--json").stdout)
    assert all("tags" in w for w in first)
    ids = ",".join(str(w["id"]) for w in reversed(first))
    listed = wallpapers(stack, key, "list", "--ids", ids, "--json")
    assert listed.returncode == 0, listed.stderr
    assert [w["id"] for w in json.loads(listed.stdout)] == [w["id"] for w in reversed(first)]
    mixed = wallpapers(stack, key, "list", "--ids", ids, "--category", "space")
    assert mixed.returncode == 2 and "--ids" in mixed.stderr
    unknown = wallpapers(stack, key, "list", "--ids", f"{first[0]['id']},999999999", "--json")
    assert unknown.returncode == 0 and "not found: 999999999" in unknown.stderr
    assert [w["id"] for w in json.loads(unknown.stdout)] == [first[0]["id"]]


def download_listing_three_then(stack: Stack, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, later: httpx.Response) -> tuple[int, list[dict[str, object]]]:
    """`download` of a listing whose first page lists three wallpapers and whose next page answers
    `later`: its exit code, and the three listed."""
    from wallpaper_catalogue import Client, cli
    from wallpaper_catalogue._pacing import Pacing

    listed = stack.records(3)

    def api(request: httpx.Request) -> httpx.Response:
        if "cursor" not in request.url.params:
            meta = {"current_page": 1, "per_page": 3, "total_items": 9, "total_pages": 3, "next_cursor": "page-2"}
            return httpx.Response(200, json={"data": listed, "meta": meta})
        return later

    monkeypatch.setattr(
        cli, "_client", lambda _args, **_kw: Client(base_url="http://api.test", api_key="k", pacing=Pacing(), transport=httpx.MockTransport(api))
    )
    return cli.main(["download", "--dir", str(tmp_path), "--quiet"]), listed


def test_when_the_quota_runs_out_before_a_download_s_listing_ends_then_what_was_listed_is_fetched_and_it_says_so(
    stack: Stack, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    spent = httpx.Response(429, headers={"Retry-After": "3600"}, json={"error": "rate_limit_exceeded", "message": "spent", "status": 429})
    code, listed = download_listing_three_then(stack, tmp_path, monkeypatch, spent)
    assert code == 1
    assert pictures_in(tmp_path) == {int(str(r["id"])) for r in listed}
    assert "spent (asked to wait 3600 s) before the listing ended: run again then to continue" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("status", "error", "said"),
    [(500, "internal_error", "500 internal_error: broke"), (410, "cursor_expired", "410 cursor_expired: broke")],
    ids=["500", "410"],
)
def test_when_a_later_listing_page_fails_then_what_was_listed_is_fetched_and_it_says_where_the_listing_stopped(
    stack: Stack, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], status: int, error: str, said: str
) -> None:
    broke = httpx.Response(status, json={"error": error, "message": "broke", "status": status})
    code, listed = download_listing_three_then(stack, tmp_path, monkeypatch, broke)
    assert code == 1
    assert pictures_in(tmp_path) == {int(str(r["id"])) for r in listed}
    err = capsys.readouterr().err
    assert "3 downloaded, 0 already there, 0 failed" in err
    assert f"wallpapers: the listing stopped part way ({said}): run again to continue" in err


def test_when_the_first_answer_is_a_429_then_the_api_s_own_reason_is_printed(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    from wallpaper_catalogue import Client, cli
    from wallpaper_catalogue._pacing import Pacing

    busy = "Rate limit exceeded. Please try again in 10 minutes"

    def api(_request: httpx.Request) -> httpx.Response:
        return httpx.Response(429, headers={"Retry-After": "600"}, json={"error": "rate_limit_exceeded", "message": busy, "status": 429})

    monkeypatch.setattr(
        cli, "_client", lambda _args, **_kw: Client(base_url="http://api.test", api_key="k", pacing=Pacing(), transport=httpx.MockTransport(api))
    )
    assert cli.main(["list", "--limit", "1"]) == 1
    err = capsys.readouterr().err
    assert f"wallpapers: {busy} (asked to wait 600 s)" in err
    assert "quota" not in err


def test_when_a_download_or_a_mirror_is_stopped_by_a_429_then_the_api_s_own_reason_is_printed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from wallpaper_catalogue import Client, cli
    from wallpaper_catalogue._pacing import Pacing

    busy = "Rate limit exceeded. Please try again in 10 minutes"

    def api(_request: httpx.Request) -> httpx.Response:
        return httpx.Response(429, headers={"Retry-After": "600"}, json={"error": "rate_limit_exceeded", "message": busy, "status": 429})

    monkeypatch.setattr(
        cli, "_client", lambda _args, **_kw: Client(base_url="http://api.test", api_key="k", pacing=Pacing(), transport=httpx.MockTransport(api))
    )
    cli.main(["download", "--dir", str(tmp_path / "pictures"), "--quiet"])
    cli.main(["sync", "--dir", str(tmp_path / "mirror"), "--quiet"])
    err = capsys.readouterr().err
    assert f"{busy} (asked to wait 600 s) before the listing ended" in err
    assert f"; {busy} (asked to wait 600 s): run again then to continue" in err
    assert "quota" not in err


@pytest.mark.parametrize("command", [["list", "--limit", "1"], ["download", "--dir", "pictures", "--quiet"], ["sync", "--dir", "mirror", "--quiet"]])
def test_when_the_key_is_refused_for_failed_authentications_then_the_command_stops_at_once_with_1_asking_to_check_the_key(
    command: list[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from wallpaper_catalogue import Client, cli
    from wallpaper_catalogue._pacing import Pacing

    locked = "Too many failed authentications from this address: requests without a valid API key are refused for 10 minutes. Check the API key"
    sent: list[httpx.Request] = []

    def api(request: httpx.Request) -> httpx.Response:
        sent.append(request)
        return httpx.Response(429, headers={"Retry-After": "600"}, json={"error": "too_many_auth_failures", "message": locked, "status": 429})

    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(
        cli, "_client", lambda _args, **_kw: Client(base_url="http://api.test", api_key="k", pacing=Pacing(), transport=httpx.MockTransport(api))
    )
    assert cli.main(command) == 1
    err = capsys.readouterr().err
    assert f"wallpapers: 429 too_many_auth_failures: {locked}\n" in err
    assert "run again" not in err and "asked to wait" not in err
    assert len(sent) == 1


def test_when_the_quota_runs_out_mid_walk_then_list_json_still_prints_what_was_read_and_exits_1(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from wallpaper_catalogue import cli

    from .fakes import item, page, serve_api

    first = [item(i, f"http://pictures.test/{i}.png") for i in (1, 2, 3)]

    def api(request: httpx.Request) -> httpx.Response:
        if "cursor" not in request.url.params:
            return httpx.Response(200, json=page(first, next_cursor="page-2"))
        return httpx.Response(429, headers={"Retry-After": "3600"}, json={"error": "rate_limit_exceeded", "message": "spent", "status": 429})

    serve_api(monkeypatch, api)
    assert cli.main(["list", "--json"]) == 1
    out, err = capsys.readouterr()
    assert [w["id"] for w in json.loads(out)] == [1, 2, 3]
    assert "spent" in err
    # A walk that read nothing prints nothing: `[]` would read as an empty catalogue.
    serve_api(monkeypatch, lambda _r: httpx.Response(403, json={"error": "forbidden", "message": "Invalid API key", "status": 403}))
    assert cli.main(["list", "--json"]) == 1
    assert capsys.readouterr().out == ""


@pytest.mark.parametrize("url", ["http://[::1", "ftp://example.com", "example.com", "http://", "http://h:99999", "http://user:pw@h", "http://h:3455?x=1"])
def test_when_wallpapers_url_is_not_an_address_then_it_says_so_with_2_before_asking_anything(
    url: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from wallpaper_catalogue import cli

    monkeypatch.setenv("API_KEY", "wpc_k")
    monkeypatch.setenv("WALLPAPERS_URL", url)
    assert cli.main(["list", "--limit", "1"]) == 2
    err = capsys.readouterr().err
    assert ("is not an address such as https://api.example.com" in err or "must be the API's address alone" in err) and "Traceback" not in err


def test_when_wallpapers_url_is_set_but_empty_then_the_local_api_is_meant(monkeypatch: pytest.MonkeyPatch) -> None:
    import argparse

    from wallpaper_catalogue import cli

    monkeypatch.setenv("API_KEY", "wpc_k")
    monkeypatch.setenv("WALLPAPERS_URL", "")
    with cli._client(argparse.Namespace()) as client:
        assert str(client._http.base_url) == "http://127.0.0.1:3000"


def test_when_a_mirror_is_asked_for_its_filters_in_another_order_then_it_goes_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from wallpaper_catalogue import cli

    from .fakes import feed, serve_api

    serve_api(monkeypatch, feed(lambda: []))
    folder = tmp_path / "mirror"
    assert cli.main(["sync", "--dir", str(folder), "--category", "space,nature", "--quiet"]) == 0
    assert cli.main(["sync", "--dir", str(folder), "--category", "nature,space", "--quiet"]) == 0
    assert cli.main(["sync", "--dir", str(folder), "--category", "space,nature,space", "--quiet"]) == 0
    assert cli.main(["sync", "--dir", str(folder), "--category", "nature", "--quiet"]) == 2
    assert "mirrors other filters" in capsys.readouterr().err


def test_when_a_mirror_is_asked_for_its_tags_in_another_case_then_it_goes_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # The API compares tags in lower case: `--tags Forest` after `forest` had been
    # refused as other filters (helper-107).
    from wallpaper_catalogue import cli

    from .fakes import feed, serve_api

    serve_api(monkeypatch, feed(lambda: []))
    folder = tmp_path / "mirror"
    assert cli.main(["sync", "--dir", str(folder), "--tags", "forest,Pine", "--exclude-tags", "Snow", "--quiet"]) == 0
    assert cli.main(["sync", "--dir", str(folder), "--tags", "Forest,pine", "--exclude-tags", "snow", "--quiet"]) == 0
    assert cli.main(["sync", "--dir", str(folder), "--tags", "forests,pine", "--exclude-tags", "snow", "--quiet"]) == 2
    assert "mirrors other filters" in capsys.readouterr().err


def test_when_api_key_has_white_space_around_it_then_it_is_the_key_and_one_with_white_space_inside_is_a_usage_error(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import argparse

    from wallpaper_catalogue import cli

    monkeypatch.setenv("WALLPAPERS_URL", "http://127.0.0.1:3000")
    # A key read from a file with CRLF line ends, or pasted with a space.
    monkeypatch.setenv("API_KEY", " wpc_k\r\n")
    with cli._client(argparse.Namespace()) as client:
        assert client._http.headers["Authorization"] == "Bearer wpc_k"
    monkeypatch.setenv("API_KEY", "wpc_secret part")
    assert cli.main(["list", "--limit", "1"]) == 2
    said = capsys.readouterr().err
    assert said.startswith("wallpapers: API_KEY: the key must be printable ASCII") and "Traceback" not in said and "secret" not in said


def test_when_the_reader_of_stderr_stops_reading_mid_run_then_download_and_sync_end_with_0(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # A progress line written from a worker thread to a closed pipe: tqdm kept its lock through the
    # failed write, and the tool waited for ever to close the bar (helper-98).
    import threading

    from wallpaper_catalogue import cli

    from .fakes import feed, item, page, picture_server, serve_api

    class ClosedAfterAWhile:
        def __init__(self) -> None:
            self.writes = 0

        def write(self, text: str) -> int:
            self.writes += 1
            if self.writes > 2:
                raise BrokenPipeError(32, "Broken pipe")
            return len(text)

        def flush(self) -> None:
            if self.writes > 2:
                raise BrokenPipeError(32, "Broken pipe")

        def isatty(self) -> bool:
            # A terminal, so the bar is drawn: a bar is drawn only for one.
            return True

    with picture_server(delay=0.15) as pictures:
        listed = [item(i, f"{pictures}/{i}.png") for i in range(1, 25)]
        changes = [{"id": i, "change": "upsert", "at": "2026-12-01T00:00:00Z", "wallpaper": item(i, f"{pictures}/{i}.png")} for i in range(1, 25)]
        runs = {
            "download": (lambda request: httpx.Response(200, json=page(listed)), ["download", "--dir", str(tmp_path / "d"), "--parallel", "4"]),
            "sync": (feed(lambda: changes), ["sync", "--dir", str(tmp_path / "m"), "--parallel", "4"]),
        }
        for name, (api, args) in runs.items():
            serve_api(monkeypatch, api)
            monkeypatch.setattr(sys, "stderr", ClosedAfterAWhile())
            outcome: list[int] = []
            runner = threading.Thread(target=lambda: outcome.append(cli.main(args)), daemon=True)
            runner.start()
            runner.join(30)
            assert not runner.is_alive(), f"{name} waited for ever"
            assert outcome == [0], name


def test_when_stderr_is_not_a_terminal_then_download_draws_no_bar_and_on_one_a_stop_is_said_on_a_line_of_its_own(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # In a log, the bar's carriage returns had piled into one mangled line; on a terminal, the
    # reason a run stopped had been printed on the bar's unfinished line (helper-107).
    import io

    from wallpaper_catalogue import cli

    from .fakes import item, page, picture_server, serve_api

    with picture_server() as pictures:
        listed = [item(i, f"{pictures}/{i}.png") for i in range(1, 4)]
        serve_api(monkeypatch, lambda request: httpx.Response(200, json=page(listed)))
        assert cli.main(["download", "--dir", str(tmp_path / "d")]) == 0
    logged = capsys.readouterr().err
    assert "\r" not in logged and "picture/s" not in logged
    assert logged.splitlines()[-1].startswith("3 downloaded, 0 already there, 0 failed")

    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    terminal = Terminal()
    monkeypatch.setattr(sys, "stderr", terminal)
    refused = {"error": "invalid_request", "message": "Invalid query parameter 'q'", "status": 400}
    serve_api(monkeypatch, lambda request: httpx.Response(400, json=refused))
    assert cli.main(["download", "--dir", str(tmp_path / "e"), "--q", ""]) == 1
    shown = terminal.getvalue()
    assert "download:" in shown
    assert "\nwallpapers: 400 invalid_request" in shown


def test_when_the_search_is_empty_then_the_api_is_asked_to_search_and_its_refusal_said_not_the_catalogue_listed(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # A script's empty `$Q`: `wallpapers search ""` had listed the whole catalogue (helper-107).
    from wallpaper_catalogue import cli

    from .fakes import serve_api

    refused = {"error": "invalid_request", "message": "Invalid query parameter 'q': must be at least 1 character(s) after trimming", "status": 400}
    asked = serve_api(monkeypatch, lambda request: httpx.Response(400, json=refused))
    assert cli.main(["search", "", "--limit", "2"]) == 1
    assert [request.url.path for request in asked] == ["/v1/search"]
    assert "400 invalid_request: Invalid query parameter 'q'" in capsys.readouterr().err


def test_when_the_folder_takes_no_file_then_download_stops_at_the_first_picture_instead_of_failing_each(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # A read-only or full folder had every picture of the listing asked for and failed in turn.
    import errno

    from wallpaper_catalogue import cli, download

    from .fakes import item, page, picture_server, serve_api

    opened, unlinked = os.open, Path.unlink

    # EPERM: an immutable folder (chattr +i); EFBIG: past the process's file size limit (ulimit -f).
    for code, said in (
        (errno.ENOSPC, "No space left on device"),
        (errno.EROFS, "Read-only file system"),
        (errno.EPERM, "Operation not permitted"),
        (errno.EFBIG, "File too large"),
    ):

        def refused(path: Any, flags: int, mode: int = 0o777, **kwargs: Any) -> int:
            if str(path).endswith(".part"):
                raise OSError(code, said, str(path))
            return opened(path, flags, mode, **kwargs)

        def unlink(path: Path, missing_ok: bool = False) -> None:
            # A read-only folder answers EROFS even to removing a file it never made.
            if code == errno.EROFS and path.name.endswith(".part"):
                raise OSError(code, said, str(path))
            unlinked(path, missing_ok=missing_ok)

        with picture_server() as pictures, monkeypatch.context() as patched:
            listed = [item(i, f"{pictures}/{i}.png") for i in range(1, 41)]
            asked = serve_api(patched, lambda request: httpx.Response(200, json=page(listed)))
            # A killed run's .part there too: a read-only folder will not let it go either, which had
            # ended the run in a traceback before its first picture (helper-111).
            folder = tmp_path / f"d{code}"
            folder.mkdir()
            ended = subprocess.Popen(["true"])
            ended.wait()
            (folder / f"3.png.{ended.pid}-0123abcd.part").write_bytes(b"half")
            patched.setattr(download.os, "open", refused)
            patched.setattr(Path, "unlink", unlink)
            assert cli.main(["download", "--dir", str(folder), "--parallel", "2"]) == 1
        err = capsys.readouterr().err
        assert err.count(said) <= 4, err
        assert err.rstrip().endswith(f"{said}; run again once the folder can be written"), err
        assert len(asked) == 1
