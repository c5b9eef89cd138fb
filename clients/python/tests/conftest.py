"""The real stack for the client's tests: the repository's Elasticsearch and Redis (as `npm test`
runs them), a catalogue under an alias of its own, an API process on it, the demo pictures served
over 127.0.0.1, and keys. Nothing here stands in for the API."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest

from wallpaper_catalogue import download

ROOT = Path(__file__).resolve().parents[3]
# The project's Node (npm's `node` package), as npm runs its scripts with.
NODE = str(ROOT / "node_modules" / ".bin" / "node")
SEED = 7
# src/ and scripts/ transpiled once for this run (scripts/python-tests.sh), as the integration suite
# spawns them: under tsx's loader each process spent 0.6 s more loading.
COMPILED = os.environ.get("COMPILED_SCRIPTS_DIR")


def node(source: str, *args: str) -> list[str]:
    """The command that runs a source file of the repository (`scripts/import.ts`) with the project's Node."""
    if COMPILED is None:
        return [NODE, "--import", "tsx", source, *args]
    return [NODE, "--enable-source-maps", str(Path(COMPILED) / source.removesuffix(".ts")) + ".js", *args]
# A tier small enough that a sync spends it mid-run.
TIERS = "free:1000,premium:10000,tiny:12"


@dataclass(frozen=True)
class AuthFailures:
    limit: int
    window: int


AUTH_FAILURES = AuthFailures(limit=5, window=3)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def wait_until(check: callable, what: str, timeout: float = 60.0) -> None:  # type: ignore[valid-type]
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            if check():
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.2)
    raise TimeoutError(f"timed out waiting for {what}")


@dataclass
class Stack:
    url: str
    alias: str
    pictures: str
    env: dict[str, str]

    def script(self, name: str, *args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
        """`npm run <name> -- args`, as the script itself: npm and the tsx command in between cost a second
        a call, and the tests make many."""
        command = node(f"scripts/{name}.ts", *args)
        done = subprocess.run(command, cwd=ROOT, env=self.env, input=stdin, capture_output=True, text=True, timeout=300)
        assert done.returncode == 0, done.stderr
        return done

    def key(self, tier: str = "premium") -> str:
        return self.script("keys", "create", "--tier", tier, "--account", f"py-{uuid.uuid4().hex[:12]}").stdout.strip()

    def records(self, count: int) -> list[dict[str, object]]:
        out = self.script("export", "--count", str(count), "--seed", str(SEED)).stdout
        return [json.loads(line) for line in out.splitlines() if line.strip()]

    def lose_record_of_changes(self) -> None:
        """As an operator's slip would: the record of changes is deleted, its tombstones with it."""
        with httpx.Client(base_url=os.environ.get("ELASTICSEARCH_URL", "http://127.0.0.1:9200")) as es:
            assert es.delete(f"/{self.alias.lower()}-changes").status_code == 200

    def load(self, records: list[dict[str, object]], *, incremental: bool = False) -> None:
        body = "".join(json.dumps(r) + "\n" for r in records)
        self.script("import", *(["--incremental"] if incremental else []), "-", stdin=body)


@pytest.fixture(scope="session")
def stack() -> Iterator[Stack]:
    alias = f"test-python-{uuid.uuid4().hex[:10]}"
    pictures_port, api_port = free_port(), free_port()
    pictures = f"http://127.0.0.1:{pictures_port}"
    env = {
        **os.environ,
        "INDEX_ALIAS": alias,
        "IMAGE_BASE_URL": pictures,
        "RATE_LIMIT_TIERS": TIERS,
        "PORT": str(api_port),
        "HOST": "127.0.0.1",
        "METRICS_PORT": "0",
        "LOG_LEVEL": "warn",
        # Few and short, so that a test can see the block for failed authentications and wait it out.
        "AUTH_FAILURE_LIMIT": str(AUTH_FAILURES.limit),
        "AUTH_FAILURE_WINDOW_SECONDS": str(AUTH_FAILURES.window),
        "CURSOR_SECRET": "python-client-tests-cursor-secret-0123456789",
    }
    picture_server = subprocess.Popen(node("scripts/demo-pictures.ts", "--seed", str(SEED)), cwd=ROOT, env=env, stderr=subprocess.DEVNULL)
    stack = Stack(f"http://127.0.0.1:{api_port}", alias, pictures, env)
    api = None
    try:
        stack.load(stack.records(60))
        api = subprocess.Popen(node("src/server.ts"), cwd=ROOT, env=env, stderr=subprocess.DEVNULL)
        wait_until(lambda: httpx.get(f"{stack.url}/readyz").status_code == 200, "the API")
        wait_until(lambda: httpx.get(f"{pictures}/").status_code < 500, "the demo pictures")
        yield stack
    finally:
        for process in (api, picture_server):
            if process is not None:
                process.terminate()
                process.wait(timeout=30)
        with httpx.Client(base_url=os.environ.get("ELASTICSEARCH_URL", "http://127.0.0.1:9200")) as es:
            names = es.get(f"/{alias}-*", params={"ignore_unavailable": "true", "allow_no_indices": "true"}).json()
            for name in names if isinstance(names, dict) else []:
                es.delete(f"/{name}")


@pytest.fixture()
def pictures() -> Iterator[str]:
    """The address of a server of one PNG at every path (tests/fakes.py), for the offline tests."""
    from .fakes import picture_server

    with picture_server() as address:
        yield address


@pytest.fixture(autouse=True)
def quick_picture_retries(monkeypatch: pytest.MonkeyPatch) -> None:
    """A picture's "not now" tried again at once: how long the tool waits is not what a test is
    about (test_download.py holds the waits to their bounds)."""
    monkeypatch.setattr(download, "RETRY_DELAYS", (0.0, 0.0))
