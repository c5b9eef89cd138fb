"""Mirroring the catalogue (or the part of it some filters pick) into a folder, kept in step by the
change feed.

The folder holds one picture per wallpaper (``<id>.<ext>``) and a manifest,
``.wallpapers-sync.json``: the filters, the feed's cursor, and each picture's wallpaper. A run
follows ``GET /v1/changes`` from the saved cursor (from the start on the first run, which is then
a snapshot): it fetches what is new or changed and matches the filters, deletes what was removed
or no longer matches, and saves the cursor after each page it has applied. A run that meets a
spent quota saves where it stands and stops; the next run resumes there. Pictures that failed to
download are kept as pending and tried again by the next run once it has read the feed (to its
end, or as far as the quota lets it), so one deleted or changed meanwhile is not fetched in vain.

A cursor the API no longer continues (410 ``cursor_expired``: the record of changes it was read in
was lost, restored or begun anew, so deletions may be missing after it) starts a new walk from the
start, as ``--restart`` does. At that walk's end, what it did not serve and the catalogue no longer
holds (asked by id) is deleted.

The filters are read on each change's wallpaper (asked with ``include=dimensions,tags,colors``),
so a sync takes those a list item can answer: category, resolution, min_resolution, ratio,
orientation, tags (any of), exclude_tags (none of) and tone. Colours by name or hex need the
catalogue's colour model and are refused rather than guessed.
"""

from __future__ import annotations

import json
import os
import re
import time
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, cast

import httpx

from .client import Client, Repeats, feed_step, is_wallpaper_id
from .download import DownloadError, Fetched, Leftovers, existing, fetch_all, own_file, picture_client, remove_leftover
from .errors import ApiError, CursorExpired, QuotaExhausted
from .models import ChangeItem, WallpaperListItem

MANIFEST = ".wallpapers-sync.json"
SYNC_FILTERS = ("category", "resolution", "min_resolution", "ratio", "orientation", "tags", "exclude_tags", "tone")
PAGE = 100
WHOLE_AT_LEAST = 256 * 1024
"""Change lines a manifest holds before it is written whole again, however small the whole."""


class SyncError(Exception):
    pass


class SyncBusy(Exception):
    """Another sync is under way in the folder."""


def _size(text: str) -> tuple[int, int]:
    width, height = text.lower().split("x")
    return int(width), int(height)


def _whole(value: object) -> int:
    """A dimension as the contract gives it, a whole number; anything else is none (0)."""
    return value if type(value) is int else 0


def check_filters(client: Client, filters: Mapping[str, Any]) -> None:
    """A new mirror's filters, as the API reads them, so a typo (``--category spcae``) stops it
    before it walks the whole feed and pins the folder to the typo. Costs one request, once per mirror."""
    unknown = sorted(set(filters) - set(SYNC_FILTERS))
    if unknown:
        raise SyncError(f"sync cannot filter by {', '.join(unknown)}; it takes {', '.join(SYNC_FILTERS)}")
    size = filters.get("min_resolution")
    if size is not None and not re.fullmatch(r"[1-9][0-9]{0,5}x[1-9][0-9]{0,5}", str(size)):
        raise SyncError(f"min_resolution must be WIDTHxHEIGHT, such as 1920x1080 (got {size})")
    try:
        client.wallpapers.list(per_page=1, **filters)
    except ApiError as error:
        if error.status == 400:
            raise SyncError(error.message) from error
        raise


def matches(item: WallpaperListItem, filters: Mapping[str, Any]) -> bool:
    """Whether a wallpaper (with dimensions, tags and colours included) passes the sync's filters."""

    def listed(name: str) -> list[str] | None:
        """A filter's values; an empty list is no filter, as the API reads it (it is not sent)."""
        value = filters.get(name)
        if value is None or value == []:
            return None
        return [str(v) for v in (value if isinstance(value, (list, tuple)) else [value])]

    for name, field_name in (("category", "category"), ("resolution", "resolution"), ("ratio", "ratio")):
        wanted = listed(name)
        if wanted is not None and item.get(field_name) not in wanted:
            return False
    if filters.get("orientation") is not None and item.get("orientation") != filters["orientation"]:
        return False
    if filters.get("tone") is not None and item.get("tone") != filters["tone"]:
        return False
    if filters.get("min_resolution") is not None:
        width, height = _size(str(filters["min_resolution"]))
        if _whole(item.get("width")) < width or _whole(item.get("height")) < height:
            return False
    given = item.get("tags")
    tags = {t.lower() for t in given if isinstance(t, str)} if isinstance(given, list) else set()
    wanted_tags = listed("tags")
    if wanted_tags is not None and not tags & {t.lower() for t in wanted_tags}:
        return False
    unwanted = listed("exclude_tags")
    if unwanted is not None and tags & {t.lower() for t in unwanted}:
        return False
    return True


