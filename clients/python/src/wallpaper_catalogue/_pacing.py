"""Sending GETs paced by the API's rate-limit headers, retrying what is safe to retry.

As the TypeScript client does (clients/typescript/src/paced-fetch.ts):

- Remaining low: the requests left are spread evenly until X-RateLimit-Reset, instead of being
  spent at once and then refused (unless spreading them means waits past ``max_wait``);
- Remaining 0: waits for the reset, or raises QuotaExhausted when that is past ``max_wait``;
- 429: waits out Retry-After, then asks again (``rate_limit_waits`` times, and no longer than
  ``max_wait`` at a time: past either, QuotaExhausted); ``too_many_auth_failures`` (the key is
  refused) is raised at once as ApiError, never waited out;
- 503 or a network error: retries with jittered exponential backoff (at least Retry-After when the
  answer has one), a bounded number of times; a 503 whose Retry-After is past ``max_wait`` is raised
  at once;
- an answer larger than ``max_body_bytes`` once inflated (gzip is the one coding asked for) is not
  read whole: ApiError ``unexpected_response``;
- an attempt whose answer is still coming after the client's ``timeout`` is a network error
  (retried as one), however steadily it drips.
"""

from __future__ import annotations

import math
import random
import re
import time
import zlib
from dataclasses import dataclass, field
from datetime import timezone
from email.utils import parsedate_to_datetime
from typing import Callable, Literal

import httpx

from .errors import ApiError, QuotaExhausted, to_api_error
from .gunzip import Gunzip

WaitReason = Literal["pace", "rate-limited", "retry"]
YEAR = 365 * 24 * 3600.0


