"""The query parameters of the API's operations as TypedDicts, generated from openapi/openapi.json by
scripts/python-params.py: do not edit."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Literal

from typing_extensions import TypedDict

from .models import Category, Orientation, Ratio, Resolution


class Filters(TypedDict, total=False):
    """The query parameters listWallpapers and searchWallpapers take alike."""

    page: int | None
    per_page: int | None
    cursor: str | None
    seed: str | None
    category: Category | Iterable[Category | None] | None
    resolution: Resolution | Iterable[Resolution | None] | None
    ratio: Ratio | Iterable[Ratio | None] | None
    orientation: Orientation | None
    min_resolution: Resolution | None
    tags: str | Iterable[str | None] | None
    exclude_tags: str | Iterable[str | None] | None
    exclude_ids: int | Iterable[int | None] | None
    color: str | Iterable[str | None] | None
    tone: Literal["light", "dark"] | None
    facets: (
        Literal["category", "resolution", "orientation", "ratio", "tags", "color", "tone"]
        | Iterable[Literal["category", "resolution", "orientation", "ratio", "tags", "color", "tone"] | None]
        | None
    )
    include: Literal["tags", "colors", "dimensions"] | Iterable[Literal["tags", "colors", "dimensions"] | None] | None


class ListParams(Filters, total=False):
    """The query parameters of listWallpapers."""

    sort: Literal["newest", "oldest", "downloads", "relevance", "random"] | None
    ids: int | Iterable[int | None] | None


class SearchParams(Filters, total=False):
    """The query parameters of searchWallpapers, but q."""

    sort: Literal["relevance", "newest", "oldest", "downloads", "random"] | None


class SimilarParams(TypedDict, total=False):
    """The query parameters of getSimilarWallpapers."""

    per_page: int | None
    include: Literal["tags", "colors", "dimensions"] | Iterable[Literal["tags", "colors", "dimensions"] | None] | None


class ChangesParams(TypedDict, total=False):
    """The query parameters of listChanges, but cursor."""

    per_page: int | None
    include: Literal["tags", "colors", "dimensions"] | Iterable[Literal["tags", "colors", "dimensions"] | None] | None


__all__ = ["Filters", "ListParams", "SearchParams", "SimilarParams", "ChangesParams"]
