"""``wallpapers``: the catalogue from the command line.

Reads ``API_KEY`` and ``WALLPAPERS_URL`` (default http://127.0.0.1:3000) from the environment.
Exit codes: 0 done (a sync stopped by a spent quota included: it resumes next time; output cut
short by its reader, as by ``| head``, too), 1 some pictures failed, the API refused or the quota
ran out mid-listing, 2 bad usage, 130 interrupted (Ctrl-C), 143 terminated (SIGTERM), 129 hung up
(SIGHUP).
"""

from __future__ import annotations

import argparse
import errno
import ipaddress
import json
import os
import signal
import sys
import threading
import unicodedata
from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from itertools import islice
from pathlib import Path
from typing import Any

import httpx
from tqdm import tqdm

from ._pacing import Pacing
from .client import Client
from .download import DownloadError, Fetched, fetch_all
from .errors import ApiError, QuotaExhausted
from .models import WallpaperList, WallpaperListItem
from .sync import SYNC_FILTERS, SyncBusy, SyncError, SyncReport, sync

LIST_FILTERS = ("category", "resolution", "ratio", "tags", "exclude_tags", "exclude_ids", "color", "ids", "include")
SINGLE_FILTERS = ("min_resolution", "orientation", "tone", "sort", "seed")


# Characters a terminal acts on or shows as something else: controls (Cc: escape sequences that
# retitle or clear it), formats (Cf: bidirectional overrides that show text out of order,
# zero-width and tag characters), line and paragraph separators, and lone surrogates, which cannot
# be printed at all.
UNSHOWN = frozenset({"Cc", "Cf", "Cs", "Zl", "Zp"})


def shown(value: object) -> str:
    """Text the server sent, as a terminal shows it: what it would act on replaced by `?`."""
    text = str(value)
    if text.isascii() and text.isprintable():
        return text
    return "".join("?" if unicodedata.category(c) in UNSHOWN else c for c in text)


class UsageError(Exception):
    """Bad usage found after parsing: exit 2, as argparse's own."""


class Terminated(KeyboardInterrupt):
    """Stopped by a signal that asks a program to end (SIGTERM from `timeout`, a scheduler or a
    container's stop; SIGHUP from a closed terminal). A KeyboardInterrupt, so the run ends as Ctrl-C
    ends it, through the same paths: pictures under way stop at their next chunk and their .part
    files are removed, a sync saves what it fetched. Python's default had ended the process where it
    stood, leaving both to the next run (helper-131)."""

    def __init__(self, signum: int) -> None:
        super().__init__(signal.Signals(signum).name)
        self.signum = signum


# Signals handled as Ctrl-C is, where the platform has them (Windows has no SIGHUP).
ENDING_SIGNALS = tuple(getattr(signal, name) for name in ("SIGTERM", "SIGHUP") if hasattr(signal, name))


@contextmanager
def ending_signals_as_interrupts() -> Iterator[None]:
    """While a command runs, SIGTERM and SIGHUP raise Terminated in the main thread. A second one
    while the first is being handled is ignored, so the clean-up it started is not cut short in turn
    (it is bounded: workers stop at their next chunk); a supervisor that will not wait sends
    SIGKILL. The handlers before are put back after, for a program that calls main() itself; off the
    main thread, where Python allows no handler, nothing changes."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def end(signum: int, _frame: object) -> None:
        for other in ENDING_SIGNALS:
            signal.signal(other, signal.SIG_IGN)
        raise Terminated(signum)

    before = {signum: signal.signal(signum, end) for signum in ENDING_SIGNALS}
    try:
        yield
    finally:
        for signum, handler in before.items():
            signal.signal(signum, handler)


def positive(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1 (got {text})")
    return value


def seconds(text: str) -> float:
    """A wait in seconds, 0 or more: a negative one had passed, never retrying a 503."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be a number of seconds (got {text})") from None
    if not value >= 0 or value == float("inf"):
        raise argparse.ArgumentTypeError(f"must be 0 or more seconds (got {text})")
    return value


