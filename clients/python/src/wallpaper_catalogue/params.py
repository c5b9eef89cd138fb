"""The query parameters of the API's operations as TypedDicts, generated from openapi/openapi.json by
scripts/python-params.py: do not edit."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Literal

from typing_extensions import TypedDict

from .models import Category, Orientation, Ratio, Resolution


class ListParams(TypedDict, total=False):
    """The query parameters of listWallpapers."""

    page: int | None
    per_page: int | None
    cursor: str | None
    sort: Literal["newest", "oldest", "downloads", "relevance", "random"] | None
    seed: str | None
    category: Category | Iterable[Category] | None
    resolution: Resolution | Iterable[Resolution] | None
    ratio: Ratio | Iterable[Ratio] | None
    orientation: Orientation | None
    min_resolution: Resolution | None
    tags: str | Iterable[str] | None
    exclude_tags: str | Iterable[str] | None
    exclude_ids: int | Iterable[int] | None
    color: str | Iterable[str] | None
    tone: Literal["light", "dark"] | None
    facets: (
        Literal["category", "resolution", "orientation", "ratio", "tags", "color", "tone"]
        | Iterable[Literal["category", "resolution", "orientation", "ratio", "tags", "color", "tone"]]
        | None
    )
    include: Literal["tags", "colors", "dimensions"] | Iterable[Literal["tags", "colors", "dimensions"]] | None
    ids: int | Iterable[int] | None


class SearchParams(TypedDict, total=False):
    """The query parameters of searchWallpapers, but q."""

    page: int | None
    per_page: int | None
    cursor: str | None
    sort: Literal["relevance", "newest", "oldest", "downloads", "random"] | None
    seed: str | None
    category: Category | Iterable[Category] | None
    resolution: Resolution | Iterable[Resolution] | None
    ratio: Ratio | Iterable[Ratio] | None
    orientation: Orientation | None
    min_resolution: Resolution | None
    tags: str | Iterable[str] | None
    exclude_tags: str | Iterable[str] | None
    exclude_ids: int | Iterable[int] | None
    color: str | Iterable[str] | None
    tone: Literal["light", "dark"] | None
    facets: (
        Literal["category", "resolution", "orientation", "ratio", "tags", "color", "tone"]
        | Iterable[Literal["category", "resolution", "orientation", "ratio", "tags", "color", "tone"]]
        | None
    )
    include: Literal["tags", "colors", "dimensions"] | Iterable[Literal["tags", "colors", "dimensions"]] | None


class SimilarParams(TypedDict, total=False):
    """The query parameters of getSimilarWallpapers."""

    per_page: int | None
    include: Literal["tags", "colors", "dimensions"] | Iterable[Literal["tags", "colors", "dimensions"]] | None


class ChangesParams(TypedDict, total=False):
    """The query parameters of listChanges, but cursor."""

    per_page: int | None
    include: Literal["tags", "colors", "dimensions"] | Iterable[Literal["tags", "colors", "dimensions"]] | None


__all__ = ["ListParams", "SearchParams", "SimilarParams", "ChangesParams"]