@dataclass
class Manifest:
    """What a mirror holds: its filters, the feed's cursor, each picture's wallpaper and the pictures
    still to fetch.

    Saved as one file, ``.wallpapers-sync.json``: a line with the whole manifest, then one line per
    save with what that save changed. A save appends its line, so a page of the feed costs what the
    page changed, not the whole mirror (147 MB at a million wallpapers, two saves a page: a first
    sync would write the square of its size; bench/results/sync-manifest.md). When the lines
    outgrow the whole, the file is written whole again, to a temporary file renamed over it, so its
    size stays within twice the manifest's and the bytes a first sync writes within a few times the
    manifest's own. A save cut short leaves a last line without its newline: it is read as not made,
    and the next save writes the file whole.
    """

    folder: Path
    filters: dict[str, Any]
    cursor: str | None = None
    _files: dict[str, dict[str, Any]] = field(default_factory=dict)
    _pending: dict[str, str] = field(default_factory=dict)
    _changed: set[str] = field(default_factory=set)
    _saved_cursor: str | None = None
    _whole_bytes: int = 0
    _appended_bytes: int = 0
    _write_whole: bool = True
    walk: int = 0
    """Which walk from the feed's start the mirror is on: a new one after a 410 or --restart."""
    sweeping: bool = False
    """Whether the end of this walk deletes what it did not serve (its wallpapers are gone)."""
    served: int = 0
    """Changes this walk has served so far, across runs: one that served none is not a snapshot."""
    _saved_walk: tuple[int, bool, int] = (0, False, 0)

    @classmethod
    def open(cls, folder: Path, filters: dict[str, Any], *, restart: bool = False) -> Manifest:
        path = folder / MANIFEST
        if not path.exists():
            return cls(folder, filters)
        try:
            saved = _read_manifest(path)
        except SyncError:
            if not restart:
                raise
            # Mirrored anew, as the refusal says: what the damaged manifest named cannot be told from
            # a user's pictures, so those are left as they are, and each run names them.
            return cls(folder, filters)
        if restart:
            # Mirrored anew from the feed's start, the pictures fetched before still its own: kept,
            # replaced or deleted as the new filters say (taken for a user's, they were left for ever),
            # or deleted at the walk's end when it does not serve them.
            manifest = cls(folder, filters, None, saved.files, saved.pending, walk=saved.walk)
            manifest.begin_again()
            return manifest
        if not _same_filters(saved.filters, filters):
            raise SyncError(f"{folder} mirrors other filters ({json.dumps(saved.filters)}); use another folder, or --restart to mirror these instead")
        at = (saved.walk, saved.sweeping, saved.served)
        return cls(
            folder,
            filters,
            saved.cursor,
            saved.files,
            saved.pending,
            set(),
            saved.cursor,
            saved.whole_bytes,
            saved.appended_bytes,
            saved.rewrite,
            walk=at[0],
            sweeping=at[1],
            served=at[2],
            _saved_walk=at,
        )

    @property
    def files(self) -> Mapping[str, Mapping[str, Any]]:
        return self._files

    @property
    def pending(self) -> Mapping[str, str]:
        return self._pending

    def describe(self, key: str, wallpaper: Mapping[str, Any]) -> None:
        """The wallpaper a picture is of, as the feed last gave it (its url says when to fetch anew),
        and the walk that served it (none before a first walk again, to keep the manifest as it was)."""
        served = {"walk": self.walk} if self.walk else {}
        self._files[key] = {**self._files.get(key, {}), "title": wallpaper["title"], "url": wallpaper["url"], "category": wallpaper["category"], **served}
        self._changed.add(key)

    def begin_again(self) -> None:
        """A new walk from the feed's start, whose end deletes what it did not serve."""
        self.cursor = None
        self.walk += 1
        self.sweeping = bool(self._files or self._pending)
        self.served = 0

    def unserved(self) -> list[str]:
        """What the walk under way has not served: at its end, wallpapers the catalogue no longer has."""
        return [key for key, entry in self._files.items() if entry.get("walk", 0) < self.walk] + [k for k in self._pending if k not in self._files]

    def fetched(self, key: str, name: str) -> None:
        self._files.setdefault(key, {})["file"] = name
        self._pending.pop(key, None)
        self._changed.add(key)

    def pend(self, jobs: Mapping[str, str]) -> None:
        """Pictures to fetch (again, on the next run, if this one ends first)."""
        self._pending.update(jobs)
        self._changed.update(jobs)

    def forget(self, key: str) -> tuple[dict[str, Any] | None, bool]:
        """Drops a wallpaper; gives its entry, and whether its picture was pending."""
        self._changed.add(key)
        return self._files.pop(key, None), self._pending.pop(key, None) is not None

    def save(self) -> None:
        if not self._write_whole and self._appended_bytes > max(self._whole_bytes, WHOLE_AT_LEAST):
            self._write_whole = True
        walk = (self.walk, self.sweeping, self.served)
        if self._write_whole:
            self._save_whole()
        elif self._changed or self.cursor != self._saved_cursor or walk != self._saved_walk:
            change = {
                "cursor": self.cursor,
                "files": {k: self._files.get(k) for k in self._changed},
                "pending": {k: self._pending.get(k) for k in self._changed},
                **({"walk": self.walk, "sweeping": self.sweeping, "served": self.served} if walk != self._saved_walk else {}),
            }
            line = (json.dumps(change, separators=(",", ":")) + "\n").encode()
            # Never through a link left by the manifest's name (a shared folder): ELOOP instead.
            with os.fdopen(os.open(self.folder / MANIFEST, os.O_WRONLY | os.O_APPEND | getattr(os, "O_NOFOLLOW", 0)), "ab") as out:
                out.write(line)
            self._appended_bytes += len(line)
        self._changed.clear()
        self._saved_cursor = self.cursor
        self._saved_walk = walk

    def _save_whole(self) -> None:
        """Written to a temporary file, then renamed over the old one: never half written."""
        self.folder.mkdir(parents=True, exist_ok=True)
        path = self.folder / MANIFEST
        temporary = path.with_name(path.name + ".tmp")
        walk = {"walk": self.walk, "sweeping": self.sweeping, "served": self.served} if self.walk else {}
        whole = {"version": 2, "filters": self.filters, "cursor": self.cursor, "files": self._files, "pending": self._pending, **walk}
        body = (json.dumps(whole, separators=(",", ":")) + "\n").encode()
        # Made anew, as a `.part` is: a link planted by the temporary's name had the manifest written
        # into whatever it pointed to, then renamed into place for every later save to append to
        # (helper-95). What a run cut short left by that name is its own, and goes first.
        temporary.unlink(missing_ok=True)
        with os.fdopen(os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), 0o644), "wb") as out:
            out.write(body)
        os.replace(temporary, path)
        self._whole_bytes, self._appended_bytes, self._write_whole = len(body), 0, False