def _folder(path: str) -> Path:
    """A folder to put pictures in, made before any request: refused when something else has its
    name or it cannot be made (below a file, in a place one may not write)."""
    folder = Path(path)
    if folder.exists() and not folder.is_dir():
        raise UsageError(f"--dir {path}: not a folder")
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise UsageError(f"--dir {path}: {error.strerror or error}") from error
    return folder


def _add_filters(parser: argparse.ArgumentParser, names: Sequence[str]) -> None:
    for name in names:
        many = name in LIST_FILTERS
        parser.add_argument(f"--{name.replace('_', '-')}", dest=name, help="comma-separated" if many else None)


def _filters(args: argparse.Namespace, names: Sequence[str]) -> dict[str, Any]:
    filters: dict[str, Any] = {}
    for name in names:
        value = getattr(args, name, None)
        if value is None:
            continue
        if name in LIST_FILTERS:
            values = [v.strip() for v in value.split(",") if v.strip()]
            # An empty list is left out of a request, so the value typed would be silently dropped.
            if not values:
                raise UsageError(f"--{name.replace('_', '-')} needs at least one value")
            filters[name] = values
        else:
            filters[name] = value
    return filters


def _client(args: argparse.Namespace, *, max_wait: float = 60.0) -> Client:
    # White space around it is no part of a key: a key read from a file with CRLF line ends, or
    # pasted with a space, carries some, and had ended in a traceback.
    key = (os.environ.get("API_KEY") or "").strip()
    if not key:
        raise UsageError("set API_KEY to your API key (the portal gives one)")
    url = _api_url()
    try:
        parsed = httpx.URL(url)
    except (httpx.InvalidURL, TypeError):
        parsed = None
    if parsed is None or parsed.scheme not in ("http", "https") or not parsed.host or not 0 < (parsed.port or 1) <= 65535:
        raise UsageError(f"WALLPAPERS_URL {shown(url)} is not an address such as https://api.example.com")
    # The key goes in its own header: a user and password here would replace it (Basic), and a query
    # or fragment would ride on every request (helper-98).
    if parsed.userinfo or parsed.query or parsed.fragment:
        raise UsageError(f"WALLPAPERS_URL {shown(url)} must be the API's address alone, without a user, password, query or fragment")
    if _in_clear(url):
        print(f"wallpapers: {shown(url)} is plain http: API_KEY crosses the network unencrypted; use https://", file=sys.stderr)
    try:
        return Client(base_url=url, api_key=key, pacing=Pacing(max_wait=max_wait))
    except ValueError as refused:
        raise UsageError(f"API_KEY: {str(refused).replace('api_key', 'the key', 1)}") from None


def _api_url() -> str:
    """WALLPAPERS_URL; set but empty is unset, as a shell's `WALLPAPERS_URL= wallpapers …` means."""
    return os.environ.get("WALLPAPERS_URL") or "http://127.0.0.1:3000"


def _in_clear(url: str) -> bool:
    """Whether the key would reach another machine unencrypted: plain http to a host that is not
    this one. Said, not refused: an API inside a private network may well be served so."""
    try:
        parsed = httpx.URL(url)
    except (httpx.InvalidURL, TypeError):
        return False
    if parsed.scheme != "http":
        return False
    host = parsed.host.strip("[]").lower()
    try:
        return not ipaddress.ip_address(host).is_loopback
    except ValueError:
        return host != "localhost" and not host.endswith(".localhost")


def _print_items(items: Iterable[Mapping[str, Any]], as_json: bool) -> None:
    if as_json:
        # What was read is printed, as the plain listing prints it as it comes, when the walk stops
        # part way (a quota spent mid-walk): it had been thrown away, the pages paid for. The exit
        # code and stderr say it stopped. A walk that read nothing prints nothing: `[]` would read
        # as an empty catalogue to a pipeline (helper-98).
        read: list[dict[str, Any]] = []
        try:
            for item in items:
                read.append(dict(item))
        except BaseException:
            if read:
                print(json.dumps(read, indent=1))
            raise
        print(json.dumps(read, indent=1))
        return
    for item in items:
        print(f"{item['id']:>10}  {shown(item.get('resolution')):>9}  {shown(item.get('category')):<14} {shown(item.get('title'))}")


