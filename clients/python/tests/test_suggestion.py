"""When a search found nothing, or only wallpapers without a word typed, and the API suggests another
reading (meta.did_you_mean), then the tool says so on stderr, with the words as the API gave them."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from wallpaper_catalogue import cli

from .fakes import page, serve_api


def suggesting(suggestion: Any, found: int = 0) -> Any:
    def api(_request: httpx.Request) -> httpx.Response:
        body = page([])
        body["meta"]["total_items"] = found
        body["meta"]["did_you_mean"] = suggestion
        return httpx.Response(200, json=body)

    return api


def test_when_a_search_that_found_nothing_comes_with_a_suggestion_then_the_tool_offers_it(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    serve_api(monkeypatch, suggesting({"corrections": [{"typed": "cannon", "meant": "canyon"}], "total_items": 10}))
    assert cli.main(["search", "Cannon at sunset", "--json"]) == 0
    out, err = capsys.readouterr()
    assert out.strip() == "[]"
    assert "nothing found for Cannon at sunset; did you mean canyon for cannon? (10 wallpapers)" in err


def test_when_a_search_that_found_wallpapers_without_a_word_comes_with_a_suggestion_then_the_tool_says_which_and_offers_it(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    serve_api(monkeypatch, suggesting({"corrections": [{"typed": "tier", "meant": "tiger"}], "total_items": 5}, found=332))
    assert cli.main(["search", "tier in the snow"]) == 0
    assert "332 found for tier in the snow, none with tier; did you mean tiger for tier? (5 wallpapers)" in capsys.readouterr().err


def test_when_there_is_no_suggestion_then_nothing_is_said(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    serve_api(monkeypatch, lambda _r: httpx.Response(200, json=page([])))
    assert cli.main(["search", "pink flamingo"]) == 0
    assert "did you mean" not in capsys.readouterr().err


@pytest.mark.parametrize(
    "suggestion",
    [
        {"corrections": [{"typed": "cannon", "meant": "\\1\x1b[31m"}], "total_items": "10\x1b[0m"},
        {"corrections": [{"typed": 5, "meant": None}], "total_items": 1},
        {"corrections": "canyon", "total_items": 1},
        {"corrections": [None]},
        "canyon",
    ],
    ids=["escapes", "not text", "not a list", "not an object", "a string"],
)
def test_when_the_suggestion_is_not_as_the_contract_says_then_it_is_shown_as_text_or_not_at_all(
    suggestion: Any, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    serve_api(monkeypatch, suggesting(suggestion))
    assert cli.main(["search", "cannon at sunset"]) == 0
    err = capsys.readouterr().err
    assert "\x1b" not in err and "Traceback" not in err
    if isinstance(suggestion, dict) and suggestion.get("total_items") == "10\x1b[0m":
        assert "did you mean \\1?[31m for cannon?\n" in err
    else:
        assert "did you mean" not in err