# Filters the API compares in lower case (the contract's tags and exclude_tags).
_CASELESS = ("tags", "exclude_tags")


def _same_filters(saved: Any, asked: Mapping[str, Any]) -> bool:
    """The same filters, a list's values as a set, as the API reads them: `--category nature,space`
    after `space,nature`, `space,space` after `space`, or `--tags Forest` after `forest`, mirror
    the same wallpapers."""

    def unordered(filters: Any) -> Any:
        if not isinstance(filters, dict):
            return filters
        filters = as_read(filters)
        return {
            name: sorted({str(item).lower() if name in _CASELESS else str(item) for item in value}) if isinstance(value, list) else value
            for name, value in filters.items()
        }

    return bool(unordered(saved) == unordered(dict(asked)))


@dataclass
class _Saved:
    filters: Any
    cursor: str | None
    files: dict[str, dict[str, Any]]
    pending: dict[str, str]
    whole_bytes: int
    appended_bytes: int
    rewrite: bool
    """Written whole at the next save: a last save cut short, or an older version's manifest."""
    walk: int = 0
    sweeping: bool = False
    served: int = 0


def _read_manifest(path: Path) -> _Saved:
    """The manifest as this tool writes it, or SyncError saying how it is not: a file edited or
    damaged between runs must not name other files to fetch or delete, nor end in a traceback.
    Read as the whole manifest (version 1 was only that, written over several lines), then each
    change line in turn."""

    def damaged(why: str) -> SyncError:
        return SyncError(f"{path} is not a manifest this tool wrote ({why}); use --restart to mirror anew")

    try:
        text = path.read_text("utf-8")
        whole, end = json.JSONDecoder().raw_decode(text)
    except (OSError, UnicodeDecodeError, ValueError, RecursionError) as error:
        raise damaged(str(error) or type(error).__name__) from None
    if not isinstance(whole, dict):
        raise damaged("not an object")
    version = whole.get("version", 1)
    if version not in (1, 2):
        raise damaged(f"version {ascii(version)[:20]}, which this tool does not read")
    saved = _Saved(whole.get("filters"), None, {}, {}, end, 0, version != 2)
    _apply(saved, whole, damaged)
    rest = text[end:].lstrip("\n").split("\n") if text[end:].strip() else []
    if rest and not text.endswith("\n"):
        # The last save was cut short: as if it had not been made.
        rest.pop()
        saved.rewrite = True
    for number, line in enumerate(rest, start=2):
        # Every line counts towards writing the file whole again, blank ones too.
        saved.appended_bytes += len(line.encode()) + 1
        if not line:
            continue
        try:
            change = json.loads(line)
        except (ValueError, RecursionError) as error:
            raise damaged(f"line {number}: {str(error) or type(error).__name__}") from None
        if not isinstance(change, dict):
            raise damaged(f"line {number} is not an object")
        _apply(saved, change, damaged)
    return saved


