"""The client's exceptions as a script with a process pool meets them."""

from __future__ import annotations

import copy
import pickle

import pytest

from wallpaper_catalogue import ApiError, QuotaExhausted
from wallpaper_catalogue.download import DownloadError
from wallpaper_catalogue.errors import CursorExpired


@pytest.mark.parametrize(
    "error",
    [
        ApiError(404, "not_found", "Wallpaper 99999999 not found"),
        QuotaExhausted(429, "rate_limit_exceeded", "Rate limit exceeded", 1234.5),
        CursorExpired("walk the feed again from the start, without a cursor"),
    ],
)
def test_when_an_api_error_is_pickled_or_copied_then_it_keeps_its_class_status_error_message_and_wait(error: ApiError) -> None:
    # A ProcessPoolExecutor pickles what a worker raises: one that could not be rebuilt had broken
    # the pool, failing every other pending future.
    for again in (pickle.loads(pickle.dumps(error)), copy.copy(error)):
        assert type(again) is type(error)
        assert (again.status, again.error, again.message, str(again)) == (error.status, error.error, error.message, str(error))
        assert getattr(again, "retry_after", None) == getattr(error, "retry_after", None)


def test_when_a_download_error_is_pickled_then_it_keeps_the_wallpaper_and_the_message() -> None:
    again = pickle.loads(pickle.dumps(DownloadError(5, "http://pictures.test/5: HTTP 404")))
    assert (again.wallpaper_id, str(again)) == (5, "http://pictures.test/5: HTTP 404")


def test_when_an_exhausted_quota_is_shown_then_its_repr_names_its_class_and_its_wait() -> None:
    shown = repr(QuotaExhausted(429, "rate_limit_exceeded", "spent", 12.5))
    assert shown == "QuotaExhausted(status=429, error='rate_limit_exceeded', message='spent', retry_after=12.5)"
