"""Sending GETs paced by the API's rate-limit headers, retrying what is safe to retry.

As the TypeScript client does (clients/typescript/src/paced-fetch.ts):

- Remaining low: the requests left are spread evenly until X-RateLimit-Reset, instead of being
  spent at once and then refused (unless spreading them means waits past ``max_wait``);
- Remaining 0: waits for the reset, or raises QuotaExhausted when that is past ``max_wait``;
- 429: waits out Retry-After, then asks again (a bounded number of times, and no longer than
  ``max_wait`` at a time: past that, QuotaExhausted);
- 503 or a network error: retries with jittered exponential backoff (at least Retry-After when the
  answer has one), a bounded number of times.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass, field
from typing import Callable, Literal

import httpx

from .errors import QuotaExhausted, to_api_error

WaitReason = Literal["pace", "rate-limited", "retry"]


@dataclass
class Pacing:
    retries: int = 3
    """Retries of a GET after a 503 or a network error."""
    backoff: float = 0.2
    """First backoff in seconds, doubled each retry, jittered down by up to half."""
    max_wait: float = 60.0
    """Longest single wait in seconds; a quota that resets later raises QuotaExhausted."""
    rate_limit_waits: int = 5
    """Times a 429 is waited out before it is raised."""
    pace_below: float = 0.1
    """Below this share of the limit remaining, requests are spread until the window resets."""
    sleep: Callable[[float], None] = time.sleep
    on_wait: Callable[[float, WaitReason], None] | None = None
    _quota: tuple[int, int, float] | None = field(default=None, init=False, repr=False)

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
        try:
            seconds = float(response.headers["Retry-After"])
        except (KeyError, ValueError):
            return None
        return seconds if seconds >= 0 else None

    def get(self, http: httpx.Client, path: str, params: dict[str, str]) -> httpx.Response:
        """One GET, paced and retried; an answer other than 2xx is raised as ApiError."""
        failures = 0
        limited = 0
        while True:
            self._pace()
            try:
                response = http.get(path, params=params)
            except httpx.TransportError:
                if failures >= self.retries:
                    raise
                self._wait(self.backoff * 2**failures * (0.5 + random.random() / 2), "retry")
                failures += 1
                continue
            self._remember(response)
            if response.status_code == 429:
                retry_after = self._retry_after(response) or 1.0
                if retry_after > self.max_wait:
                    raise QuotaExhausted(429, _error(response), _message(response), retry_after)
                if limited < self.rate_limit_waits:
                    limited += 1
                    self._wait(retry_after + random.random() * 0.25, "rate-limited")
                    continue
            if response.status_code == 503 and failures < self.retries:
                backoff = self.backoff * 2**failures * (0.5 + random.random() / 2)
                failures += 1
                self._wait(max(backoff, self._retry_after(response) or 0.0), "retry")
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
