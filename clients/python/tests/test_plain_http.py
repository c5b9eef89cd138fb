"""When WALLPAPERS_URL is plain http to another machine, then the tool says the key crosses the
network unencrypted, and still runs; to this machine it says nothing."""

from __future__ import annotations

import argparse

import pytest

from wallpaper_catalogue import cli


@pytest.mark.parametrize(
    ("url", "said"),
    [
        ("http://api.example.com", True),
        ("http://192.168.1.20:3000", True),
        ("http://[2001:db8::1]:3000", True),
        ("HTTP://api.example.com/", True),
        ("https://api.example.com", False),
        ("http://127.0.0.1:3000", False),
        ("http://127.8.9.10", False),
        ("http://localhost:3000", False),
        ("http://api.localhost", False),
        ("http://[::1]:3000", False),
    ],
)
def test_when_the_api_is_reached_over_plain_http_then_the_tool_warns_unless_it_is_this_machine(
    url: str, said: bool, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("API_KEY", "k")
    monkeypatch.setenv("WALLPAPERS_URL", url)
    cli._client(argparse.Namespace()).close()
    assert ("unencrypted" in capsys.readouterr().err) is said


def test_when_the_address_is_not_one_then_no_warning_and_no_traceback() -> None:
    assert cli._in_clear("http://[::1") is False
    assert cli._in_clear("not a url") is False