def _listing(client: Client, args: argparse.Namespace, names: Sequence[str]) -> Iterator[WallpaperListItem]:
    filters = _filters(args, names)
    # A search for "" (an empty `$Q` in a script) is the API's to refuse, not a listing of the
    # whole catalogue.
    q: str | None = getattr(args, "q", None)
    if "ids" in filters:
        # Those wallpapers, in that order: one page, asked alone (the API takes nothing beside ids).
        if len(filters) > 1 or q is not None:
            raise UsageError("--ids takes no other filter, search or --include")
        page = client.wallpapers.list(ids=filters["ids"])
        missing = page["meta"].get("missing")
        if isinstance(missing, list) and missing:
            print(f"wallpapers: not found: {shown(', '.join(str(i) for i in missing))}", file=sys.stderr)
        return islice(iter(page["data"]), args.limit)
    per_page = min(100, args.limit) if args.limit else 100
    if q is not None:
        return client.search.all(q, limit=args.limit, per_page=per_page, on_page=lambda page: _say_suggestion(q, page), **filters)
    return client.wallpapers.all(limit=args.limit, per_page=per_page, **filters)


def _say_suggestion(q: str, page: WallpaperList) -> None:
    """Another reading the catalogue has wallpapers for (meta.did_you_mean), of a search that found
    nothing or found only wallpapers without the words typed: said with the words as the API gave
    them, not written into the query, whose spelling the API may have read otherwise (accents,
    exclusions)."""
    suggestion = page["meta"].get("did_you_mean")
    if not isinstance(suggestion, dict) or not isinstance(suggestion.get("corrections"), list):
        return
    pairs = [(c.get("typed"), c.get("meant")) for c in suggestion["corrections"] if isinstance(c, dict)]
    words = [f"{shown(meant)} for {shown(typed)}" for typed, meant in pairs if isinstance(typed, str) and isinstance(meant, str)]
    if not words:
        return
    total = suggestion.get("total_items")
    found = f" ({total} wallpapers)" if type(total) is int else ""
    asked = page["meta"].get("total_items")
    lacked = [shown(typed) for typed, meant in pairs if isinstance(typed, str) and isinstance(meant, str)]
    said = f"{asked} found for {shown(q)}, none with {' or '.join(lacked)}" if type(asked) is int and asked > 0 else f"nothing found for {shown(q)}"
    print(f"wallpapers: {said}; did you mean {', '.join(words)}?{found}", file=sys.stderr)


LISTING = LIST_FILTERS + SINGLE_FILTERS


def cmd_list(args: argparse.Namespace) -> int:
    with _client(args) as client:
        _print_items(_listing(client, args, LISTING), args.json)
    return 0


def cmd_search(args: argparse.Namespace) -> int:
    return cmd_list(args)


def cmd_get(args: argparse.Namespace) -> int:
    with _client(args) as client:
        wallpaper = client.wallpapers.get(args.id)
    if args.json:
        print(json.dumps(wallpaper, indent=1))
    else:
        for name, value in wallpaper.items():
            print(f"{shown(name):>12}: {shown(value)}")
    return 0


def _stopped_by(message: str | None, retry_after: float) -> str:
    """A 429 that stopped a command, in the API's words (a spent quota, or a busy account)."""
    return f"{shown(message or 'the quota is spent')} (asked to wait {retry_after:.0f} s)"


# Answers that say the key is not accepted: another run with the same key gets the same
# (too_many_auth_failures says to check the key itself).
KEY_REFUSED = {"unauthorized", "forbidden"}


