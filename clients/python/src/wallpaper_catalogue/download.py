"""Fetching pictures to a folder: parallel, resumable, checked.

A picture is written to ``<id>.<ext>.<pid>-<random>.part`` and renamed once whole, so a file
without ``.part`` is always complete, a run cut short resumes where it stopped, and two runs on one
folder each rename only what they wrote. What a run cut short left is removed by the next (its
process gone, or untouched for ten minutes). It must come as an image
(Content-Type ``image/*``), as stored or gzipped once (inflated a bounded step at a time: another
coding, or gzip twice, is refused), within ``max_bytes``, as long as its Content-Length says, and at
``MIN_RATE`` on average once ``timeout`` has passed. The extension comes from the Content-Type: one
of ``IMAGE_EXTENSIONS`` (``image/bmp``: ``bmp``), else ``img``. A server never names a path: a
file's name is a wallpaper id, a positive integer, and its extension, and only files so named are
taken for pictures, so a user's ``5.txt`` beside them is never skipped over nor deleted. A
``.part`` is made anew, never opened through a link someone left by that name.
"""

from __future__ import annotations

import os
import queue
import random
import re
import secrets
import threading
import time
import zlib
from collections.abc import Callable, Iterable
from contextlib import nullcontext
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

import httpx

try:
    import fcntl
except ImportError:  # Windows: no advisory locks; the pid and age rules alone
    fcntl = None  # type: ignore[assignment]

from .client import is_wallpaper_id
from .gunzip import Gunzip

EXTENSIONS = {"image/jpeg": "jpg", "image/png": "png", "image/webp": "webp", "image/gif": "gif", "image/avif": "avif", "image/svg+xml": "svg"}
MAX_BYTES = 64 * 1024 * 1024
# In a fixed order: which of two pictures of one id is found must not change from run to run.
IMAGE_EXTENSIONS = tuple(dict.fromkeys([*EXTENSIONS.values(), "bmp", "tiff", "heic", "heif", "jxl", "ico", "img"]))
# The slowest a picture may come on average, once the read timeout has passed: a server dripping a
# byte a second would otherwise hold a worker for as long as each read came within the timeout (64
# MiB at this rate is about 70 minutes; 100,000 bytes at a byte a second had taken 28 hours).
MIN_RATE = 16 * 1024
# A picture host's "not now" (a burst refused, a CDN node restarting, a connection dropped mid-body)
# is tried again in the run, after about 1 s and then 3 s (jittered, so parallel workers do not come
# back together), or after its Retry-After when that is at most RETRY_AFTER_MAX: a download had
# failed the picture and a sync left it to its next run. A refused connection, a timeout and any
# other answer are not: a host that is not there, or stalls, would cost each picture its retries.
RETRY_STATUSES = frozenset({429, 500, 502, 503, 504})
RETRY_DELAYS = (1.0, 3.0)
RETRY_AFTER_MAX = 30.0
DROPPED = (httpx.ReadError, httpx.WriteError, httpx.RemoteProtocolError)
# Once this many pictures of one host in a row have failed so after their retries, the rest of its
# pictures in the run are tried once: a host that is down had cost each picture its waits (300
# pictures behind a 503 with Retry-After: 30 about 37 minutes before exit 1, helper-133), a cron
# job's whole time. A picture of it that comes whole makes it well again.
UNWELL_AFTER = 3


class DownloadError(Exception):
    def __init__(self, wallpaper_id: int, message: str, *, retry_after: float | None = None) -> None:
        super().__init__(message)
        self.wallpaper_id = wallpaper_id
        # Set when the host said "not now" (RETRY_STATUSES): how long it asked to wait, 0 unsaid.
        self.retry_after = retry_after

    def __reduce__(self) -> tuple[type[DownloadError], tuple[int, str]]:
        # Pickled as its own arguments, so it crosses a process pool (errors.py's ApiError says why).
        return (DownloadError, (self.wallpaper_id, str(self)))


@dataclass(frozen=True)
class Fetched:
    wallpaper_id: int
    path: Path
    size: int
    skipped: bool


def extension_of(kind: str) -> str:
    """The file extension for a picture of this Content-Type (``image/...``)."""
    known = EXTENSIONS.get(kind)
    if known is not None:
        return known
    subtype = kind.removeprefix("image/").removeprefix("x-").split("+")[0]
    return subtype if subtype in IMAGE_EXTENSIONS else "img"


