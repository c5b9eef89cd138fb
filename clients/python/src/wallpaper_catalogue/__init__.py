"""The official Python client of the Wallpaper Catalogue API, and its command-line tool ``wallpapers``."""

from ._pacing import Pacing
from .client import Client, FollowedChange
from .errors import ApiError, CursorExpired, QuotaExhausted
from .params import ChangesParams, ListParams, SearchParams, SimilarParams

__all__ = ["ApiError", "ChangesParams", "Client", "CursorExpired", "FollowedChange", "ListParams", "Pacing", "QuotaExhausted", "SearchParams", "SimilarParams"]