class _Stderr:
    """Standard error as a progress bar writes to it: a write the reader no longer takes is dropped
    and remembered, never raised inside tqdm. tqdm holds its lock through a write that raises, so a
    worker thread's progress line to a closed pipe left the bar never closing, and the tool waiting
    for ever (`2>&1 | head`, helper-98). The caller checks `gone` and ends the run itself."""

    def __init__(self) -> None:
        self.gone = False

    def write(self, text: str) -> int:
        if not self.gone:
            try:
                return sys.stderr.write(text)
            except (BrokenPipeError, ValueError):
                self.gone = True
        return 0

    def flush(self) -> None:
        if not self.gone:
            try:
                sys.stderr.flush()
            except (BrokenPipeError, ValueError):
                self.gone = True

    def check(self) -> None:
        """Ends the run, as main() ends it when stdout's reader stops reading."""
        if self.gone:
            raise BrokenPipeError(errno.EPIPE, "standard error is no longer read")


def _bar(args: argparse.Namespace, err: _Stderr, **shape: Any) -> tqdm[Any]:
    """A progress bar for someone watching a terminal. Standard error that is not one (a log, a
    pipe) gets none: its carriage returns had piled a log's progress into one mangled line. Lines
    written through it (failures) are printed all the same."""
    try:
        watched = sys.stderr.isatty()
    except (AttributeError, ValueError):
        watched = False
    return tqdm(file=err, disable=args.quiet or not watched, **shape)


@contextmanager
def _closing(bar: tqdm[Any]) -> Iterator[None]:
    """Ends the bar however the run ends, before main() says why it stopped (Ctrl-C, an error):
    its message had been printed on the bar's unfinished line."""
    try:
        yield
    finally:
        bar.close()


# What a folder answers when it takes no new file at all: read-only, full, over quota, not ours,
# immutable (chattr +i: EPERM), or past the process's file size limit (ulimit -f: EFBIG; helper-131).
FOLDER_REFUSES = {errno.EROFS, errno.ENOSPC, errno.EDQUOT, errno.EACCES, errno.EPERM, errno.EFBIG}


class _FolderRefuses(Exception):
    def __init__(self, error: OSError) -> None:
        super().__init__(str(error))
        self.error = error


def cmd_download(args: argparse.Namespace) -> int:
    folder = _folder(args.dir)
    err = _Stderr()
    bar = _bar(args, err, total=args.limit, unit="picture", desc="download")
    failures: list[str] = []
    spent: list[QuotaExhausted] = []

    def done(result: Fetched | DownloadError) -> None:
        bar.update(1)
        if isinstance(result, DownloadError):
            failures.append(str(result))
            bar.write(f"wallpapers: {shown(result)}", file=err)
            # A folder that takes no file takes none of the rest either: the run ends, rather than
            # asking for every picture of the listing to fail each the same way (helper-107).
            if isinstance(result.__cause__, OSError) and result.__cause__.errno in FOLDER_REFUSES:
                raise _FolderRefuses(result.__cause__)
        err.check()

    broken: list[ApiError | httpx.HTTPError] = []

    # Pictures are fetched as the listing comes, so a quota spent part way still leaves what was
    # listed on disk, and the next run resumes, skipping what is there. So does a listing that
    # fails on a later page (a 500, a 503 or the network past the client's retries, a walk's 410):
    # it had thrown away the pictures listed and not yet fetched (helper-147). On its first page it
    # is the run's answer, as for any command.
    def jobs(client: Client) -> Iterator[tuple[int, str]]:
        listed = 0
        try:
            for item in _listing(client, args, LISTING):
                listed += 1
                yield item["id"], item["url"]
        except QuotaExhausted as error:
            spent.append(error)
        except (ApiError, httpx.HTTPError) as error:
            if listed == 0:
                raise
            broken.append(error)

    try:
        with _client(args) as client, _closing(bar):
            fetched, _ = fetch_all(jobs(client), folder, parallel=args.parallel, on_done=done)
    except _FolderRefuses as refused:
        print(f"wallpapers: {shown(folder)}: {shown(refused.error.strerror or refused.error)}; run again once the folder can be written", file=sys.stderr)
        return 1
    new = sum(1 for f in fetched if not f.skipped)
    print(f"{new} downloaded, {len(fetched) - new} already there, {len(failures)} failed, in {folder}", file=sys.stderr)
    if spent:
        print(f"wallpapers: {_stopped_by(spent[0].message, spent[0].retry_after)} before the listing ended: run again then to continue", file=sys.stderr)
    if broken:
        print(f"wallpapers: the listing stopped part way ({_failure(broken[0])}): run again to continue", file=sys.stderr)
    if args.json:
        print(json.dumps([{"id": f.wallpaper_id, "file": str(f.path), "bytes": f.size} for f in sorted(fetched, key=lambda f: f.wallpaper_id)], indent=1))
    return 1 if failures or spent or broken else 0


