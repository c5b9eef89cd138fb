"""When a program calls the client with filters, then a type checker holds them to the contract's
parameters (params.py, generated from it): a misspelt filter had gone to the API unnoticed."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

PROGRAM = """
from wallpaper_catalogue import Client, ListParams

client = Client(base_url="http://127.0.0.1:3000", api_key="k")
client.wallpapers.list(category=["space", None], tags=("sea",), tone=None, include="tags", per_page=5)
client.search.all("sea", limit=3, sort="random", seed="s1", exclude_ids=[1, 2])
client.wallpapers.similar(7, per_page=3)
list(client.changes.follow(until_end=True, per_page=100, include=["dimensions"]))
kept: ListParams = {"category": "space", "min_resolution": "1920x1080"}
client.wallpapers.all(limit=10, **kept)
client.wallpapers.list(categroy="space")  # line 11
client.wallpapers.list(category="spaec")  # line 12
client.search.all("sea", per_page="10")  # line 13
client.changes.page(None, sort="newest")  # line 14
"""


@pytest.fixture(scope="module")
def checked(tmp_path_factory: pytest.TempPathFactory) -> str:
    folder = tmp_path_factory.mktemp("typed")
    program = folder / "program.py"
    program.write_text(PROGRAM)
    done = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--cache-dir", str(folder / "cache"), str(program)],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=Path(__file__).resolve().parent.parent,
    )
    return done.stdout


def errors_on(output: str, line: int) -> list[str]:
    return [text for text in output.splitlines() if f"program.py:{line}: error" in text]


def test_when_the_filters_are_the_contract_s_then_the_program_checks_clean(checked: str) -> None:
    assert [line for line in checked.splitlines() if any(f"program.py:{n}: " in line for n in range(1, 11))] == []


@pytest.mark.parametrize(
    ("line", "said"),
    [
        (11, 'Unexpected keyword argument "categroy"'),
        (12, 'Argument "category" to "list" of "Wallpapers" has incompatible type "Literal[\'spaec\']"'),
        (13, 'Argument "per_page" to "all" of "Search" has incompatible type "str"'),
        (14, 'Unexpected keyword argument "sort"'),
    ],
)
def test_when_a_filter_is_misspelt_or_of_the_wrong_kind_then_the_type_checker_names_it(checked: str, line: int, said: str) -> None:
    found = errors_on(checked, line)
    assert found and said in found[0], checked
