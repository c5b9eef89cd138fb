"""When a sync reads its filters on a change's wallpaper, then ..."""

from __future__ import annotations

from typing import Any, cast

from wallpaper_catalogue.models import WallpaperListItem
from wallpaper_catalogue.sync import _same_filters, as_read, matches

WALLPAPER = cast(WallpaperListItem, {"id": 1, "category": "space", "resolution": "1920x1080", "tags": ["stars"], "width": 1920, "height": 1080})


def test_when_a_list_filter_is_empty_then_it_filters_nothing_as_the_api_reads_it() -> None:
    empty: dict[str, Any] = {"category": ["space"], "tags": [], "exclude_tags": []}
    assert matches(WALLPAPER, empty)
    assert not matches(WALLPAPER, {"tags": ["moon"]})


def test_when_a_filter_comes_with_white_space_around_it_then_the_mirror_reads_it_trimmed_as_the_api_does() -> None:
    # `--tone "light "` passed the API's check (it trims) and then mirrored nothing (helper-147).
    lit = cast(WallpaperListItem, {**WALLPAPER, "tone": "light", "orientation": "landscape"})
    asked = as_read({"tone": "light ", "orientation": " landscape\r", "category": [" space", "nature\r"], "min_resolution": "1920x1080 "})
    assert asked == {"tone": "light", "orientation": "landscape", "category": ["space", "nature"], "min_resolution": "1920x1080"}
    assert matches(lit, asked)
    assert _same_filters({"tone": "light "}, {"tone": "light"}), "a folder pinned to the untrimmed value mirrors the same wallpapers"