def cmd_sync(args: argparse.Namespace) -> int:
    folder = _folder(args.dir)
    err = _Stderr()
    bar = _bar(args, err, unit="change", desc="sync")
    seen = {"changes": 0}

    def progress(report: SyncReport) -> None:
        bar.update(report.changes - seen["changes"])
        seen["changes"] = report.changes
        err.check()

    # A spent quota ends the run (to resume next time) rather than waiting out the window.
    with _client(args, max_wait=args.max_wait) as client, _closing(bar):
        try:
            report = sync(
                client,
                folder,
                _filters(args, SYNC_FILTERS),
                restart=args.restart,
                parallel=args.parallel,
                page_size=args.page_size,
                on_progress=progress,
            )
        except (SyncError, SyncBusy) as error:
            bar.close()
            print(f"wallpapers: {shown(error)}", file=sys.stderr)
            return 1 if isinstance(error, SyncBusy) else 2
        except BrokenPipeError:
            raise
        except OSError as error:
            # The folder cannot be written (read-only, full): said in a line, not a traceback. The
            # manifest is as its last save left it, which the next run goes on from.
            bar.close()
            where = f"{error.filename}: " if error.filename else ""
            print(f"wallpapers: {shown(where + (error.strerror or str(error)))}; run again once the folder can be written", file=sys.stderr)
            return 1
    bar.close()
    for failure in report.failed:
        print(f"wallpapers: {shown(failure)} (tried again next run)", file=sys.stderr)
    for kept in report.kept:
        print(f"wallpapers: {shown(kept)}", file=sys.stderr)
    if report.walked_again is not None:
        print(f"wallpapers: walked the change feed again from its start, as the API said: {shown(report.walked_again)}", file=sys.stderr)
    if report.not_swept:
        print(
            "wallpapers: the walk from the start served nothing, so no picture was deleted as gone; run with --restart once the API serves the catalogue",
            file=sys.stderr,
        )
    summary = f"{report.changes} changes: {report.fetched} fetched, {report.removed} removed, {report.unchanged} unchanged, {len(report.failed)} failed"
    if report.quota_spent is not None:
        summary += f"; {_stopped_by(report.quota_message, report.quota_spent)}: run again then to continue"
    print(summary, file=sys.stderr)
    if args.json:
        print(
            json.dumps(
                {
                    "changes": report.changes,
                    "fetched": report.fetched,
                    "removed": report.removed,
                    "unchanged": report.unchanged,
                    "failed": report.failed,
                    "kept": report.kept,
                    "walked_again": report.walked_again,
                    "quota_spent": report.quota_spent,
                }
            )
        )
    return 1 if report.failed or report.kept else 0


