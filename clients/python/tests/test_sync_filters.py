"""When a sync reads its filters on a change's wallpaper, then ..."""

from __future__ import annotations

from typing import Any, cast

from wallpaper_catalogue.models import WallpaperListItem
from wallpaper_catalogue.sync import matches

WALLPAPER = cast(WallpaperListItem, {"id": 1, "category": "space", "resolution": "1920x1080", "tags": ["stars"], "width": 1920, "height": 1080})


def test_when_a_list_filter_is_empty_then_it_filters_nothing_as_the_api_reads_it() -> None:
    empty: dict[str, Any] = {"category": ["space"], "tags": [], "exclude_tags": []}
    assert matches(WALLPAPER, empty)
    assert not matches(WALLPAPER, {"tags": ["moon"]})
