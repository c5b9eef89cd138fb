"""The API's answers other than 2xx, as exceptions."""

from __future__ import annotations

from typing import Any


class ApiError(Exception):
    """An answer of the API other than 2xx, as its ``{error, message, status}`` body says."""

    def __init__(self, status: int, error: str, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.error = error
        self.message = message

    def __repr__(self) -> str:
        return f"ApiError(status={self.status}, error={self.error!r}, message={self.message!r})"

    def __reduce__(self) -> tuple[Any, ...]:
        # An exception is pickled as its class and ``args`` (the message alone here), which its
        # ``__init__`` cannot take: a 404 in a ProcessPoolExecutor worker had broken the whole pool.
        return (type(self), (self.status, self.error, self.message))


class QuotaExhausted(ApiError):
    """The key's quota is spent, and waiting for it exceeds what the client was told to wait."""

    def __init__(self, status: int, error: str, message: str, retry_after: float) -> None:
        super().__init__(status, error, message)
        self.retry_after = retry_after

    def __repr__(self) -> str:
        return f"QuotaExhausted(status={self.status}, error={self.error!r}, message={self.message!r}, retry_after={self.retry_after!r})"

    def __reduce__(self) -> tuple[Any, ...]:
        return (QuotaExhausted, (self.status, self.error, self.message, self.retry_after))


class CursorExpired(ApiError):
    """410 ``cursor_expired``: a walk cannot go on from its cursor. A list's walked a catalogue since
    deleted; the change feed's was read in a record of changes since lost, restored or begun anew,
    so changes may be missing after it. Start again without a cursor: for the feed, a copy then
    drops what that walk does not serve once the catalogue confirms it gone (asked by ``ids``)."""

    def __init__(self, message: str) -> None:
        super().__init__(410, "cursor_expired", message)

    def __reduce__(self) -> tuple[Any, ...]:
        return (CursorExpired, (self.message,))


def to_api_error(status: int, body: Any) -> ApiError:
    """Reads an error body; anything that is not the API's error shape still becomes an ApiError."""
    if isinstance(body, dict):
        error, message = body.get("error"), body.get("message")
        if status == 410 and error == "cursor_expired" and isinstance(message, str):
            return CursorExpired(message)
        if isinstance(error, str) and isinstance(message, str):
            return ApiError(status, error, message)
    return ApiError(status, "unexpected_response", f"HTTP {status}")
