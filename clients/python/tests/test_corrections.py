"""When a search found nothing as typed and the API answers it for the words meant
(meta.corrections), then the tool says so, once, before what it lists."""

from __future__ import annotations

import json
from typing import Any

import httpx
import pytest

from wallpaper_catalogue import cli

from .fakes import item, page, serve_api


def answered_for(corrections: Any, pages: int = 2) -> Any:
    def api(request: httpx.Request) -> httpx.Response:
        number = int(request.url.params.get("cursor") or 1)
        body = page([item(number, f"http://pictures.test/{number}.png", "Canyon at Sunset")], str(number + 1) if number < pages else None)
        body["meta"].update(current_page=number, corrections=corrections)
        return httpx.Response(200, json=body)

    return api


def test_when_a_search_is_answered_for_the_words_meant_then_the_tool_says_what_it_shows_once(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    serve_api(monkeypatch, answered_for([{"typed": "cannon", "meant": "canyon"}]))
    assert cli.main(["search", "Cannon at sunset", "--json"]) == 0
    out, err = capsys.readouterr()
    assert err.count("showing results for") == 1
    assert "nothing found for Cannon at sunset; showing results for canyon at sunset" in err
    assert [w["id"] for w in json.loads(out)] == [1, 2]


def test_when_the_search_found_what_was_typed_then_nothing_is_said(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    serve_api(monkeypatch, lambda _r: httpx.Response(200, json=page([item(1, "http://pictures.test/1.png")])))
    assert cli.main(["search", "calm sea", "--limit", "1"]) == 0
    assert "showing results for" not in capsys.readouterr().err


@pytest.mark.parametrize(
    "corrections",
    [[{"typed": "cannon", "meant": "\\1\x1b[31m"}], [{"typed": 5, "meant": None}], "canyon", [None]],
    ids=["template and escape", "not text", "not a list", "not an object"],
)
def test_when_the_corrections_are_not_as_the_contract_says_then_they_are_shown_as_text_or_not_at_all(
    corrections: Any, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    serve_api(monkeypatch, answered_for(corrections, pages=1))
    assert cli.main(["search", "cannon at sunset"]) == 0
    err = capsys.readouterr().err
    assert "\x1b" not in err and "Traceback" not in err
    if corrections == [{"typed": "cannon", "meant": "\\1\x1b[31m"}]:
        assert "showing results for \\1?[31m at sunset" in err
    else:
        assert "showing results for" not in err
