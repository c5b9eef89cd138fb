"""When a run fetches or deletes many pictures, then it lists its folder once for what downloads
cut short left, and still removes those leftovers."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from wallpaper_catalogue import cli
from wallpaper_catalogue.download import fetch_all

from .fakes import PICTURE, serve_api
from .test_download import aged
from .test_manifest import AT, paged_feed, upsert


def listings_of(folder: Path, monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Counts every listing of `folder` (os.scandir, which pathlib's glob uses too)."""
    listed: list[int] = []
    scandir = os.scandir

    def counted(path: Any = ".") -> Any:
        if Path(path) == folder:
            listed.append(1)
        return scandir(path)

    monkeypatch.setattr(os, "scandir", counted)
    return listed


def left(path: Path) -> Path:
    """A `.part` a run cut short left long ago."""
    path.write_bytes(b"half")
    return aged(path)


def test_when_a_sync_fetches_and_deletes_over_many_pages_then_it_lists_its_folder_once_and_leftovers_still_go(
    tmp_path: Path, pictures: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A listing for each picture fetched or deleted, and one for each page, made a first sync of N
    # pictures cost the square of N: 67 ms a picture at 100,000.
    folder = tmp_path / "mirror"
    folder.mkdir()
    # Cut short by an earlier run, in names older versions wrote: of a wallpaper this run fetches,
    # of one it deletes, and of one it never hears of (not this run's to judge: left).
    fetched, deleted, untouched = left(folder / "7.webp.0000.part"), left(folder / "12.png.1111.part"), left(folder / "999.png.2222.part")
    changes: list[dict[str, Any]] = [upsert(i, pictures) for i in range(1, 61)]
    changes += [{"id": 12, "change": "delete", "at": AT}, {"id": 13, "change": "delete", "at": AT}]
    serve_api(monkeypatch, paged_feed(changes, []))
    listed = listings_of(folder, monkeypatch)
    assert cli.main(["sync", "--dir", str(folder), "--quiet", "--page-size", "10", "--parallel", "4"]) == 0
    assert len(listed) == 1
    assert not fetched.exists() and not deleted.exists() and untouched.exists()
    assert (folder / "7.png").read_bytes() == PICTURE and not (folder / "12.png").exists()


def test_when_a_download_fetches_many_pictures_then_it_lists_its_folder_once(tmp_path: Path, pictures: str, monkeypatch: pytest.MonkeyPatch) -> None:
    leftover = left(tmp_path / "3.jpg.0000.part")
    listed = listings_of(tmp_path, monkeypatch)
    fetched, failed = fetch_all([(i, f"{pictures}/{i}.png") for i in range(1, 31)], tmp_path, parallel=4)
    assert (len(fetched), failed) == (30, [])
    assert len(listed) == 1
    assert not leftover.exists()