def _stem(wallpaper_id: int) -> str:
    """A picture's file name before its extension: the id, which must be a wallpaper's (a name
    from anything else could leave the folder, `../x`, or match other files, `*`)."""
    if not is_wallpaper_id(wallpaper_id):
        raise ValueError(f"not a wallpaper id: {ascii(wallpaper_id)[:80]}")
    return str(wallpaper_id)


def existing(folder: Path, wallpaper_id: int) -> Path | None:
    """The complete picture of this wallpaper in the folder, if one is there, whatever its type."""
    stem = _stem(wallpaper_id)
    for ext in IMAGE_EXTENSIONS:
        path = folder / f"{stem}.{ext}"
        if path.is_file():
            return path
    return None


def own_file(folder: Path, wallpaper_id: int, name: object) -> Path | None:
    """The picture a mirror recorded fetching (its manifest's file name), if it is still there and
    is named as a picture of this wallpaper is; None for any other name."""
    if not isinstance(name, str) or not any(name == f"{_stem(wallpaper_id)}.{ext}" for ext in IMAGE_EXTENSIONS):
        return None
    path = folder / name
    return path if path.is_file() else None


# A `.part` untouched this long is a run's that was cut short: a live download writes at least every
# read timeout (60 s by default) or gives up. A younger one is another run's, under way, unless the
# process its name gives is gone: the first run to finish had deleted the other's pictures under
# way (helper-95), and a rule of age alone left a killed run's for good (helper-98).
STALE_PART_SECONDS = 600
# `<id>.<ext>.<pid>-<random>.part`: whose it is, and a name of its own.
PART_NAME = re.compile(r"^([1-9][0-9]{0,15})\.[a-z0-9]+\.(?:([0-9]{1,10})-)?[0-9a-f]{8}\.part$")


# A `.part` is made, then locked: one younger than this whose lock nobody holds may be a run's
# between the two, not a killed run's, whatever its pid says (helper-112 had a run delete another's
# so, 2 rounds in 3).
LOCK_GRACE_SECONDS = 5


def _gone(pid: int) -> bool:
    """Whether no process of this machine has that pid (one of another machine's, on a shared
    folder, may be taken for gone: its picture then fails and is fetched again next run). Asked only
    of a ``.part`` whose lock nobody holds (_lock_state), and every one this process writes holds
    its lock: so this process's own pid is gone, as in a container every run is pid 1 and a killed
    run's ``.part`` had stayed until it was ten minutes old (helper-105). A pid no process can have
    (a name from elsewhere) is not taken for gone: the age rule decides."""
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    except (OSError, OverflowError):
        return False
    return False


