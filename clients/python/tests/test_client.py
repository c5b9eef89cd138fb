"""When the client talks to the real API, then ..."""

from __future__ import annotations

import time
from pathlib import Path

import httpx
import pytest

from wallpaper_catalogue import ApiError, Client, QuotaExhausted
from wallpaper_catalogue.models import WallpaperList

from .conftest import AUTH_FAILURES, Stack, wait_until


@pytest.fixture()
def client(stack: Stack) -> Client:
    return Client(base_url=stack.url, api_key=stack.key())


def test_when_a_listing_is_walked_then_every_wallpaper_comes_once_across_pages(client: Client) -> None:
    ids = [w["id"] for w in client.wallpapers.all(per_page=7)]
    assert len(ids) == len(set(ids)) == client.wallpapers.list(per_page=1)["meta"]["total_items"]


def test_when_filters_are_lists_then_they_are_sent_comma_separated_and_or_ed(client: Client) -> None:
    first = client.wallpapers.list(per_page=100)["data"]
    a, b = sorted({w["category"] for w in first})[:2]
    page = client.wallpapers.list(category=[a, b], per_page=100)
    assert {w["category"] for w in page["data"]} == {a, b}
    assert page["meta"]["total_items"] == sum(1 for w in first if w["category"] in (a, b))


def test_when_a_limit_is_given_then_the_walk_stops_there(client: Client) -> None:
    assert len(list(client.wallpapers.all(limit=5, per_page=2))) == 5


def test_when_a_walk_is_given_a_page_or_a_cursor_then_it_starts_there_and_goes_on_to_the_end(client: Client) -> None:
    # It had walked from page 1 whatever it was given (helper-107).
    whole = [w["id"] for w in client.wallpapers.all(per_page=3)]
    assert len(whole) > 6
    assert [w["id"] for w in client.wallpapers.all(per_page=3, page=2)] == whole[3:]
    cursor = client.wallpapers.list(per_page=3)["meta"]["next_cursor"]
    assert [w["id"] for w in client.wallpapers.all(per_page=3, cursor=cursor)] == whole[3:]
    assert [w["id"] for w in client.search.all("sunset", per_page=2, page=2, limit=3)] == [w["id"] for w in client.search.all("sunset", per_page=2)][2:5]


def test_when_a_walk_names_no_page_size_then_it_asks_pages_of_100_or_of_its_limit_and_a_resumed_walk_keeps_the_api_s(client: Client) -> None:
    # The API's 20 had made a whole walk cost five times the requests of the quota (helper-147).
    whole: list[WallpaperList] = []
    ids = [w["id"] for w in client.wallpapers.all(on_page=whole.append)]
    assert [p["meta"]["per_page"] for p in whole] == [100] and len(ids) == whole[0]["meta"]["total_items"]
    few: list[WallpaperList] = []
    assert len(list(client.wallpapers.all(limit=5, on_page=few.append))) == 5
    assert [p["meta"]["per_page"] for p in few] == [5]
    # A cursor is bound to the page size it was issued for: one of the API's default goes on with it.
    cursor = client.wallpapers.list()["meta"]["next_cursor"]
    assert [w["id"] for w in client.wallpapers.all(cursor=cursor)] == ids[20:]


def test_when_a_walk_is_of_ids_then_it_sends_no_page_size_which_the_api_refuses_beside_them(client: Client) -> None:
    ids = [w["id"] for w in client.wallpapers.all(per_page=3, limit=3)]
    assert [w["id"] for w in client.wallpapers.all(ids=list(reversed(ids)))] == list(reversed(ids))


class _Recording(httpx.HTTPTransport):
    def __init__(self, asked: list[httpx.URL]) -> None:
        super().__init__()
        self.asked = asked

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        self.asked.append(request.url)
        return super().handle_request(request)


def test_when_a_walk_stops_part_way_then_the_last_page_s_cursor_handed_to_on_page_resumes_it_in_its_own_page_size(client: Client, stack: Stack) -> None:
    whole = [w["id"] for w in client.wallpapers.all(per_page=7)]
    pages: list[WallpaperList] = []
    walk = client.wallpapers.all(per_page=7, on_page=pages.append)
    first = [next(walk)["id"] for _ in range(7)]
    walk.close()
    # Without per_page: the cursor carries the size it was issued for.
    again: list[WallpaperList] = []
    asked: list[httpx.URL] = []
    recording = Client(base_url=stack.url, api_key=stack.key(), transport=_Recording(asked))
    resumed = [w["id"] for w in recording.wallpapers.all(cursor=pages[-1]["meta"]["next_cursor"], on_page=again.append)]
    assert first + resumed == whole
    assert {p["meta"]["per_page"] for p in again} == {7}
    # Later pages name the size, for an API instance older than cursors that carry it.
    assert len(asked) > 2
    assert [url.params.get("per_page") for url in asked] == [None] + ["7"] * (len(asked) - 1)


def test_when_a_walk_is_given_a_filter_as_a_generator_then_every_page_keeps_it(client: Client) -> None:
    # Used up by the first page, it had left the next asked without the filter, whose cursor the
    # API then refused as another query's (helper-108).
    category = client.wallpapers.list(per_page=1)["data"][0]["category"]
    expected = [w["id"] for w in client.wallpapers.all(category=category, per_page=2)]
    assert len(expected) > 2
    assert [w["id"] for w in client.wallpapers.all(category=(c for c in [category]), per_page=2)] == expected


def test_when_one_is_asked_then_its_detail_and_its_likes_come(client: Client) -> None:
    some = client.wallpapers.list(per_page=1)["data"][0]
    detail = client.wallpapers.get(some["id"])
    assert detail["id"] == some["id"] and detail["width"] > 0 and "tags" in detail
    likes = client.wallpapers.similar(some["id"], per_page=3, include="tags")
    assert some["id"] not in [w["id"] for w in likes["data"]]