def _apply(saved: _Saved, change: dict[str, Any], damaged: Callable[[str], SyncError]) -> None:
    """A line's cursor, files and pending over what the lines before it said; null drops an entry."""
    cursor, files, pending = change.get("cursor"), change.get("files", {}), change.get("pending", {})
    if cursor is not None and not isinstance(cursor, str):
        raise damaged("its cursor is not text")
    walk, sweeping, served = change.get("walk", saved.walk), change.get("sweeping", saved.sweeping), change.get("served", saved.served)
    if type(walk) is not int or walk < 0 or type(sweeping) is not bool or type(served) is not int or served < 0:
        raise damaged("its walk is not what the tool writes")
    saved.walk, saved.sweeping, saved.served = walk, sweeping, served
    if not isinstance(files, dict) or not isinstance(pending, dict):
        raise damaged("its files or pending are not objects")
    for key in [*files, *pending]:
        # As the tool writes an id: "008" would name 8.png under another key, and keep it for ever.
        if not (key.isascii() and key.isdigit() and len(key) <= 16 and is_wallpaper_id(int(key)) and str(int(key)) == key):
            raise damaged(f"{ascii(key)[:40]} is not a wallpaper id")
    if not all(entry is None or isinstance(entry, dict) for entry in files.values()) or not all(
        url is None or isinstance(url, str) for url in pending.values()
    ):
        raise damaged("an entry is not what the tool writes")
    saved.cursor = cursor
    for key, entry in files.items():
        if entry is None:
            saved.files.pop(key, None)
        else:
            saved.files[key] = entry
    for key, url in pending.items():
        if url is None:
            saved.pending.pop(key, None)
        else:
            saved.pending[key] = url


def own_picture(manifest: Manifest, folder: Path, key: str) -> Path | None:
    """This mirror's picture of a wallpaper: by the name its manifest gave it or, for one pending (a
    run cut short after writing it, before saving its name), the one by its id."""
    own = own_file(folder, int(key), manifest.files.get(key, {}).get("file"))
    return existing(folder, int(key)) if own is None and key in manifest.pending else own