@dataclass
class Pacing:
    retries: int = 3
    """Retries of a GET after a 503 or a network error."""
    backoff: float = 0.2
    """First backoff in seconds, doubled each retry, jittered down by up to half."""
    max_wait: float = 60.0
    """Longest single wait in seconds; a quota that resets later raises QuotaExhausted."""
    rate_limit_waits: int = 5
    """Times a 429 is waited out before it is raised as QuotaExhausted."""
    pace_below: float = 0.1
    """Below this share of the limit remaining, requests are spread until the window resets."""
    max_body_bytes: int = 8 * 1024 * 1024
    """Largest answer read; a page of 100 with every include is under 1 MiB."""
    sleep: Callable[[float], None] = time.sleep
    clock: Callable[[], float] = time.monotonic
    """Where an attempt's time is read from; tests pass their own."""
    on_wait: Callable[[float, WaitReason], None] | None = None
    _quota: tuple[int, int, float] | None = field(default=None, init=False, repr=False)

    def __post_init__(self) -> None:
        # A negative wait had passed: a 503 was then never retried, and every wait shrank to 0.
        for name in ("retries", "backoff", "max_wait", "rate_limit_waits", "pace_below"):
            value = getattr(self, name)
            if not value >= 0:
                raise ValueError(f"Pacing.{name} must be 0 or more (got {value})")

    def _wait(self, seconds: float, reason: WaitReason) -> None:
        bounded = max(0.0, min(seconds, self.max_wait))
        if self.on_wait is not None:
            self.on_wait(bounded, reason)
        self.sleep(bounded)

    def _remember(self, response: httpx.Response) -> None:
        try:
            limit = int(response.headers["X-RateLimit-Limit"])
            remaining = int(response.headers["X-RateLimit-Remaining"])
            reset = float(response.headers["X-RateLimit-Reset"])
        except (KeyError, ValueError):
            return
        # When the window resets on this machine's clock: from RateLimit's t= (seconds from now) when
        # the answer has it, as X-RateLimit-Reset is Unix time on the server's clock; a clock 30 s
        # slow or fast had paced the TypeScript client by the wrong reset (helper-110).
        relative = re.search(r"(?:^|;)\s*t=([0-9]{1,9})\s*(?:;|$)", response.headers.get("RateLimit", ""))
        if relative is not None:
            reset = time.time() + int(relative.group(1))
        # A reset of inf or nan is no time: waited for, it became "wait inf s" and JSON no parser reads.
        if math.isfinite(reset):
            self._quota = (limit, remaining, reset)

    def _pace(self) -> None:
        if self._quota is None:
            return
        limit, remaining, reset = self._quota
        until_reset = reset - time.time()
        if until_reset <= 0 or remaining > limit * self.pace_below:
            return
        if remaining == 0:
            if until_reset > self.max_wait:
                raise QuotaExhausted(429, "rate_limit_exceeded", "The quota is spent until its window resets", until_reset)
            self._wait(until_reset, "pace")
            return
        # Spread what is left, unless that means waits longer than allowed: then spend it now, and
        # stop when it is gone (above).
        spread = until_reset / remaining
        if spread <= self.max_wait:
            self._wait(spread, "pace")

    @staticmethod
    def _retry_after(response: httpx.Response) -> float | None:
        """Retry-After as RFC 9110 gives it: whole seconds, or an HTTP date (a proxy may send one).
        Anything else is no answer, not 0 s, which would ask again at once."""
        text = response.headers.get("Retry-After", "").strip()
        if re.fullmatch(r"[0-9]+", text):
            # A year at most: 400 nines had read as inf, and "wait inf s" is no time.
            return min(float(text), YEAR)
        if not re.search(r"[A-Za-z]", text):
            return None
        try:
            at = parsedate_to_datetime(text)
        except (TypeError, ValueError):
            return None
        if at.tzinfo is None:
            at = at.replace(tzinfo=timezone.utc)
        return max(0.0, at.timestamp() - time.time())

    def _send(self, http: httpx.Client, path: str, params: dict[str, str]) -> httpx.Response:
        """One GET, its answer read up to ``max_body_bytes`` once decoded: past that, the rest is not
        read. Only gzip is asked for, and inflated here a bounded step at a time: httpx's decoders
        inflate a whole network chunk at once, and 1.6 KB of brotli had held 2 GB before the bound
        was looked at.

        The attempt as a whole, its answer included, gets the client's read timeout: httpx's applies
        to each read alone, so a byte every 29 seconds held a call for as long as it kept coming.
        Looked at as each piece arrives, so an attempt ends at most one read timeout past it."""
        bound = self.max_body_bytes
        started = self.clock()
        allowed = http.timeout.read
        with http.stream("GET", path, params=params, headers={"Accept-Encoding": "gzip"}) as streamed:
            status = streamed.status_code

            def refused(message: str) -> ApiError:
                return ApiError(status, "unexpected_response", message)

            too_large = f"The answer is larger than {bound} bytes (max_body_bytes)"
            declared = streamed.headers.get("Content-Length", "")
            if declared.isascii() and declared.isdigit() and int(declared) > bound:
                raise refused(too_large)
            # A transport may answer with the body read and decoded already (httpx.MockTransport does).
            read_already = streamed.is_stream_consumed
            coding = "identity" if read_already else (streamed.headers.get("Content-Encoding", "").strip().lower() or "identity")
            if coding not in ("identity", "gzip"):
                raise refused(f"The answer is coded {coding!r}, which was not asked for")
            inflate = Gunzip() if coding == "gzip" else None
            body = bytearray()
            received = 0
            try:
                for raw in [streamed.content] if read_already else streamed.iter_raw():
                    if allowed is not None and self.clock() - started > allowed:
                        raise httpx.ReadTimeout(f"The answer took longer than {allowed:g} s", request=streamed.request)
                    # Counted as it comes too: gzip that inflates to nothing (empty blocks) grows no body.
                    received += len(raw)
                    if received > bound:
                        raise refused(too_large)
                    for piece in [raw] if inflate is None else inflate.pieces(raw, bound + 1 - len(body)):
                        body += piece
                        if len(body) > bound:
                            raise refused(too_large)
                if inflate is not None:
                    inflate.finish()
            except zlib.error:
                raise refused("The answer's gzip coding is broken") from None
            if len(body) > bound:
                raise refused(too_large)
            # The body is decoded already: its coding and length no longer describe it.
            headers = [(k, v) for k, v in streamed.headers.multi_items() if k.lower() not in ("content-encoding", "content-length")]
            return httpx.Response(status, headers=headers, content=bytes(body), request=streamed.request)

    def get(self, http: httpx.Client, path: str, params: dict[str, str]) -> httpx.Response:
        """One GET, paced and retried; an answer other than 2xx is raised as ApiError."""
        failures = 0
        limited = 0
        while True:
            self._pace()
            try:
                response = self._send(http, path, params)
            except httpx.TransportError:
                if failures >= self.retries:
                    raise
                self._wait(self.backoff * 2**failures * (0.5 + random.random() / 2), "retry")
                failures += 1
                continue
            self._remember(response)
            retry_after = self._retry_after(response)
            # The key itself is refused (failed authentications from this address): waiting would
            # only bring back the 401 or 403 it hides, so it is raised now, as the ApiError it is.
            if response.status_code == 429 and _error(response) != "too_many_auth_failures":
                if retry_after is None:
                    retry_after = 1.0
                # Past the waits it may make, as past the time it may wait, the quota has no room for
                # the call: the same QuotaExhausted, so `download` and `sync` stop cleanly on both
                # (a plain ApiError had stopped the pictures under way).
                if retry_after > self.max_wait or limited >= self.rate_limit_waits:
                    raise QuotaExhausted(429, _error(response), _message(response), retry_after)
                limited += 1
                self._wait(retry_after + random.random() * 0.25, "rate-limited")
                continue
            # A 503 that says it lasts longer than the client may wait is raised now, not asked again
            # to no purpose (three times a minute, for an hour's maintenance).
            if response.status_code == 503 and failures < self.retries and (retry_after or 0.0) <= self.max_wait:
                backoff = self.backoff * 2**failures * (0.5 + random.random() / 2)
                failures += 1
                self._wait(max(backoff, retry_after or 0.0), "retry")
                continue
            if not response.is_success:
                raise to_api_error(response.status_code, _json_or_none(response))
            return response


def _json_or_none(response: httpx.Response) -> object:
    try:
        return response.json()
    except ValueError:
        return None


def _error(response: httpx.Response) -> str:
    body = _json_or_none(response)
    if isinstance(body, dict) and isinstance(body.get("error"), str):
        return str(body["error"])
    return "rate_limit_exceeded"


def _message(response: httpx.Response) -> str:
    body = _json_or_none(response)
    if isinstance(body, dict) and isinstance(body.get("message"), str):
        return str(body["message"])
    return "Rate limit exceeded"