def test_when_a_search_is_walked_then_its_pages_add_up_to_its_total(client: Client) -> None:
    word = client.wallpapers.list(per_page=1)["data"][0]["title"].split()[0]
    total = client.search.query(word, per_page=1)["meta"]["total_items"]
    assert total >= 1
    assert len(list(client.search.all(word, per_page=3))) == total
    assert isinstance(client.search.suggest(word[:3])["data"], list)


def test_when_the_api_refuses_then_an_api_error_carries_status_error_and_message(client: Client) -> None:
    with pytest.raises(ApiError) as refused:
        client.wallpapers.get(9_007_199_254_740_991)
    assert refused.value.status == 404 and refused.value.error == "not_found" and "not found" in refused.value.message
    with pytest.raises(ApiError) as bad:
        client.wallpapers.list(per_page=0)
    assert bad.value.status == 400 and "per_page" in bad.value.message


def test_when_the_key_is_wrong_then_the_error_says_so(stack: Stack) -> None:
    with pytest.raises(ApiError) as refused, Client(base_url=stack.url, api_key="not-a-key") as wrong:
        wrong.wallpapers.list()
    assert refused.value.status in (401, 403)


def test_when_this_address_failed_authentication_past_its_limit_then_the_client_and_the_tool_say_so_at_once(
    stack: Stack, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from wallpaper_catalogue import cli

    valid = stack.key()
    wrong = {"Authorization": "Bearer wpc_not_a_key"}
    try:
        statuses = []
        while 429 not in statuses and len(statuses) <= AUTH_FAILURES.limit:
            statuses.append(httpx.get(f"{stack.url}/v1/wallpapers", headers=wrong).status_code)
        assert statuses[-1] == 429 and set(statuses[:-1]) <= {403}
        started = time.monotonic()
        with pytest.raises(ApiError) as refused, Client(base_url=stack.url, api_key="wpc_not_a_key") as client:
            client.wallpapers.list()
        assert not isinstance(refused.value, QuotaExhausted)
        assert refused.value.status == 429 and refused.value.error == "too_many_auth_failures"
        assert time.monotonic() - started < 1.0
        monkeypatch.setenv("API_KEY", "wpc_not_a_key")
        monkeypatch.setenv("WALLPAPERS_URL", stack.url)
        assert cli.main(["sync", "--dir", str(tmp_path / "mirror"), "--quiet"]) == 1
        err = capsys.readouterr().err
        assert "429 too_many_auth_failures" in err and "Check the API key" in err and "run again" not in err
        with Client(base_url=stack.url, api_key=valid) as served:
            assert served.wallpapers.list(per_page=1)["data"]
    finally:
        # The block outlives the test by up to its window: the next test's wrong key gets its 403.
        wait_until(lambda: httpx.get(f"{stack.url}/v1/wallpapers", headers=wrong).status_code == 403, "the block to end", AUTH_FAILURES.window + 5)


def test_when_the_feed_is_followed_to_its_end_then_applying_it_gives_the_catalogue_and_a_saved_cursor_has_nothing_new(client: Client) -> None:
    copy: dict[int, str] = {}
    cursor = None
    for followed in client.changes.follow(per_page=9, until_end=True):
        change = followed.change
        if change["change"] == "delete":
            assert "wallpaper" not in change
            copy.pop(change["id"], None)
        else:
            copy[change["id"]] = change["wallpaper"]["title"]
        cursor = followed.cursor
    assert copy == {w["id"]: w["title"] for w in client.wallpapers.all()}
    assert list(client.changes.follow(cursor, until_end=True)) == []


def test_when_usage_is_read_then_it_reports_the_tier_and_what_is_left(client: Client) -> None:
    client.wallpapers.list(per_page=1)
    usage = client.usage()
    assert usage["tier"] == "premium"


def test_when_a_random_order_is_walked_without_a_seed_then_the_walk_keeps_the_api_s_and_each_comes_once(client: Client) -> None:
    ids = [w["id"] for w in client.wallpapers.all(sort="random", per_page=7)]
    assert len(ids) == len(set(ids)) == client.wallpapers.list(per_page=1)["meta"]["total_items"]


def test_when_a_follower_stops_in_the_middle_of_a_page_then_its_saved_cursor_loses_no_change(client: Client) -> None:
    applied: list[int] = []
    saved: str | None = None
    for followed in client.changes.follow(per_page=4, until_end=True):
        applied.append(followed.change["id"])
        saved = followed.cursor
        if len(applied) == 7:
            break
    applied += [followed.change["id"] for followed in client.changes.follow(saved, per_page=4, until_end=True)]
    feed = [followed.change["id"] for followed in client.changes.follow(per_page=4, until_end=True)]
    assert sorted(set(applied)) == sorted(feed)
    assert 0 <= len(applied) - len(feed) <= 3


def test_when_a_list_filter_is_empty_then_it_is_left_out(client: Client) -> None:
    assert client.wallpapers.list(tags=[], per_page=1)["meta"]["total_items"] == client.wallpapers.list(per_page=1)["meta"]["total_items"]


def test_when_a_list_filter_is_any_iterable_then_it_goes_comma_separated_not_as_its_text() -> None:
    from wallpaper_catalogue.client import _query

    chosen = {"space": 1, "nature": 2}
    assert _query({"category": (c for c in ["space", "nature"]), "tags": chosen.keys(), "ids": range(3, 5)}) == {
        "category": "space,nature",
        "tags": "space,nature",
        "ids": "3,4",
    }
    assert _query({"q": "misty forest", "seed": b"ab".decode()}) == {"q": "misty forest", "seed": "ab"}