def parser() -> argparse.ArgumentParser:
    top = argparse.ArgumentParser(prog="wallpapers", description="The Wallpaper Catalogue from the command line (API_KEY, WALLPAPERS_URL).")
    commands = top.add_subparsers(dest="command", required=True)

    def command(name: str, help_text: str, listing: bool) -> argparse.ArgumentParser:
        sub = commands.add_parser(name, help=help_text)
        sub.add_argument("--json", action="store_true", help="print JSON for scripts")
        if listing:
            sub.add_argument("--limit", type=positive, help="at most N wallpapers")
        return sub

    listing = command("list", "list wallpapers (every filter of the API)", True)
    _add_filters(listing, LISTING)
    listing.set_defaults(run=cmd_list)

    search = command("search", "search wallpapers by keywords", True)
    search.add_argument("q", help="what to look for")
    _add_filters(search, LISTING)
    search.set_defaults(run=cmd_search)

    get = command("get", "one wallpaper in detail", False)
    get.add_argument("id", type=int)
    get.set_defaults(run=cmd_get)

    download = command("download", "download the pictures of a listing (or a search, with --q)", True)
    download.add_argument("--dir", required=True, help="where to put them (resumes what is there)")
    download.add_argument("--q", help="a search instead of a listing")
    download.add_argument("--parallel", type=positive, default=4)
    download.add_argument("--quiet", action="store_true", help="no progress bar")
    _add_filters(download, LISTING)
    download.set_defaults(run=cmd_download)

    mirror = command("sync", "mirror the wallpapers that match into a folder, kept in step by the change feed", False)
    mirror.add_argument("--dir", required=True)
    mirror.add_argument("--restart", action="store_true", help="mirror anew (other filters than the folder's)")
    mirror.add_argument("--parallel", type=positive, default=4)
    mirror.add_argument("--page-size", type=positive, default=100, help="changes per request (1-100)")
    mirror.add_argument("--max-wait", type=seconds, default=30.0, help="longest wait for the quota, in seconds, before stopping to resume later")
    mirror.add_argument("--quiet", action="store_true", help="no progress bar")
    _add_filters(mirror, SYNC_FILTERS)
    mirror.set_defaults(run=cmd_sync)
    return top


def _last_word(text: str) -> None:
    """Says why the run stopped, where no one may be listening: after SIGHUP from a terminal that
    closed, writing to it fails (EIO), and the traceback had turned exit 129 into 1 (helper-133)."""
    try:
        print(f"wallpapers: {text}", file=sys.stderr)
    except (OSError, ValueError):
        pass


def main(argv: Sequence[str] | None = None) -> int:
    args = parser().parse_args(argv)
    try:
        with ending_signals_as_interrupts():
            return int(args.run(args))
    except UsageError as error:
        print(f"wallpapers: {error}", file=sys.stderr)
        return 2
    except Terminated as ended:
        _last_word(f"stopped by {ended}")
        return 128 + ended.signum
    except KeyboardInterrupt:
        _last_word("interrupted")
        return 130
    except BrokenPipeError:
        # The reader stopped reading (`| head`): what it wanted is printed. Python would complain
        # again when it flushes stdout at exit, so stdout goes nowhere from here.
        # Standard error too, when it was its reader that stopped (`2>&1 | head`).
        for stream in (sys.stdout, sys.stderr):
            try:
                stream.flush()
            except (BrokenPipeError, ValueError):
                try:
                    os.dup2(os.open(os.devnull, os.O_WRONLY), stream.fileno())
                except (OSError, ValueError, AttributeError):
                    pass
        return 0
    except QuotaExhausted as spent:
        print(f"wallpapers: {_stopped_by(spent.message, spent.retry_after)}", file=sys.stderr)
        return 1
    except (ApiError, httpx.HTTPError) as error:
        print(f"wallpapers: {_failure(error)}", file=sys.stderr)
        return 1


def _failure(error: ApiError | httpx.HTTPError) -> str:
    """What the API, or the network, answered, in a line."""
    if isinstance(error, ApiError):
        advice = " (check API_KEY)" if error.error in KEY_REFUSED else ""
        return f"{error.status} {shown(error.error)}: {shown(error.message)}{advice}"
    # The client has already retried with backoff: what is left is the network's answer.
    return f"cannot reach {shown(_api_url())}: {error}"


if __name__ == "__main__":
    sys.exit(main())
