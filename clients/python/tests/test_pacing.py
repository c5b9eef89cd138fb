"""When the API answers with rate-limit headers, 429s and 503s (in process, beside the real-stack tests), then ..."""

from __future__ import annotations

import gzip
import time
import tracemalloc
from collections.abc import Iterator

import httpx
import pytest

from wallpaper_catalogue import ApiError, Client, Pacing, QuotaExhausted


def client_over(answers: list[httpx.Response], waits: list[tuple[float, str]], **pacing: float) -> tuple[Client, list[httpx.Request]]:
    seen: list[httpx.Request] = []

    def handler(request: httpx.Request) -> httpx.Response:
        seen.append(request)
        return answers.pop(0)

    paced = Pacing(sleep=lambda _s: None, on_wait=lambda s, why: waits.append((s, why)), **pacing)  # type: ignore[arg-type]
    return Client(base_url="http://api.test", api_key="k", pacing=paced, transport=httpx.MockTransport(handler)), seen


def page(remaining: int = 500, limit: int = 1000, reset_in: float = 600) -> httpx.Response:
    headers = {"X-RateLimit-Limit": str(limit), "X-RateLimit-Remaining": str(remaining), "X-RateLimit-Reset": str(int(time.time() + reset_in))}
    return httpx.Response(200, json={"data": [], "meta": {"next_cursor": None}}, headers=headers)


def test_when_a_429_comes_then_retry_after_is_waited_out_and_the_request_sent_again() -> None:
    waits: list[tuple[float, str]] = []
    client, seen = client_over(
        [httpx.Response(429, headers={"Retry-After": "2"}, json={"error": "rate_limited", "message": "m", "status": 429}), page()], waits
    )
    client.wallpapers.list()
    assert len(seen) == 2 and waits[0][1] == "rate-limited" and 2 <= waits[0][0] <= 2.25


def test_when_the_wait_is_longer_than_allowed_then_quota_exhausted_says_how_long() -> None:
    client, _ = client_over(
        [httpx.Response(429, headers={"Retry-After": "900"}, json={"error": "rate_limited", "message": "later", "status": 429})], [], max_wait=30
    )
    with pytest.raises(QuotaExhausted) as spent:
        client.wallpapers.list()
    assert spent.value.retry_after == 900 and spent.value.status == 429


def test_when_429s_outlast_the_waits_allowed_then_quota_exhausted_is_raised_with_the_last_wait() -> None:
    waits: list[tuple[float, str]] = []
    refused = [httpx.Response(429, headers={"Retry-After": "3"}, json={"error": "rate_limit_exceeded", "message": "busy", "status": 429}) for _ in range(3)]
    client, seen = client_over(refused, waits, rate_limit_waits=2)
    with pytest.raises(QuotaExhausted) as spent:
        client.wallpapers.list()
    assert len(seen) == 3 and [why for _, why in waits] == ["rate-limited", "rate-limited"]
    assert (spent.value.status, spent.value.error, spent.value.message, spent.value.retry_after) == (429, "rate_limit_exceeded", "busy", 3.0)


def test_when_503s_come_then_they_are_retried_with_backoff_a_bounded_number_of_times() -> None:
    waits: list[tuple[float, str]] = []
    unavailable = {"error": "service_unavailable", "message": "busy", "status": 503}
    client, seen = client_over([httpx.Response(503, json=unavailable) for _ in range(4)], waits, retries=3)
    with pytest.raises(ApiError) as refused:
        client.wallpapers.list()
    assert refused.value.status == 503 and len(seen) == 4 and [why for _, why in waits] == ["retry"] * 3


def test_when_the_quota_runs_low_then_requests_are_spread_until_the_reset() -> None:
    waits: list[tuple[float, str]] = []
    client, _ = client_over([page(remaining=5, reset_in=100), page()], waits)
    client.wallpapers.list()
    client.wallpapers.list()
    assert waits and waits[0][1] == "pace" and 15 <= waits[0][0] <= 21


@pytest.mark.parametrize("skew", [-30.0, 30.0])
def test_when_the_server_s_clock_differs_from_this_one_then_the_reset_is_read_from_ratelimit_s_seconds(skew: float) -> None:
    # X-RateLimit-Reset is Unix time on the server's clock: off by 30 s, the spread was off by as
    # much (helper-110). RateLimit's t= is seconds from now, whatever either clock says.
    waits: list[tuple[float, str]] = []
    low = page(remaining=5, reset_in=100 + skew)
    low.headers["RateLimit"] = '"free";r=5;t=100'
    client, _ = client_over([low, page()], waits)
    client.wallpapers.list()
    client.wallpapers.list()
    assert waits and waits[0][1] == "pace" and 19 <= waits[0][0] <= 20