def _checked(change: Any) -> ChangeItem:
    """A change as the contract gives it; the id is checked with the page (client._page)."""
    kind = change.get("change")
    if kind == "delete":
        return cast(ChangeItem, change)
    wallpaper = change.get("wallpaper")
    if kind != "upsert" or not isinstance(wallpaper, dict) or not all(isinstance(wallpaper.get(name), str) for name in ("url", "title", "category")):
        raise ApiError(
            200, "unexpected_response", f"The change feed gave a change that is neither an upsert with its wallpaper nor a delete (id {change.get('id')})"
        )
    return cast(ChangeItem, change)


@dataclass
class SyncReport:
    fetched: int = 0
    removed: int = 0
    unchanged: int = 0
    failed: list[str] = field(default_factory=list)
    kept: list[str] = field(default_factory=list)
    """Files by a picture's name the mirror did not make, left as they are instead of replaced."""
    changes: int = 0
    walked_again: str | None = None
    """Why the run walked the feed again from its start: the API's reason for its 410."""
    not_swept: bool = False
    """The walk again served nothing, so nothing was deleted as gone."""
    quota_spent: float | None = None
    """Seconds until the quota allows more, when the run stopped for it."""
    quota_message: str | None = None
    """The API's reason for the 429 that stopped the run (a spent quota; a refused key raises ApiError instead)."""


def sync(
    client: Client,
    folder: Path,
    filters: dict[str, Any],
    *,
    restart: bool = False,
    parallel: int = 4,
    page_size: int = PAGE,
    on_progress: Callable[[SyncReport], None] = lambda _r: None,
) -> SyncReport:
    with _alone_in(folder):
        return _sync(client, folder, as_read(filters), restart=restart, parallel=parallel, page_size=page_size, on_progress=on_progress)


def as_read(filters: Mapping[str, Any]) -> dict[str, Any]:
    """The filters as the API reads them: white space around a value is none of it. The API trims
    what it is sent, so `--tone "light "` (or a value read from a file with CRLF line ends) passed
    its check, and the mirror then compared each wallpaper with the untrimmed text, mirroring
    nothing (helper-147)."""

    def trimmed(value: Any) -> Any:
        if isinstance(value, str):
            return value.strip()
        if isinstance(value, (list, tuple)):
            return [trimmed(item) for item in value]
        return value

    return {name: trimmed(value) for name, value in filters.items()}


@contextmanager
def _alone_in(folder: Path) -> Iterator[None]:
    """One sync at a time in a folder. Two (a scheduled run that starts while a long first one
    goes on) would follow the feed from one cursor, fetch each picture twice, and each save its
    manifest over the other's lines, leaving pictures neither names, which later runs take for a
    user's. An advisory lock on the folder itself, held for the run and let go by the system however
    the run ends. It keeps runs on one machine apart: on a network folder (NFS, SMB), runs on two
    machines are not; where the system or the folder has no such locks (Windows), there is none."""
    try:
        import fcntl
    except ImportError:
        yield
        return
    folder.mkdir(parents=True, exist_ok=True)
    try:
        handle = os.open(folder, os.O_RDONLY)
    except OSError:
        # A folder one may write in but not read (a drop box) cannot be opened to lock: the run
        # goes on unlocked, as before there was a lock.
        yield
        return
    try:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise SyncBusy(f"another sync of {folder} is under way: nothing done") from None
        except OSError:
            # No locks there (ENOLCK, EOPNOTSUPP): unlocked, as where the system has none.
            pass
        yield
    finally:
        os.close(handle)


def _sync(
    client: Client,
    folder: Path,
    filters: dict[str, Any],
    *,
    restart: bool,
    parallel: int,
    page_size: int,
    on_progress: Callable[[SyncReport], None],
) -> SyncReport:
    manifest = Manifest.open(folder, filters, restart=restart)
    report = SyncReport()
    try:
        if manifest.cursor is None:
            check_filters(client, filters)
    except QuotaExhausted as spent:
        report.quota_spent, report.quota_message = spent.retry_after, spent.message
        return report
    # One client for the pictures of every page: a new one loads the system's certificates again.
    with picture_client() as http:
        return _follow(client, manifest, report, http, parallel=parallel, page_size=page_size, on_progress=on_progress)


