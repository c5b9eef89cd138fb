"""The official Python client of the Wallpaper Catalogue API, and its command-line tool ``wallpapers``."""

from ._pacing import Pacing
from .client import Client, FollowedChange
from .errors import ApiError, CursorExpired, QuotaExhausted

__all__ = ["ApiError", "Client", "CursorExpired", "FollowedChange", "Pacing", "QuotaExhausted"]