def test_when_the_quota_is_spent_for_longer_than_allowed_then_the_next_request_is_not_sent() -> None:
    client, seen = client_over([page(remaining=0, reset_in=3000)], [], max_wait=30)
    client.wallpapers.list()
    with pytest.raises(QuotaExhausted):
        client.wallpapers.list()
    assert len(seen) == 1


def test_when_lists_are_given_then_they_go_comma_separated() -> None:
    client, seen = client_over([page()], [])
    client.wallpapers.list(category=["space", "nature"], tone="dark", per_page=5, page=None)
    assert seen[0].url.params["category"] == "space,nature" and "page" not in seen[0].url.params


def test_when_a_walk_has_a_limit_then_no_page_past_it_is_asked_for() -> None:
    def listing(ids: list[int], cursor: str | None) -> httpx.Response:
        return httpx.Response(200, json={"data": [{"id": i} for i in ids], "meta": {"next_cursor": cursor}})

    client, seen = client_over([listing([1, 2], "c2"), listing([3, 4], "c3"), listing([5], None)], [])
    assert [w["id"] for w in client.wallpapers.all(limit=4, per_page=2)] == [1, 2, 3, 4]
    assert len(seen) == 2


def test_when_a_503_says_it_lasts_longer_than_allowed_then_it_is_raised_at_once() -> None:
    waits: list[tuple[float, str]] = []
    unavailable = {"error": "service_unavailable", "message": "maintenance", "status": 503}
    client, seen = client_over([httpx.Response(503, headers={"Retry-After": "3600"}, json=unavailable)], waits, max_wait=60)
    with pytest.raises(ApiError) as refused:
        client.wallpapers.list()
    assert refused.value.status == 503 and len(seen) == 1 and waits == []


def test_when_retry_after_is_an_http_date_then_it_is_waited_until() -> None:
    waits: list[tuple[float, str]] = []
    soon = time.strftime("%a, %d %b %Y %H:%M:%S GMT", time.gmtime(time.time() + 5))
    refused = httpx.Response(429, headers={"Retry-After": soon}, json={"error": "rate_limit_exceeded", "message": "m", "status": 429})
    client, _ = client_over([refused, page()], waits)
    client.wallpapers.list()
    assert waits[0][1] == "rate-limited" and 3 <= waits[0][0] <= 5.25


@pytest.mark.parametrize("header", ["Infinity", "-1", "1.5", "soon", ""])
def test_when_retry_after_is_neither_seconds_nor_a_date_then_a_second_is_waited(header: str) -> None:
    waits: list[tuple[float, str]] = []
    refused = httpx.Response(429, headers={"Retry-After": header}, json={"error": "rate_limit_exceeded", "message": "m", "status": 429})
    client, _ = client_over([refused, page()], waits)
    client.wallpapers.list()
    assert 1 <= waits[0][0] <= 1.25


def test_when_retry_after_is_0_then_no_second_is_added() -> None:
    waits: list[tuple[float, str]] = []
    refused = httpx.Response(429, headers={"Retry-After": "0"}, json={"error": "rate_limit_exceeded", "message": "m", "status": 429})
    client, _ = client_over([refused, page()], waits)
    client.wallpapers.list()
    assert waits[0][0] <= 0.25


def test_when_the_api_gives_back_the_cursor_it_was_asked_with_then_a_walk_stops_with_an_api_error() -> None:
    def looping() -> list[httpx.Response]:
        return [httpx.Response(200, json={"data": [], "meta": {"next_cursor": "same", "has_more": True}}) for _ in range(3)]

    client, seen = client_over(looping(), [])
    with pytest.raises(ApiError) as stopped:
        list(client.search.all("sky"))
    assert stopped.value.error == "unexpected_response" and len(seen) == 2
    client, seen = client_over(looping(), [])
    with pytest.raises(ApiError):
        list(client.changes.follow("same"))
    assert len(seen) == 1


@pytest.mark.parametrize(
    ("body", "content_type"), [(b"<html>sign in to the wifi</html>", "text/html"), (b'{"data": [', "application/json"), (b"null", "application/json")]
)
def test_when_a_200_is_not_the_apis_json_then_an_api_error_is_raised(body: bytes, content_type: str) -> None:
    client, _ = client_over([httpx.Response(200, content=body, headers={"Content-Type": content_type})], [])
    with pytest.raises(ApiError) as refused:
        client.wallpapers.list()
    assert refused.value.error == "unexpected_response"


