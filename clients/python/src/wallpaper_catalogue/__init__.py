"""The official Python client of the Wallpaper Catalogue API, and its command-line tool ``wallpapers``."""

from ._pacing import Pacing
from .client import Client, FollowedChange
from .errors import ApiError, QuotaExhausted

__all__ = ["ApiError", "Client", "FollowedChange", "Pacing", "QuotaExhausted"]