# How often the pictures fetched so far are saved while a page is fetched.
SAVE_EVERY_S = 5.0


def _follow(
    client: Client,
    manifest: Manifest,
    report: SyncReport,
    http: httpx.Client,
    *,
    parallel: int,
    page_size: int,
    on_progress: Callable[[SyncReport], None],
) -> SyncReport:
    """Applies the feed page after page, then fetches what an earlier run left pending that the feed
    did not fetch again nor remove."""
    folder = manifest.folder
    # Listed once for the run: each page's fetch, and each removal, had listed the folder again.
    leftovers = Leftovers(folder)
    # Which hosts keep failing, for the whole run: each page had started trusting a down host again.
    unwell: dict[str, int] = {}
    # Each wallpaper's latest failure this run: one fetched or removed later in the run is no
    # failure ("tried again next run" had been said of a picture whose wallpaper the run deleted).
    failures: dict[str, str] = {}

    def failed(key: str, text: str | None) -> None:
        if text is None:
            failures.pop(key, None)
        else:
            failures[key] = text
        report.failed = list(failures.values())

    saved_at = time.monotonic()
    # What earlier runs left pending, and what this run has tried to fetch.
    carried = set(manifest.pending)
    tried: set[str] = set()

    def fetch(jobs: dict[str, str], replace: dict[str, str]) -> None:
        """Fetches each job; `replace` names the picture of this mirror's that each replaces."""
        tried.update(jobs)

        def done(result: Fetched | DownloadError) -> None:
            nonlocal saved_at
            key = str(result.wallpaper_id)
            if isinstance(result, Fetched):
                manifest.fetched(key, result.path.name)
                report.fetched += 0 if result.skipped else 1
                failed(key, None)
            else:
                manifest.pend({key: jobs[key]})
                failed(key, str(result))
            # What is fetched is saved as it comes, at most every few seconds (one appended line),
            # besides at the page's end: a run killed outright (SIGKILL, a power cut) part way
            # through a page of slow pictures loses only the last few seconds of them. The workers
            # call this one at a time while the run waits for them, so nothing else writes meanwhile.
            if time.monotonic() - saved_at >= SAVE_EVERY_S:
                manifest.save()
                saved_at = time.monotonic()
            on_progress(report)

        fetch_all(
            [(int(k), url) for k, url in jobs.items()],
            folder,
            parallel=parallel,
            replacing=lambda i: replace.get(str(i)),
            on_done=done,
            http=http,
            leftovers=leftovers,
            unwell=unwell,
        )

    def remove(key: str) -> None:
        # The picture by the name the manifest gave it: a user's 7.png beside the mirror's 7.jpg
        # stays. Or, pending, the one by its id, which a run cut short wrote before naming it: it had
        # been left for good, the manifest no longer knowing the wallpaper (helper-95).
        have = own_picture(manifest, folder, key)
        entry, was_pending = manifest.forget(key)
        failed(key, None)
        # Only a picture this mirror fetched is its to delete: a user's own 7.jpg is not, though the
        # feed deletes wallpaper 7.
        if entry is None and not was_pending:
            return
        if entry is not None:
            report.removed += 1
        if have is not None:
            have.unlink()
        for leftover in leftovers.of(int(key)):
            remove_leftover(leftover)

    def fetch_carried() -> None:
        # After the feed, not before: a wallpaper deleted since is removed from pending by the feed,
        # and one changed is fetched at its new address, where the pending retry first had fetched
        # them in vain (a picture host that no longer answers cost a minute before the first change
        # was read, helper-131). What this run tried already waits for the next run.
        left = {key: url for key, url in manifest.pending.items() if key in carried and key not in tried}
        if left:
            owned = {key: own.name for key in left if (own := own_picture(manifest, folder, key)) is not None}
            fetch(left, owned)
            manifest.save()
            on_progress(report)

    seen = Repeats(feed=True)
    try:
        try:
            while True:
                try:
                    page = client.changes.page(manifest.cursor, per_page=page_size, include=["dimensions", "tags", "colors"])
                except CursorExpired as expired:
                    # A walk from the start has no cursor to expire: a 410 to it is the API's fault.
                    if manifest.cursor is None:
                        raise
                    manifest.begin_again()
                    manifest.save()
                    report.walked_again, seen = expired.message, Repeats(feed=True)
                    continue
                following, more = feed_step(page, manifest.cursor, seen)
                jobs: dict[str, str] = {}
                replace: dict[str, str] = {}
                manifest.served += len(page["data"]) if manifest.sweeping else 0
                for change in page["data"]:
                    report.changes += 1
                    apply(_checked(change), manifest, jobs, replace, remove, report, folder)
                if jobs:
                    # Pending before they are fetched, saved: a run cut short mid-page left pictures the
                    # manifest did not name, which the next run would take for a user's own.
                    manifest.pend(jobs)
                    manifest.save()
                    fetch(jobs, replace)
                manifest.cursor = following
                if not more and manifest.sweeping:
                    # A catalogue is never empty (an import refuses to load nothing): a walk that served
                    # nothing is a feed that is not whole, not a snapshot, and deletes nothing.
                    if manifest.served == 0:
                        report.not_swept = True
                    else:
                        for key in confirmed_gone(client, manifest.unserved()):
                            remove(key)
                    manifest.sweeping = False
                manifest.save()
                on_progress(report)
                if not more:
                    break
        except QuotaExhausted as spent:
            manifest.save()
            report.quota_spent, report.quota_message = spent.retry_after, spent.message
        # Pictures are not the API's to count: what is pending is fetched though the quota stopped
        # the feed short, or a mirror whose every run spends the quota would never get them.
        fetch_carried()
        return report
    except BaseException:
        # A run stopped part way through a page (Ctrl-C, SIGTERM, a failure) keeps what it fetched:
        # the manifest had moved on only at a page's end, and the next run fetched the whole page
        # again, so a sync stopped on every run (`timeout` in a cron job) never got past that page
        # (helper-131). A folder that takes no more writes keeps what was saved before.
        with suppress(OSError):
            manifest.save()
        raise