@pytest.mark.parametrize("declared", [True, False])
def test_when_an_answer_is_larger_than_max_body_bytes_then_it_is_not_read_whole_nor_asked_again(declared: bool) -> None:
    sent = 0

    def chunks() -> Iterator[bytes]:
        nonlocal sent
        for _ in range(1000):
            sent += 1
            yield b" " * 65536

    headers = {"Content-Length": str(1000 * 65536)} if declared else {}
    client, seen = client_over([httpx.Response(200, content=chunks(), headers=headers)], [], max_body_bytes=1024 * 1024)  # type: ignore[arg-type]
    with pytest.raises(ApiError) as refused:
        client.wallpapers.list()
    assert refused.value.error == "unexpected_response" and "larger than 1048576 bytes" in refused.value.message
    assert len(seen) == 1 and sent < 40


def test_when_a_list_holds_none_then_it_is_left_out_not_sent_as_text() -> None:
    client, seen = client_over([page()], [])
    client.wallpapers.list(category=["space", None], tags=[None])
    assert seen[0].url.params["category"] == "space" and "tags" not in seen[0].url.params


@pytest.mark.parametrize("key", ["wpc_SECRETPART\n", "wpc_SECRETPART x", "wpc_SECRETPARTé"])
def test_when_the_key_cannot_go_into_a_header_then_the_client_refuses_it_without_showing_it(key: str) -> None:
    with pytest.raises(ValueError) as refused:
        Client(base_url="http://api.test", api_key=key)
    assert "SECRET" not in str(refused.value)


def gzipped(payload: bytes, headers: dict[str, str] | None = None) -> httpx.Response:
    """An answer as the network brings it: coded, streamed, not yet read."""
    return httpx.Response(200, headers={"Content-Encoding": "gzip", **(headers or {})}, stream=httpx.ByteStream(gzip.compress(payload)))


def test_when_a_gzip_answer_inflates_past_max_body_bytes_then_it_is_refused_holding_little_more_than_the_bound() -> None:
    bomb = b" " * (256 * 1024 * 1024)
    client, seen = client_over([gzipped(bomb)], [], max_body_bytes=1024 * 1024)  # type: ignore[arg-type]
    tracemalloc.start()
    try:
        with pytest.raises(ApiError) as refused:
            client.wallpapers.list()
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert refused.value.error == "unexpected_response" and "larger than 1048576 bytes" in refused.value.message
    assert peak < 16 * 1024 * 1024 and len(seen) == 1


def test_when_a_gzip_answer_is_within_the_bound_then_it_is_read_as_json() -> None:
    client, seen = client_over([gzipped(b'{"data": [], "meta": {"next_cursor": null}}')], [])
    assert client.wallpapers.list()["data"] == [] and seen[0].headers["Accept-Encoding"] == "gzip"


def test_when_an_answer_is_coded_otherwise_than_asked_or_its_gzip_is_broken_then_an_api_error_is_raised() -> None:
    brotli = httpx.Response(200, headers={"Content-Encoding": "br"}, stream=httpx.ByteStream(b"\x0b\x02\x80{}\x03"))
    broken = httpx.Response(200, headers={"Content-Encoding": "gzip"}, stream=httpx.ByteStream(b"\x1f\x8b\x08\x00not gzip at all"))
    for answer in (brotli, broken):
        client, _ = client_over([answer], [])
        with pytest.raises(ApiError) as refused:
            client.wallpapers.list()
        assert refused.value.error == "unexpected_response"


def test_when_an_answer_drips_past_the_timeout_then_the_attempt_is_a_network_error_retried_as_one() -> None:
    now = 0.0
    pieces = 0

    def dripping() -> Iterator[bytes]:
        nonlocal now, pieces
        for _ in range(100):
            now += 10.0
            pieces += 1
            yield b" "

    client, seen = client_over([httpx.Response(200, content=dripping()) for _ in range(2)], [], retries=1, clock=lambda: now)  # type: ignore[arg-type]
    with pytest.raises(httpx.ReadTimeout) as timed_out:
        client.wallpapers.list()
    assert "longer than 30 s" in str(timed_out.value) and len(seen) == 2 and pieces == 8


def test_when_retry_after_is_more_digits_than_a_float_holds_then_it_is_a_long_wait_not_infinity() -> None:
    from wallpaper_catalogue._pacing import YEAR

    response = httpx.Response(429, headers={"Retry-After": "9" * 400})
    assert Pacing._retry_after(response) == YEAR


@pytest.mark.parametrize("name", ["retries", "backoff", "max_wait", "rate_limit_waits", "pace_below"])
def test_when_a_pacing_figure_is_negative_or_not_a_number_then_it_is_refused_naming_it(name: str) -> None:
    # A negative max_wait had passed: a 503 was then never retried, and every wait shrank to 0 (helper-147).
    for value in (-1, float("nan")):
        with pytest.raises(ValueError, match=f"Pacing.{name} must be 0 or more"):
            Pacing(**{name: value})
