"""When pictures are fetched from servers that answer oddly, then the folder holds whole pictures only, under names the client chose."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import httpx
import pytest

import os
import threading
import time

from wallpaper_catalogue import download
from wallpaper_catalogue.download import LOCK_GRACE_SECONDS, STALE_PART_SECONDS, DownloadError, PartsUnderWay, existing, fetch_all, fetch_picture, unfinished

PICTURE = b"BM" + b"\x00" * 998


class Chunks(httpx.SyncByteStream):
    def __init__(self, chunks: Callable[[], Iterator[bytes]]) -> None:
        self.chunks = chunks

    def __iter__(self) -> Iterator[bytes]:
        yield from self.chunks()


def serving(content_type: str, body: bytes = PICTURE, *, cut_after: int | None = None) -> httpx.Client:
    def answer(_request: httpx.Request) -> httpx.Response:
        def chunks() -> Iterator[bytes]:
            yield body[: cut_after if cut_after is not None else len(body)]
            if cut_after is not None:
                raise httpx.RemoteProtocolError("peer closed connection without sending complete message body")

        return httpx.Response(200, headers={"Content-Type": content_type, "Content-Length": str(len(body))}, stream=Chunks(chunks))

    return httpx.Client(transport=httpx.MockTransport(answer))


def test_when_a_picture_comes_as_a_type_without_a_known_extension_then_its_subtype_names_it_and_it_is_found_again(tmp_path: Path) -> None:
    with serving("image/bmp") as http:
        fetched = fetch_picture(http, "http://pictures.test/720", tmp_path, 720)
    assert fetched.path == tmp_path / "720.bmp"
    assert existing(tmp_path, 720) == tmp_path / "720.bmp"
    with serving("image/bmp") as http:
        assert fetch_picture(http, "http://pictures.test/720", tmp_path, 720).skipped


@pytest.mark.parametrize("content_type", ["image/x-../../evil", "image/..", "image/a b", "image/" + "x" * 40, "image/part", "image/txt"])
def test_when_the_type_is_not_a_plain_word_then_the_file_is_named_img_and_stays_in_the_folder(tmp_path: Path, content_type: str) -> None:
    folder = tmp_path / "mirror"
    folder.mkdir()
    with serving(content_type) as http:
        fetched = fetch_picture(http, "http://pictures.test/9", folder, 9)
    assert fetched.path == folder / "9.img"
    assert sorted(p.name for p in tmp_path.rglob("*")) == ["9.img", "mirror"]


def test_when_the_run_has_taken_its_parts_then_a_worker_that_had_not_made_its_part_yet_makes_none(tmp_path: Path) -> None:
    # The interrupted run removes the .part files under way and ends; a worker that asked for its
    # picture just before had made its .part after that, and the ending program left it (CI, SIGHUP).
    writing = PartsUnderWay()
    assert writing.close() == []
    with serving("image/png") as http, pytest.raises(DownloadError, match="interrupted"):
        fetch_picture(http, "http://pictures.test/4", tmp_path, 4, writing=writing)
    assert list(tmp_path.iterdir()) == []


def test_when_the_run_takes_its_parts_then_it_gets_each_made_and_not_yet_renamed(tmp_path: Path) -> None:
    writing = PartsUnderWay()
    made, renamed = tmp_path / "1.png.1-aaaaaaaa.part", tmp_path / "2.png.1-bbbbbbbb.part"
    for part in (made, renamed):
        fd = writing.make(part)
        assert fd is not None
        os.close(fd)
    writing.discard(renamed)
    assert writing.close() == [made]
    assert writing.make(tmp_path / "3.png.1-cccccccc.part") is None
    assert not (tmp_path / "3.png.1-cccccccc.part").exists()


def test_when_the_server_hangs_up_mid_picture_then_no_part_is_left_and_the_error_names_the_picture(tmp_path: Path) -> None:
    with serving("image/jpeg", cut_after=500) as http, pytest.raises(DownloadError) as refused:
        fetch_picture(http, "http://pictures.test/398", tmp_path, 398)
    assert refused.value.wallpaper_id == 398
    assert "http://pictures.test/398" in str(refused.value)
    assert list(tmp_path.iterdir()) == []


def aged(path: Path, seconds: float = STALE_PART_SECONDS + 60) -> Path:
    """A file last written `seconds` ago."""
    then = time.time() - seconds
    os.utime(path, (then, then))
    return path


def test_when_a_run_was_cut_short_then_its_unfinished_files_are_found_and_never_taken_for_pictures(tmp_path: Path) -> None:
    (tmp_path / "5.jpg.a1b2.part").write_bytes(b"half")
    aged(tmp_path / "5.jpg.a1b2.part")
    (tmp_path / "55.jpg").write_bytes(b"other")
    assert existing(tmp_path, 5) is None
    assert unfinished(tmp_path, 5) == [tmp_path / "5.jpg.a1b2.part"]


def test_when_another_run_is_writing_a_picture_then_its_part_is_not_taken_for_a_leftover(tmp_path: Path) -> None:
    (tmp_path / "5.jpg.c3d4.part").write_bytes(b"being written")
    (tmp_path / f"5.png.{os.getppid()}-0123abcd.part").write_bytes(b"a live process's")
    assert unfinished(tmp_path, 5) == []


def stalling(writing: threading.Event, release: threading.Event) -> Callable[[httpx.Request], httpx.Response]:
    """A picture server that sends a first chunk, sets `writing`, and sends the rest once `release` is set."""

    def answer(_request: httpx.Request) -> httpx.Response:
        def chunks() -> Iterator[bytes]:
            yield b"\x00" * 10
            writing.set()
            release.wait(30)
            yield b"\x00" * 10

        return httpx.Response(200, headers={"Content-Type": "image/bmp"}, stream=Chunks(chunks))

    return answer


def test_when_a_part_has_this_process_pid_then_it_is_a_leftover_unless_this_process_is_writing_it(tmp_path: Path) -> None:
    # In a container every run is pid 1: a killed run's .part carries the pid of the run after it.
    killed = tmp_path / f"5.gif.{os.getpid()}-0123abcd.part"
    killed.write_bytes(b"a killed run's, with this pid")
    aged(killed, LOCK_GRACE_SECONDS + 5)
    writing = threading.Event()
    release = threading.Event()

    with httpx.Client(transport=httpx.MockTransport(stalling(writing, release))) as http:
        worker = threading.Thread(target=fetch_picture, args=(http, "http://pictures.test/5", tmp_path, 5))
        worker.start()
        try:
            assert writing.wait(5)
            being_written = [p for p in tmp_path.iterdir() if p.name.startswith("5.bmp.")]
            assert [p.name.split(".")[2].split("-")[0] for p in being_written] == [str(os.getpid())]
            assert unfinished(tmp_path, 5) == [killed]
        finally:
            release.set()
            worker.join(5)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["5.bmp"]


def test_when_another_run_finishes_the_picture_while_this_one_asks_for_it_then_it_is_already_there(tmp_path: Path) -> None:
    # Two downloads on one folder: the one that finished second had failed every picture, "there
    # already and not fetched by this mirror" (helper-107).
    def answer(_request: httpx.Request) -> httpx.Response:
        (tmp_path / "5.jpg").write_bytes(b"the other run's")
        return httpx.Response(200, headers={"Content-Type": "image/jpeg"}, content=b"this run's")

    with httpx.Client(transport=httpx.MockTransport(answer)) as http:
        fetched = fetch_picture(http, "http://pictures.test/5", tmp_path, 5)
    assert (fetched.path, fetched.skipped) == (tmp_path / "5.jpg", True)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["5.jpg"]
    assert (tmp_path / "5.jpg").read_bytes() == b"the other run's"


def test_when_another_run_holds_a_part_s_lock_then_it_is_not_a_leftover_whatever_pid_it_names(tmp_path: Path) -> None:
    # Two containers on one folder are both pid 1: the pid alone had taken the other's download
    # under way for a killed run's and deleted it (helper-108).
    import fcntl

    under_way = tmp_path / f"5.jpg.{os.getpid()}-0123abcd.part"
    under_way.write_bytes(b"another container's, with this pid")
    gone = tmp_path / f"5.png.{dead_pid()}-4567cdef.part"
    gone.write_bytes(b"another container's, a pid this one lacks")
    handles = [os.open(path, os.O_RDONLY) for path in (under_way, gone)]
    try:
        for handle in handles:
            fcntl.flock(handle, fcntl.LOCK_EX)
        assert unfinished(tmp_path, 5) == []
    finally:
        for handle in handles:
            os.close(handle)
    for path in (under_way, gone):
        aged(path, LOCK_GRACE_SECONDS + 5)
    assert sorted(unfinished(tmp_path, 5)) == sorted([under_way, gone])


def dead_pid() -> int:
    import subprocess

    ended = subprocess.Popen(["true"])
    ended.wait()
    return ended.pid


def test_when_a_part_was_made_moments_ago_and_is_not_locked_yet_then_it_is_not_a_leftover_whatever_pid_it_names(tmp_path: Path) -> None:
    # A .part is made, then locked: another run (pid 1 in its container, as this one) that looked
    # between the two had deleted it (helper-112: 2 rounds in 3).
    just_made = tmp_path / f"5.jpg.{os.getpid()}-0123abcd.part"
    just_made.write_bytes(b"")
    other = tmp_path / f"5.png.{dead_pid()}-4567cdef.part"
    other.write_bytes(b"")
    assert unfinished(tmp_path, 5) == []
    aged(just_made, LOCK_GRACE_SECONDS + 5)
    aged(other, LOCK_GRACE_SECONDS + 5)
    assert sorted(unfinished(tmp_path, 5)) == sorted([just_made, other])


def test_when_a_part_s_lock_cannot_be_read_then_the_age_rule_alone_decides(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # Another user's .part (cannot be opened) or a folder without locks (NFS without lockd: ENOLCK):
    # taken for unlocked, another user's and this process's own downloads under way were deleted
    # (helper-112).
    import errno
    import fcntl

    own = tmp_path / f"5.jpg.{os.getpid()}-0123abcd.part"
    own.write_bytes(b"")
    aged(own, LOCK_GRACE_SECONDS + 5)
    gone = tmp_path / f"5.png.{dead_pid()}-4567cdef.part"
    gone.write_bytes(b"")
    aged(gone, LOCK_GRACE_SECONDS + 5)

    def no_locks(_fd: int, _operation: int) -> None:
        raise OSError(errno.ENOLCK, "No locks available")

    with monkeypatch.context() as patched:
        patched.setattr(fcntl, "flock", no_locks)
        assert unfinished(tmp_path, 5) == []
        aged(own)
        aged(gone)
        assert sorted(unfinished(tmp_path, 5)) == sorted([own, gone])

    unreadable = tmp_path / f"6.jpg.{dead_pid()}-89abcdef.part"
    unreadable.write_bytes(b"")
    aged(unreadable, LOCK_GRACE_SECONDS + 5)
    real_open = os.open

    def refused(path: object, *args: object, **kwargs: object) -> int:
        if str(path) == str(unreadable):
            raise PermissionError(errno.EACCES, "Permission denied")
        return real_open(path, *args, **kwargs)  # type: ignore[arg-type]

    with monkeypatch.context() as patched:
        patched.setattr(os, "open", refused)
        assert unfinished(tmp_path, 6) == []


def test_when_a_part_names_a_pid_no_process_can_have_then_downloads_go_on_and_the_age_rule_decides(tmp_path: Path) -> None:
    # os.kill raised OverflowError past 2**31: every download and sync of the folder ended in a
    # traceback until the file was removed by hand (helper-112).
    odd = tmp_path / "5.jpg.9999999999-deadbeef.part"
    odd.write_bytes(b"")
    aged(odd, LOCK_GRACE_SECONDS + 5)
    assert unfinished(tmp_path, 5) == []
    with serving("image/jpeg") as http:
        fetch_all([(7, "http://pictures.test/7")], tmp_path, http=http)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["5.jpg.9999999999-deadbeef.part", "7.jpg"]
    aged(odd)
    assert unfinished(tmp_path, 5) == [odd]


def test_when_a_run_was_killed_seconds_ago_then_its_part_is_a_leftover_by_its_process_and_a_run_sweeps_them_all(tmp_path: Path) -> None:
    killed = tmp_path / f"5.jpg.{dead_pid()}-0123abcd.part"
    killed.write_bytes(b"half")
    aged(killed, LOCK_GRACE_SECONDS + 5)
    assert unfinished(tmp_path, 5) == [killed]
    # Of a wallpaper this run does not fetch: swept all the same, and nothing of the user's.
    other = tmp_path / f"73.jpg.{dead_pid()}-4567cdef.part"
    other.write_bytes(b"half")
    aged(other, LOCK_GRACE_SECONDS + 5)
    (tmp_path / "notes.part").write_text("mine")
    (tmp_path / "8.txt").write_text("mine")
    with serving("image/jpeg") as http:
        fetch_all([(5, "http://pictures.test/5")], tmp_path, http=http)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["5.jpg", "8.txt", "notes.part"]


def test_when_the_folder_holds_other_files_of_the_same_id_then_they_are_never_taken_for_the_picture(tmp_path: Path) -> None:
    (tmp_path / "5.txt").write_text("my notes")
    (tmp_path / "5.json").write_text("{}")
    assert existing(tmp_path, 5) is None
    with serving("image/jpeg") as http:
        assert not fetch_picture(http, "http://pictures.test/5", tmp_path, 5).skipped
    assert (tmp_path / "5.txt").read_text() == "my notes"


def test_when_a_picture_comes_whole_then_an_unfinished_one_of_another_type_is_removed_and_another_run_s_stays(tmp_path: Path) -> None:
    (tmp_path / "5.png.0000.part").write_bytes(b"half")
    aged(tmp_path / "5.png.0000.part")
    # Another run on the folder, writing: deleting it had failed that run's picture (helper-95).
    (tmp_path / "5.webp.1111.part").write_bytes(b"under way")
    with serving("image/jpeg") as http:
        fetch_picture(http, "http://pictures.test/5", tmp_path, 5)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["5.jpg", "5.webp.1111.part"]


def test_when_a_picture_fails_before_its_first_byte_then_the_error_names_it(tmp_path: Path) -> None:
    for failure in (
        httpx.ConnectError("[Errno 111] Connection refused"),
        httpx.ReadTimeout("timed out"),
        httpx.TooManyRedirects("Exceeded maximum allowed redirects."),
    ):

        def refuse(_request: httpx.Request, failure: Exception = failure) -> httpx.Response:
            raise failure

        with httpx.Client(transport=httpx.MockTransport(refuse)) as http, pytest.raises(DownloadError) as refused:
            fetch_picture(http, "http://pictures.test/41", tmp_path, 41)
        assert refused.value.wallpaper_id == 41
        assert str(refused.value).startswith("http://pictures.test/41: "), str(refused.value)


def test_when_reporting_a_picture_fails_then_the_run_ends_with_that_error_instead_of_waiting_for_ever(tmp_path: Path) -> None:
    # What a progress line written to a reader that stopped reading raises, from a worker: the
    # listing had waited for ever for workers that were gone.
    def broken(_result: object) -> None:
        raise BrokenPipeError(32, "Broken pipe")

    outcome: list[BaseException] = []

    def run() -> None:
        try:
            with serving("image/jpeg") as http:
                fetch_all(((i, f"http://pictures.test/{i}") for i in range(1, 61)), tmp_path, parallel=2, on_done=broken, http=http)
        except BaseException as error:
            outcome.append(error)

    runner = threading.Thread(target=run, daemon=True)
    runner.start()
    runner.join(20)
    assert not runner.is_alive(), "the run waited for ever"
    assert [type(error) for error in outcome] == [BrokenPipeError]


def test_when_a_server_sends_the_picture_compressed_anyway_then_it_is_taken_at_its_decoded_length(tmp_path: Path) -> None:
    import gzip

    asked: list[str] = []

    def answer(request: httpx.Request) -> httpx.Response:
        asked.append(request.headers.get("Accept-Encoding", ""))
        packed = gzip.compress(PICTURE)
        headers = {"Content-Type": "image/bmp", "Content-Encoding": "gzip", "Content-Length": str(len(packed))}
        return httpx.Response(200, headers=headers, stream=Chunks(lambda: iter([packed[:20], packed[20:]])))

    with httpx.Client(transport=httpx.MockTransport(answer)) as http:
        fetched = fetch_picture(http, "http://pictures.test/11", tmp_path, 11)
    assert asked == ["identity"]
    assert fetched.path.read_bytes() == PICTURE


def test_when_a_folder_has_the_picture_s_name_then_the_picture_fails_by_name_and_no_part_is_left(tmp_path: Path) -> None:
    (tmp_path / "5.jpg").mkdir()
    with serving("image/jpeg") as http, pytest.raises(DownloadError) as refused:
        fetch_picture(http, "http://pictures.test/5", tmp_path, 5)
    assert str(tmp_path / "5.jpg") in str(refused.value)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["5.jpg"]


def test_when_a_run_is_interrupted_then_pictures_not_started_are_dropped_and_the_one_under_way_ends_at_its_next_chunk(tmp_path: Path) -> None:
    import threading

    from wallpaper_catalogue.download import fetch_all

    started = threading.Event()
    served: list[str] = []

    def answer(request: httpx.Request) -> httpx.Response:
        served.append(str(request.url))

        def chunks() -> Iterator[bytes]:
            started.set()
            for _ in range(200):
                yield b"\x00" * 10
                threading.Event().wait(0.01)

        return httpx.Response(200, headers={"Content-Type": "image/bmp"}, stream=Chunks(chunks))

    def jobs() -> Iterator[tuple[int, str]]:
        for wallpaper_id in range(1, 50):
            if wallpaper_id == 3:
                started.wait(5)
                raise KeyboardInterrupt
            yield wallpaper_id, f"http://pictures.test/{wallpaper_id}"

    with pytest.raises(KeyboardInterrupt):
        fetch_all(jobs(), tmp_path, parallel=1, transport=httpx.MockTransport(answer))
    assert len(served) <= 2
    assert list(tmp_path.iterdir()) == []


def test_when_a_run_is_interrupted_while_a_picture_stalls_then_it_returns_at_once_and_leaves_no_part(tmp_path: Path) -> None:
    import threading
    import time

    from wallpaper_catalogue.download import fetch_all

    writing = threading.Event()
    release = threading.Event()

    def jobs() -> Iterator[tuple[int, str]]:
        yield 1, "http://pictures.test/1"
        writing.wait(5)
        raise KeyboardInterrupt

    started = time.monotonic()
    try:
        with pytest.raises(KeyboardInterrupt):
            fetch_all(jobs(), tmp_path, parallel=2, transport=httpx.MockTransport(stalling(writing, release)))
        assert time.monotonic() - started < 2
        assert list(tmp_path.iterdir()) == []
    finally:
        release.set()


def test_when_a_picture_is_gzipped_twice_or_in_another_coding_then_it_is_refused_before_it_is_inflated(tmp_path: Path) -> None:
    import gzip

    for coding, body in (("gzip, gzip", gzip.compress(gzip.compress(PICTURE))), ("br", b"\x00" * 10)):

        def answer(_request: httpx.Request, coding: str = coding, body: bytes = body) -> httpx.Response:
            return httpx.Response(200, headers={"Content-Type": "image/bmp", "Content-Encoding": coding}, stream=Chunks(lambda: iter([body])))

        with httpx.Client(transport=httpx.MockTransport(answer)) as http, pytest.raises(DownloadError) as refused:
            fetch_picture(http, "http://pictures.test/12", tmp_path, 12)
        assert "which was not asked for" in str(refused.value)
    assert list(tmp_path.iterdir()) == []


def test_when_a_gzipped_picture_inflates_past_the_bound_then_it_is_refused_before_it_is_held_whole(tmp_path: Path) -> None:
    import gzip
    import tracemalloc

    bomb = gzip.compress(b"\x00" * (64 * 1024 * 1024))

    def answer(_request: httpx.Request) -> httpx.Response:
        return httpx.Response(200, headers={"Content-Type": "image/bmp", "Content-Encoding": "gzip"}, stream=Chunks(lambda: iter([bomb])))

    tracemalloc.start()
    with httpx.Client(transport=httpx.MockTransport(answer)) as http, pytest.raises(DownloadError) as refused:
        fetch_picture(http, "http://pictures.test/13", tmp_path, 13, max_bytes=1024 * 1024)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert "more than 1048576 bytes" in str(refused.value)
    assert peak < 8 * 1024 * 1024
    assert list(tmp_path.iterdir()) == []


def test_when_a_picture_drips_slower_than_the_least_rate_past_the_timeout_then_it_is_abandoned(tmp_path: Path) -> None:
    import time

    def drip() -> Iterator[bytes]:
        for _ in range(40):
            time.sleep(0.025)
            yield b"\x00"

    def answer(_request: httpx.Request) -> httpx.Response:
        return httpx.Response(200, headers={"Content-Type": "image/bmp", "Content-Length": "40"}, stream=Chunks(drip))

    started = time.monotonic()
    with httpx.Client(transport=httpx.MockTransport(answer), timeout=0.2) as http, pytest.raises(DownloadError) as refused:
        fetch_picture(http, "http://pictures.test/14", tmp_path, 14)
    assert "slower than" in str(refused.value)
    assert time.monotonic() - started < 0.6
    assert list(tmp_path.iterdir()) == []


def test_when_a_part_file_is_a_link_then_the_picture_is_written_beside_it_and_what_it_points_to_is_untouched(tmp_path: Path) -> None:
    folder = tmp_path / "mirror"
    folder.mkdir()
    victim = tmp_path / "victim.txt"
    victim.write_text("keep me")
    (folder / "9.png.part").symlink_to(victim)
    with serving("image/png") as http:
        fetched = fetch_picture(http, "http://pictures.test/9", folder, 9)
    assert victim.read_text() == "keep me"
    assert fetched.path.read_bytes() == PICTURE
    # Not a leftover of this tool's (one is a file, untouched for a while): left to whoever made it.
    assert sorted(p.name for p in folder.iterdir()) == ["9.png", "9.png.part"]


def gzip_answer(body: bytes) -> httpx.Client:
    def answer(_request: httpx.Request) -> httpx.Response:
        return httpx.Response(200, headers={"Content-Type": "image/bmp", "Content-Encoding": "gzip"}, stream=Chunks(lambda: iter([body])))

    return httpx.Client(transport=httpx.MockTransport(answer))


def test_when_gzip_brings_bytes_that_inflate_to_nothing_then_they_count_and_the_picture_stops_at_the_bound(tmp_path: Path) -> None:
    # A gzip header, then empty stored blocks that are never the last: a stream that never ends.
    endless = b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x02\x03" + b"\x00\x00\x00\xff\xff" * 40_000
    with gzip_answer(endless) as http, pytest.raises(DownloadError) as refused:
        fetch_picture(http, "http://pictures.test/15", tmp_path, 15, max_bytes=100_000)
    assert "more than 100000 bytes" in str(refused.value)
    assert list(tmp_path.iterdir()) == []


def test_when_gzip_comes_as_members_one_after_another_then_the_picture_is_all_of_them_and_anything_else_after_is_refused(tmp_path: Path) -> None:
    import gzip

    with gzip_answer(gzip.compress(PICTURE[:300]) + gzip.compress(PICTURE[300:])) as http:
        assert fetch_picture(http, "http://pictures.test/16", tmp_path, 16).path.read_bytes() == PICTURE
    for broken in (gzip.compress(PICTURE) + b"trailing junk", gzip.compress(PICTURE)[:-12]):
        with gzip_answer(broken) as http, pytest.raises(DownloadError) as refused:
            fetch_picture(http, "http://pictures.test/17", tmp_path, 17)
        assert "gzip coding is broken" in str(refused.value)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["16.bmp"]


def test_when_a_listing_names_one_wallpaper_twice_then_it_is_fetched_once(tmp_path: Path) -> None:
    from wallpaper_catalogue.download import fetch_all

    asked: list[str] = []

    def answer(request: httpx.Request) -> httpx.Response:
        asked.append(str(request.url))
        return httpx.Response(200, headers={"Content-Type": "image/png"}, stream=Chunks(lambda: iter([PICTURE])))

    done, failed = fetch_all([(5, "http://pictures.test/5"), (5, "http://pictures.test/5b")], tmp_path, parallel=2, transport=httpx.MockTransport(answer))
    assert (len(done), failed, asked) == (1, [], ["http://pictures.test/5"])


def test_when_two_runs_fetch_one_picture_at_once_then_each_renames_only_what_it_wrote_and_the_picture_is_whole(tmp_path: Path) -> None:
    import threading

    halfway = threading.Event()
    go_on = threading.Event()

    def slow() -> Iterator[bytes]:
        yield PICTURE[:500]
        halfway.set()
        go_on.wait(10)
        yield PICTURE[500:]

    def answer(request: httpx.Request) -> httpx.Response:
        chunks = slow if request.url.path == "/slow" else (lambda: iter([PICTURE]))
        return httpx.Response(200, headers={"Content-Type": "image/png", "Content-Length": str(len(PICTURE))}, stream=Chunks(chunks))

    outcome: list[object] = []

    def first() -> None:
        with httpx.Client(transport=httpx.MockTransport(answer)) as http:
            try:
                outcome.append(fetch_picture(http, "http://pictures.test/slow", tmp_path, 7))
            except DownloadError as error:
                outcome.append(error)

    runner = threading.Thread(target=first)
    runner.start()
    assert halfway.wait(10)
    with httpx.Client(transport=httpx.MockTransport(answer)) as http:
        assert not fetch_picture(http, "http://pictures.test/fast", tmp_path, 7).skipped
    go_on.set()
    runner.join(10)
    assert (tmp_path / "7.png").read_bytes() == PICTURE
    assert [p.name for p in tmp_path.iterdir()] == ["7.png"]


Answer = Callable[[], httpx.Response] | Exception


def answering(*answers: Answer) -> tuple[httpx.Client, list[httpx.Request]]:
    """A picture host that gives `answers` in turn (made anew: a response is read once), the last one
    for good, and the requests it got."""
    asked: list[httpx.Request] = []

    def answer(request: httpx.Request) -> httpx.Response:
        asked.append(request)
        given = answers[min(len(asked), len(answers)) - 1]
        if isinstance(given, Exception):
            raise given
        return given()

    return httpx.Client(transport=httpx.MockTransport(answer)), asked


def picture() -> httpx.Response:
    return httpx.Response(200, headers={"Content-Type": "image/bmp"}, stream=Chunks(lambda: iter([PICTURE])))


def status(code: int, **headers: str) -> Callable[[], httpx.Response]:
    return lambda: httpx.Response(code, headers=headers)


@pytest.mark.parametrize("code", [429, 500, 502, 503, 504])
def test_when_the_host_says_not_now_twice_then_the_picture_is_tried_again_and_comes_whole(tmp_path: Path, code: int) -> None:
    http, asked = answering(status(code), status(code), picture)
    with http:
        fetched = fetch_picture(http, "http://pictures.test/8", tmp_path, 8)
    assert len(asked) == 3
    assert fetched.path.read_bytes() == PICTURE


def test_when_the_host_says_not_now_every_time_then_the_picture_fails_after_three_tries_naming_the_answer(tmp_path: Path) -> None:
    http, asked = answering(status(503))
    with http, pytest.raises(DownloadError) as refused:
        fetch_picture(http, "http://pictures.test/8", tmp_path, 8)
    assert len(asked) == 3
    assert str(refused.value) == "http://pictures.test/8: HTTP 503"
    assert list(tmp_path.iterdir()) == []


def test_when_a_connection_drops_mid_picture_then_the_picture_is_tried_again_and_no_part_is_left(tmp_path: Path) -> None:
    def cut() -> Iterator[bytes]:
        yield PICTURE[:500]
        raise httpx.RemoteProtocolError("peer closed connection without sending complete message body")

    def dropped() -> httpx.Response:
        return httpx.Response(200, headers={"Content-Type": "image/bmp", "Content-Length": str(len(PICTURE))}, stream=Chunks(cut))

    http, asked = answering(dropped, picture)
    with http:
        fetched = fetch_picture(http, "http://pictures.test/8", tmp_path, 8)
    assert len(asked) == 2
    assert sorted(p.name for p in tmp_path.iterdir()) == ["8.bmp"] and fetched.size == len(PICTURE)


@pytest.mark.parametrize(
    "answer",
    [
        status(404),
        status(403),
        status(503, **{"Retry-After": "3600"}),
        httpx.ConnectError("[Errno 111] Connection refused"),
        httpx.ReadTimeout("timed out"),
    ],
    ids=["404", "403", "503 for an hour", "refused", "stalled"],
)
def test_when_the_host_says_no_or_is_not_there_then_the_picture_is_tried_once(tmp_path: Path, answer: Answer) -> None:
    http, asked = answering(answer, picture)
    with http, pytest.raises(DownloadError):
        fetch_picture(http, "http://pictures.test/8", tmp_path, 8)
    assert len(asked) == 1


def test_when_the_run_is_stopping_then_a_picture_is_not_tried_again(tmp_path: Path) -> None:
    stop = threading.Event()
    stop.set()
    http, asked = answering(status(503), picture)
    with http, pytest.raises(DownloadError):
        fetch_picture(http, "http://pictures.test/8", tmp_path, 8, stop=stop)
    assert len(asked) == 1


def test_when_a_picture_is_tried_again_then_it_waits_about_its_delay_or_what_retry_after_asks(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(download, "RETRY_DELAYS", (1.0, 3.0))
    waited: list[float] = []
    monkeypatch.setattr(download.time, "sleep", waited.append)
    for folder, answers in (
        ("a", [status(503), status(503), picture]),
        ("b", [status(429, **{"Retry-After": "7"}), picture]),
    ):
        http, _asked = answering(*answers)
        (tmp_path / folder).mkdir()
        with http:
            fetch_picture(http, "http://pictures.test/8", tmp_path / folder, 8)
    first, second, asked = waited
    assert 0.75 <= first <= 1.25 and 2.25 <= second <= 3.75
    assert asked == 7.0


def test_when_a_host_keeps_saying_not_now_then_after_three_pictures_the_rest_of_its_pictures_are_tried_once(tmp_path: Path) -> None:
    # A host that is down had cost each of its pictures its waits: 300 behind a 503 with
    # Retry-After: 30 about 37 minutes (helper-133). Another host's pictures are not held to it.
    asked: list[str] = []

    def answer(request: httpx.Request) -> httpx.Response:
        asked.append(request.url.host)
        if request.url.host == "down.test":
            return httpx.Response(503)
        return picture()

    jobs = [(i, f"http://{'down' if i % 2 else 'up'}.test/{i}") for i in range(1, 13)]
    done, failed = fetch_all(jobs, tmp_path, parallel=1, transport=httpx.MockTransport(answer))
    assert sorted(f.wallpaper_id for f in done) == [2, 4, 6, 8, 10, 12]
    assert sorted(f.wallpaper_id for f in failed) == [1, 3, 5, 7, 9, 11]
    assert asked.count("down.test") == 3 * 3 + 3
    assert asked.count("up.test") == 6


def test_when_the_caller_keeps_the_hosts_health_across_pages_then_a_host_down_on_one_has_its_pictures_tried_once_on_the_next(tmp_path: Path) -> None:
    # A sync fetches page after page: each page had trusted a down host afresh, its pictures costing
    # their waits again, and a sync of a hundred pages hours (helper-147).
    asked: list[str] = []

    def answer(request: httpx.Request) -> httpx.Response:
        asked.append(request.url.path)
        return httpx.Response(503)

    unwell: dict[str, int] = {}
    for page in range(2):
        jobs = [(i, f"http://down.test/{i}") for i in range(page * 3 + 1, page * 3 + 4)]
        _done, failed = fetch_all(jobs, tmp_path, parallel=1, transport=httpx.MockTransport(answer), unwell=unwell)
        assert len(failed) == 3
    assert len(asked) == 3 * 3 + 3
    assert unwell == {"down.test": 6}
    _done, _failed = fetch_all([(7, "http://down.test/7")], tmp_path, parallel=1, transport=httpx.MockTransport(answer))
    assert len(asked) == 12 + 3, "a run of its own starts trusting the host"


def test_when_a_host_comes_back_then_its_pictures_are_tried_again_as_before(tmp_path: Path) -> None:
    answers = iter([503] * 9 + [200, 503, 503, 503])

    def answer(_request: httpx.Request) -> httpx.Response:
        return picture() if next(answers) == 200 else httpx.Response(503)

    jobs = [(i, f"http://flaky.test/{i}") for i in range(1, 6)]
    done, failed = fetch_all(jobs, tmp_path, parallel=1, transport=httpx.MockTransport(answer))
    # Three failed after three tries each; the fourth, tried once, came whole; the fifth had its tries again.
    assert [f.wallpaper_id for f in done] == [4]
    assert sorted(f.wallpaper_id for f in failed) == [1, 2, 3, 5]
    assert next(answers, None) is None


def test_when_retry_after_is_not_plain_digits_then_it_is_read_as_unsaid_and_the_picture_is_named(tmp_path: Path) -> None:
    http, asked = answering(lambda: httpx.Response(503, headers=[(b"Retry-After", "²".encode())]))
    with http, pytest.raises(DownloadError) as refused:
        fetch_picture(http, "http://pictures.test/8", tmp_path, 8)
    assert len(asked) == 3
    assert str(refused.value) == "http://pictures.test/8: HTTP 503"