def confirmed_gone(client: Client, keys: list[str]) -> list[str]:
    """Of the wallpapers a walk again did not serve, those the catalogue no longer holds, asked by id
    (100 a request). A walk up to the watermark is not the whole catalogue while a load is under way:
    a wallpaper it changes has left its old number and is not yet served under its new one, and the
    sweep had deleted 2,150 live pictures of 3,000 (helper-101)."""
    gone: list[str] = []
    for i in range(0, len(keys), 100):
        chunk = keys[i : i + 100]
        page = client.wallpapers.list(ids=[int(key) for key in chunk])
        missing = page["meta"].get("missing")
        if isinstance(missing, list):
            named = {str(wallpaper_id) for wallpaper_id in missing if is_wallpaper_id(wallpaper_id)}
        else:
            found = {str(item.get("id")) for item in page["data"]}
            named = {key for key in chunk if key not in found}
        gone.extend(key for key in chunk if key in named)
    return gone


def apply(
    change: ChangeItem,
    manifest: Manifest,
    jobs: dict[str, str],
    replace: dict[str, str],
    remove: Callable[[str], None],
    report: SyncReport,
    folder: Path,
) -> None:
    key = str(change["id"])
    wallpaper = change.get("wallpaper")
    if change["change"] == "delete" or wallpaper is None or not matches(wallpaper, manifest.filters):
        # Not fetched after all when an earlier change of the same page asked for it: it was kept
        # for ever, the feed never naming it again.
        jobs.pop(key, None)
        replace.pop(key, None)
        remove(key)
        return
    known = manifest.files.get(key)
    own = own_picture(manifest, folder, key)
    # A picture by that name that the mirror did not fetch (not in its manifest, nor pending) is not
    # its to replace: a user's own 7.jpg stays, and the run says so.
    if own is None and (other := existing(folder, change["id"])) is not None:
        report.kept.append(f"{other} is not this mirror's (not in its manifest): left as it is; move it away and run with --restart to fetch wallpaper {key}")
        return
    manifest.describe(key, wallpaper)
    if known is not None and known.get("url") == wallpaper["url"] and own is not None:
        report.unchanged += 1
        return
    jobs[key] = wallpaper["url"]
    if own is not None:
        replace[key] = own.name