def _locked_handle(fd: int) -> int | None:
    """A second handle on a ``.part`` being written, holding an advisory lock (flock) on it until it
    is closed, after the rename. A run of any pid namespace sees the lock: in containers every run
    is pid 1, so the pid alone took another container's download under way on a shared folder for a
    killed run's, and deleted it (helper-108)."""
    if fcntl is None:
        return None
    held = os.dup(fd)
    try:
        fcntl.flock(held, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        os.close(held)
        return None
    return held


def _lock_state(path: Path) -> bool | None:
    """Whether a run holds the ``.part``'s lock (_locked_handle), so writes it now: True or False;
    None when this cannot be told (the file cannot be opened, as another user's; the folder takes no
    locks, as NFS without lockd answers ENOLCK; Windows). A ``.part`` whose lock cannot be read is
    left to the age rule: taken for unlocked, another user's or this process's own downloads under
    way had been deleted (helper-112)."""
    if fcntl is None:
        return None
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOFOLLOW", 0))
    except OSError:
        return None
    try:
        fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
    except BlockingIOError:
        return True
    except OSError:
        return None
    finally:
        os.close(fd)
    return False


def _left_over(path: Path, stale: float) -> bool:
    named = PART_NAME.match(path.name)
    try:
        if not path.is_file():
            return False
        locked = _lock_state(path)
        if locked:
            return False
        made = path.lstat().st_mtime
        if locked is False and named is not None and named.group(2) is not None and made < time.time() - LOCK_GRACE_SECONDS and _gone(int(named.group(2))):
            return True
        return made < stale
    except OSError:
        return False


class Leftovers:
    """The ``.part`` files of a folder, listed once: what downloads cut short left, looked up by
    wallpaper. Listing the folder for each picture instead cost 67 ms a picture at 100,000
    pictures, so a download or first sync of N pictures read the folder N times, a cost that grows
    with the square of N (bench/results/leftovers.md). A run lists the folder when it starts; a
    ``.part`` made later is its own, or another run's under way, and is the next run's to find."""

    def __init__(self, folder: Path) -> None:
        self._by_id: dict[int, list[Path]] = {}
        try:
            entries = os.scandir(folder)
        except (FileNotFoundError, NotADirectoryError):
            return
        with entries:
            for entry in entries:
                # As ``<id>.*.part`` finds them: the id as this tool writes it, a dot, anything.
                stem, dot, rest = entry.name.partition(".")
                if dot and rest.endswith(".part") and stem.isascii() and stem.isdigit() and str(int(stem)) == stem and is_wallpaper_id(int(stem)):
                    self._by_id.setdefault(int(stem), []).append(folder / entry.name)

    def of(self, wallpaper_id: int) -> list[Path]:
        """This wallpaper's ``.part`` files whose process is gone, or untouched for
        STALE_PART_SECONDS (a younger one may be another run's)."""
        stale = time.time() - STALE_PART_SECONDS
        return [path for path in self._by_id.get(wallpaper_id, []) if _left_over(path, stale)]

    def sweep(self) -> int:
        """Removes what downloads cut short left, whatever their wallpaper: a run looks at the ids it
        fetches only, and a killed run's ``.part`` of a picture fetched since stayed for good. Only
        files named as this tool names them. Returns how many."""
        stale = time.time() - STALE_PART_SECONDS
        removed = 0
        for paths in self._by_id.values():
            for path in [p for p in paths if PART_NAME.match(p.name) and _left_over(p, stale)]:
                if remove_leftover(path):
                    paths.remove(path)
                    removed += 1
        return removed


def remove_leftover(path: Path) -> bool:
    """Removes a ``.part`` a download cut short left; one the folder will not let go (read-only, or
    another user's in a shared folder) stays for a later run. Raising here had ended a run on a
    read-only folder in a traceback before its first picture (helper-111), and reported a picture
    written whole as failed. Returns whether it is gone."""
    try:
        path.unlink(missing_ok=True)
    except OSError:
        return False
    return True


def unfinished(folder: Path, wallpaper_id: int) -> list[Path]:
    """What a download of this wallpaper cut short left in the folder (Leftovers.of)."""
    return Leftovers(folder).of(int(_stem(wallpaper_id)))


def sweep(folder: Path) -> int:
    """Removes what downloads cut short left in the folder (Leftovers.sweep)."""
    return Leftovers(folder).sweep()


class PartsUnderWay:
    """The ``.part`` files a run's workers are writing, which an interrupted run removes (another run
    on the folder may be writing its own). Once the run has taken them (`close`), no worker makes a
    new one: a worker that had not made its ``.part`` yet when the run stopped had made it after the
    run removed the rest, and the program, ending with its daemon workers, left it behind."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._parts: set[Path] = set()
        self._closed = False

    def make(self, part: Path) -> int | None:
        """Makes `part` anew, never through a link left by that name (a shared folder), and returns
        its descriptor; None after `close`, having made nothing."""
        with self._lock:
            if self._closed:
                return None
            fd = os.open(part, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), 0o644)
            self._parts.add(part)
            return fd

    def discard(self, part: Path) -> None:
        with self._lock:
            self._parts.discard(part)

    def close(self) -> list[Path]:
        """The ``.part`` files under way now, the last this run makes."""
        with self._lock:
            self._closed = True
            return list(self._parts)


def fetch_picture(
    http: httpx.Client,
    url: str,
    folder: Path,
    wallpaper_id: int,
    *,
    max_bytes: int = MAX_BYTES,
    replacing: str | None = None,
    stop: threading.Event | None = None,
    writing: PartsUnderWay | None = None,
    leftovers: Leftovers | None = None,
    retry_delays: tuple[float, ...] | None = None,
) -> Fetched:
    """Downloads one picture unless one of this wallpaper is there already; with `replacing` (the
    name of the picture fetched before, from a mirror's manifest), replaces that one, and no file
    of another's. `stop` ends it between chunks, its ``.part`` removed. `writing` holds the
    ``.part`` while it is written, for a caller that must remove it should the program end first.
    Every failure is a DownloadError naming the picture: one before the picture's first byte (a
    refused connection, a stalled server, a redirect loop) had reached the user as the bare
    "timed out". A "not now" is tried again (RETRY_STATUSES, DROPPED) after each of `retry_delays`
    (RETRY_DELAYS unless given), unless `stop` is set while it waits."""
    parts = PartsUnderWay() if writing is None else writing

    def attempt() -> Fetched:
        try:
            return _fetch_picture(http, url, folder, wallpaper_id, max_bytes, replacing, stop, parts, leftovers)
        except httpx.HTTPError as error:
            raise DownloadError(wallpaper_id, f"{url}: {error or type(error).__name__}") from error

    delays = iter(RETRY_DELAYS if retry_delays is None else retry_delays)
    while True:
        try:
            return attempt()
        except DownloadError as error:
            wait = _retry_wait(error, next(delays, None))
            if wait is None:
                raise
            if stop is None:
                time.sleep(wait)
            elif stop.wait(wait):
                raise


def said_not_now(error: DownloadError) -> bool:
    """Whether a picture failed on a "not now": an answer of RETRY_STATUSES, or a connection dropped."""
    return error.retry_after is not None or isinstance(error.__cause__, DROPPED)


def _retry_wait(error: DownloadError, delay: float | None) -> float | None:
    """How long to wait before trying a failed picture again, or None when it is not tried again."""
    if delay is None:
        return None
    if error.retry_after is not None:
        if error.retry_after > RETRY_AFTER_MAX:
            return None
        if error.retry_after > 0:
            return error.retry_after
    elif not said_not_now(error):
        return None
    return delay * random.uniform(0.75, 1.25)


def _fetch_picture(
    http: httpx.Client,
    url: str,
    folder: Path,
    wallpaper_id: int,
    max_bytes: int,
    replacing: str | None,
    stop: threading.Event | None,
    writing: PartsUnderWay,
    leftovers: Leftovers | None,
) -> Fetched:
    if replacing is None:
        have = existing(folder, wallpaper_id)
        if have is not None:
            return Fetched(wallpaper_id, have, have.stat().st_size, True)
    else:
        have = own_file(folder, wallpaper_id, replacing)
    started = time.monotonic()
    allowed = http.timeout.read or 60.0
    # The picture as stored is asked for; a server that gzips it anyway is read too. Inflated here,
    # a bounded step at a time: httpx inflates a whole chunk before it can be counted, and 1.8 KB
    # gzipped twice ("gzip, gzip") had held 2.1 GB.
    with http.stream("GET", url, headers={"Accept-Encoding": "identity"}) as response:
        if response.status_code != 200:
            raise DownloadError(wallpaper_id, f"{url}: HTTP {response.status_code}", retry_after=_asked_wait(response))
        kind = response.headers.get("Content-Type", "").split(";")[0].strip().lower()
        if not kind.startswith("image/"):
            raise DownloadError(wallpaper_id, f"{url}: not a picture (Content-Type {kind or 'none'})")
        coding = response.headers.get("Content-Encoding", "").strip().lower() or "identity"
        if coding not in ("identity", "gzip"):
            raise DownloadError(wallpaper_id, f"{url}: coded {coding!r}, which was not asked for")
        inflate = Gunzip() if coding == "gzip" else None
        # The length announced is the coded one: only a picture sent as stored is held to it.
        declared = None if inflate else response.headers.get("Content-Length")
        if declared is not None and not declared.strip().isdigit():
            raise DownloadError(wallpaper_id, f"{url}: a Content-Length of {declared!r}")
        if declared is not None and int(declared) > max_bytes:
            raise DownloadError(wallpaper_id, f"{url}: {declared} bytes, more than {max_bytes}")
        final = folder / f"{wallpaper_id}.{extension_of(kind)}"
        if final != have and final.exists():
            # A download finds it there when another run on the folder finished it since this one
            # looked: already there, as a second run finds it (it had failed every such picture).
            if replacing is None and final.is_file():
                return Fetched(wallpaper_id, final, final.stat().st_size, True)
            raise DownloadError(wallpaper_id, f"{final} is there already and was not fetched by this mirror: left as it is")
        # A name of its own: another run on the same folder writes its own, and each renames only
        # what it wrote (one had renamed the other's half picture into place).
        part = final.with_name(f"{final.name}.{os.getpid()}-{secrets.token_hex(4)}.part")
        held: list[int] = []
        try:
            size = _write_part(response, part, writing, held, wallpaper_id, url, max_bytes, inflate, stop, started, allowed)
            if declared is not None and size != int(declared):
                _drop(part, writing)
                raise DownloadError(wallpaper_id, f"{url}: {size} bytes of the {declared} announced")
            if have is not None and have != final:
                have.unlink(missing_ok=True)
            try:
                os.replace(part, final)
            except OSError as error:
                # Something else by that name (a folder called 5.jpg): no picture, and no .part left behind.
                _drop(part, writing)
                raise DownloadError(wallpaper_id, f"{final}: {error.strerror or error}") from error
            writing.discard(part)
        finally:
            for fd in held:
                os.close(fd)
        # A download cut short before, while the picture came as another type, is done with too.
        for leftover in unfinished(folder, wallpaper_id) if leftovers is None else leftovers.of(wallpaper_id):
            remove_leftover(leftover)
        return Fetched(wallpaper_id, final, size, False)


def _asked_wait(response: httpx.Response) -> float | None:
    """For an answer that means "not now", how long it asks to wait in seconds (0 when it does not
    say, or says it as a date); None for any other answer."""
    if response.status_code not in RETRY_STATUSES:
        return None
    said = response.headers.get("Retry-After", "").strip()
    # ASCII digits only: str.isdigit() also takes "²", which float() refuses.
    return float(said) if said.isascii() and said.isdigit() else 0.0


def _write_part(
    response: httpx.Response,
    part: Path,
    writing: PartsUnderWay,
    held: list[int],
    wallpaper_id: int,
    url: str,
    max_bytes: int,
    inflate: Gunzip | None,
    stop: threading.Event | None,
    started: float,
    allowed: float,
) -> int:
    """Writes the picture's body to `part`, made anew, and returns its size; its lock's handle goes
    into `held`, for the caller to close once the ``.part`` is renamed or gone. Any failure removes
    the ``.part`` and is a DownloadError."""
    size = 0
    # Made before the try whose failures remove the .part: a name this run did not make (the run
    # over, or O_EXCL finding another's file by that name) is not this run's to remove.
    try:
        fd = writing.make(part)
    except OSError as error:
        raise DownloadError(wallpaper_id, f"{url}: {error}") from error
    if fd is None:
        raise DownloadError(wallpaper_id, f"{url}: interrupted")
    try:
        lock = _locked_handle(fd)
        if lock is not None:
            held.append(lock)
        with os.fdopen(fd, "wb") as out:
            received = 0
            for raw in response.iter_raw():
                if stop is not None and stop.is_set():
                    raise DownloadError(wallpaper_id, f"{url}: interrupted")
                # Counted as it comes too: gzip that inflates to nothing (empty blocks) grows no picture.
                received += len(raw)
                if received > max_bytes:
                    raise DownloadError(wallpaper_id, f"{url}: more than {max_bytes} bytes")
                elapsed = time.monotonic() - started
                if elapsed > allowed and received < MIN_RATE * elapsed:
                    raise DownloadError(wallpaper_id, f"{url}: {received} bytes in {elapsed:.0f} s, slower than {MIN_RATE} bytes a second")
                for chunk in [raw] if inflate is None else inflate.pieces(raw, max_bytes + 1 - size):
                    size += len(chunk)
                    if size > max_bytes:
                        raise DownloadError(wallpaper_id, f"{url}: more than {max_bytes} bytes")
                    out.write(chunk)
            if inflate is not None:
                inflate.finish()
    except zlib.error:
        _drop(part, writing)
        raise DownloadError(wallpaper_id, f"{url}: its gzip coding is broken") from None
    except BaseException as error:
        _drop(part, writing)
        if isinstance(error, (httpx.HTTPError, OSError)):
            raise DownloadError(wallpaper_id, f"{url}: {error}") from error
        raise
    return size


def _drop(part: Path, writing: PartsUnderWay) -> None:
    """Lets go of a ``.part`` that will not become a picture. One that cannot be removed is left (a
    read-only folder answers EROFS even for a file it never made): raising here had replaced the
    error that says why, and the run could not tell a folder that takes no file (helper-108)."""
    writing.discard(part)
    try:
        part.unlink(missing_ok=True)
    except OSError:
        pass


def picture_client(timeout: float = 60.0, transport: httpx.BaseTransport | None = None) -> httpx.Client:
    return httpx.Client(timeout=timeout, follow_redirects=True, transport=transport)


def fetch_all(
    jobs: Iterable[tuple[int, str]],
    folder: Path,
    *,
    parallel: int = 4,
    replacing: Callable[[int], str | None] = lambda _id: None,
    on_done: Callable[[Fetched | DownloadError], None] = lambda _r: None,
    timeout: float = 60.0,
    transport: httpx.BaseTransport | None = None,
    http: httpx.Client | None = None,
    leftovers: Leftovers | None = None,
    unwell: dict[str, int] | None = None,
) -> tuple[list[Fetched], list[DownloadError]]:
    """Downloads each (id, url) with `parallel` at once, starting as the jobs come (a listing still
    being read); every outcome reaches `on_done`, one at a time.

    Interrupted (Ctrl-C), it returns at once with KeyboardInterrupt: pictures not started are
    dropped, those under way end at their next chunk, and what they wrote so far is removed. The
    workers are daemon threads, so one held by a stalled server never holds the program (a pool
    that is joined would wait for it, at exit too).

    `http`, when given, fetches the pictures and is left open: a caller that fetches page after
    page (a sync) keeps one, as a new client loads the system's certificates again (50 ms).

    `unwell`, per host, how many of its pictures in a row failed on a "not now" after their
    retries: a caller that fetches page after page (a sync) keeps one for its run, so a host found
    down on one page has its pictures tried once on the next ones too, not retried afresh on each
    (a sync of 100 pages had taken hours against a host answering 503)."""
    folder.mkdir(parents=True, exist_ok=True)
    leftovers = Leftovers(folder) if leftovers is None else leftovers
    leftovers.sweep()
    done: list[Fetched] = []
    failed: list[DownloadError] = []
    stop = threading.Event()
    report = threading.Lock()
    work: queue.Queue[tuple[int, str] | None] = queue.Queue(maxsize=parallel)
    started: set[int] = set()
    finished: set[int] = set()
    writing = PartsUnderWay()
    # What ended a worker other than its pictures (on_done raising: a progress line written to a
    # reader that stopped reading). The listing and the join look for it: they had waited for ever
    # on workers that were gone, holding a sync's folder lock with them.
    fatal: list[BaseException] = []
    # Per host, how many of its pictures in a row failed on a "not now" after their retries (UNWELL_AFTER).
    unwell = {} if unwell is None else unwell

    def put(job: tuple[int, str] | None) -> None:
        while True:
            if fatal:
                raise fatal[0]
            try:
                work.put(job, timeout=0.2)
                return
            except queue.Full:
                continue

    with picture_client(timeout, transport) if http is None else nullcontext(http) as http:

        def worker() -> None:
            try:
                fetch_each()
            except BaseException as error:
                fatal.append(error)
                stop.set()

        def fetch_each() -> None:
            while (job := work.get()) is not None:
                wallpaper_id, url = job
                host = urlsplit(url).netloc
                result: Fetched | DownloadError
                try:
                    result = fetch_picture(
                        http,
                        url,
                        folder,
                        wallpaper_id,
                        replacing=replacing(wallpaper_id),
                        stop=stop,
                        writing=writing,
                        leftovers=leftovers,
                        retry_delays=() if unwell.get(host, 0) >= UNWELL_AFTER else None,
                    )
                except DownloadError as error:
                    result = error
                # Whatever else one picture raises is that picture's failure: a worker that died
                # would leave the listing waiting for it for ever.
                except Exception as error:
                    result = DownloadError(wallpaper_id, f"{url}: {error}")
                with report:
                    if stop.is_set():
                        return
                    finished.add(wallpaper_id)
                    if isinstance(result, Fetched):
                        done.append(result)
                        if not result.skipped:
                            unwell[host] = 0
                    else:
                        failed.append(result)
                        if said_not_now(result):
                            unwell[host] = unwell.get(host, 0) + 1
                    on_done(result)

        workers = [threading.Thread(target=worker, daemon=True) for _ in range(parallel)]
        for thread in workers:
            thread.start()
        try:
            for wallpaper_id, url in jobs:
                # An id listed twice is fetched once: two workers on one .part would rename a half
                # of it into place.
                if wallpaper_id in started:
                    continue
                started.add(wallpaper_id)
                put((wallpaper_id, url))
            for _ in workers:
                put(None)
            for thread in workers:
                while thread.is_alive() and not fatal:
                    thread.join(0.2)
            if fatal:
                raise fatal[0]
        except BaseException:
            with report:
                stop.set()
            for leftover in writing.close():
                remove_leftover(leftover)
            raise
    return done, failed
