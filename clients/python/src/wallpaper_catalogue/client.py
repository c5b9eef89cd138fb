"""The Wallpaper Catalogue API, typed from its OpenAPI document (models.py)."""

from __future__ import annotations

import json
import re
import time
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any, TypeVar, cast

import httpx
from typing_extensions import Unpack

from ._pacing import Pacing
from .errors import ApiError
from .models import ChangeItem, ChangeList, SuggestionList, Usage, WallpaperDetail, WallpaperList, WallpaperListItem
from .params import ChangesParams, ListParams, SearchParams, SimilarParams

__all__ = ["Client", "FollowedChange"]

Params = Mapping[str, Any]
T = TypeVar("T")
# The page size of a walk from the start that names none: the API's largest.
WALK_PAGE = 100


def _is_list(value: object) -> bool:
    return isinstance(value, Iterable) and not isinstance(value, (str, bytes, bytearray, Mapping))


def _read_once(params: Params) -> dict[str, Any]:
    """The parameters of a walk, read once: a list given as a generator would otherwise be used up by
    the first page, and the next asked without that filter (its cursor then refused)."""
    return {name: list(value) if _is_list(value) else value for name, value in params.items()}


def _query(params: Params) -> dict[str, str]:
    """The contract's query: lists comma-separated (``category=space,nature``), None left out, in a
    list too, and so empty lists (the API refuses an empty ``tags=``). A list is any iterable but
    text and mappings (a generator, a dict's keys): one had gone as its ``str()``, ``<generator …>``."""
    query: dict[str, str] = {}
    for name, value in params.items():
        if value is None:
            continue
        if _is_list(value):
            given = [str(v) for v in value if v is not None]
            if not given:
                continue
            query[name] = ",".join(given)
        elif isinstance(value, bool):
            query[name] = "true" if value else "false"
        else:
            query[name] = str(value)
    return query


def _looping() -> ApiError:
    """A walk that leads back to a page already read would be followed for ever."""
    return ApiError(200, "unexpected_response", "The API went back to a page it had given before: the walk would never end")


class Repeats:
    """What a walk has been given, to tell a walk that goes round from one that goes on: a cursor
    given before and, in the change feed (`feed`), a page given before under another cursor (a
    server that ignores what it does not read in a cursor) or empty pages that say there is more, a
    few in a row. A feed's page is known by its changes' ids and times, each change its own; a
    list's page may rightly hold an item again (an import mid-walk lowers the downloads of one
    served, and the keyset walk meets it again), so a list's walk is judged by its cursors only.
    The last RECENT of each are kept, so a walk of millions holds a bounded memory; a cycle longer
    than that goes unseen, as a server inventing new ids would anyway."""

    EMPTY_IN_A_ROW = 3
    RECENT = 1000

    def __init__(self, *, feed: bool) -> None:
        self.feed = feed
        self.cursors: set[str] = set()
        self.pages: set[int] = set()
        self.empty = 0

    def again(self, cursor: str, items: list[Any]) -> bool:
        self.empty = self.empty + 1 if not items else 0
        repeated = cursor in self.cursors
        if self.feed:
            page = hash(tuple((item.get("id"), item.get("at")) for item in items))
            repeated = repeated or (bool(items) and page in self.pages) or self.empty >= self.EMPTY_IN_A_ROW
            self.pages = _kept(self.pages, self.RECENT)
            self.pages.add(page)
        self.cursors = _kept(self.cursors, self.RECENT)
        self.cursors.add(cursor)
        return repeated


def _kept(seen: set[Any], most: int) -> set[Any]:
    return set() if len(seen) >= most else seen


def feed_step(page: ChangeList, asked: str | None, seen: Repeats) -> tuple[str, bool]:
    """A change-feed page's next cursor and whether more follows it; ApiError
    ``unexpected_response`` when the page has no next cursor, or one with more after it leads back
    to a page read before (`seen`, a Repeats of the feed). At the end, the same cursor comes back
    until a change comes: that is the feed's tail."""
    following, more = page["meta"].get("next_cursor"), bool(page["meta"].get("has_more"))
    if not isinstance(following, str):
        raise ApiError(200, "unexpected_response", "The change feed's page has no next cursor")
    if more and (following == asked or seen.again(following, page["data"])):
        raise _looping()
    return following, more


# The largest id a wallpaper may have: JSON numbers past it lose digits in JavaScript clients.
MAX_ID = 2**53 - 1


def is_wallpaper_id(value: object) -> bool:
    """A wallpaper id as the contract gives it: a positive integer (not a string, a float or a bool)."""
    return type(value) is int and 1 <= value <= MAX_ID


def _page(body: Any) -> Any:
    """A page as the contract shapes it, checked where the tool builds on it: ``data`` a list of
    objects each with a wallpaper id, ``meta`` an object. A server that answers otherwise (a
    stranger on the path, a broken proxy) gets ApiError ``unexpected_response``, not a traceback,
    and never names a file (the id becomes one)."""
    if not isinstance(body, dict) or not isinstance(body.get("data"), list) or not isinstance(body.get("meta"), dict):
        raise ApiError(200, "unexpected_response", "The answer is not a page of the API (data and meta)")
    for item in body["data"]:
        if not isinstance(item, dict) or not is_wallpaper_id(item.get("id")):
            shown = item.get("id") if isinstance(item, dict) else item
            raise ApiError(200, "unexpected_response", f"The answer holds an item whose id is not a wallpaper id: {ascii(shown)[:80]}")
    return body


@dataclass(frozen=True)
class FollowedChange:
    """A change, and the cursor to resume from once it is applied: the next page's cursor after the
    last change of a page; before that, the cursor that asked for its page (None for the feed's
    first page), so a resume asks that page again and gets at most a page's changes twice, never
    none of them. Applying a change again is harmless: the feed is at least once."""

    change: ChangeItem
    cursor: str | None


class _Resource:
    def __init__(self, client: Client) -> None:
        self._client = client

    def _get(self, path: str, params: Params, kind: type[T]) -> T:
        return cast(T, self._client._get(path, params))

    def _get_page(self, path: str, params: Params, kind: type[T]) -> T:
        return cast(T, _page(self._client._get(path, params)))

    def _walk(self, path: str, params: Params, limit: int | None, on_page: Callable[[WallpaperList], None] | None = None) -> Iterator[WallpaperListItem]:
        """Every result from the first page (or the `page` or `cursor` given: a walk resumed) to the
        last (or `limit`), following meta.next_cursor. A random order's later pages are sent with the
        walk's seed, the one asked or the one the API picked (meta.seed): the cursor carries it too,
        but an API instance older than that asks for it. `on_page` sees each page as it comes, its
        meta with it."""
        params = _read_once(params)
        query = {name: value for name, value in params.items() if name not in ("page", "cursor")}
        # Where the walk starts, asked of its first page only: it had been dropped, so `page=3`
        # walked from page 1 (helper-107).
        start = {name: params[name] for name in ("page", "cursor") if params.get(name) is not None}
        if limit is not None and limit < 1:
            return
        # A walk from the start asks for pages of WALK_PAGE, or of `limit` when fewer: each page is a
        # request of the quota, and the API's 20 had made a whole walk cost five times the requests
        # (helper-147). A walk resumed sends none: a cursor carries the page size it was issued for
        # (an API older than that takes its default, so pass the walk's per_page to it), and a page
        # number counts pages of the API's.
        # Not with `ids`, which the API takes alone.
        if query.get("per_page") is None and not start and query.get("ids") is None:
            query["per_page"] = WALK_PAGE if limit is None else min(WALK_PAGE, limit)
        cursor: str | None = None
        seen = Repeats(feed=False)
        served = 0
        while True:
            page = self._get_page(path, {**query, **({"cursor": cursor} if cursor else start)}, WallpaperList)
            if query.get("seed") is None and page["meta"].get("seed"):
                query["seed"] = page["meta"]["seed"]
            # A resumed walk's later pages name the size its first was served in, as the seed: an
            # API instance older than cursors that carry it takes the default otherwise, and
            # refuses them.
            if query.get("per_page") is None and query.get("ids") is None:
                query["per_page"] = page["meta"]["per_page"]
            if on_page is not None:
                on_page(page)
            for item in page["data"]:
                served += 1
                yield item
                # Stopped here, not at the next page's first item: that page is never asked for.
                if limit is not None and served >= limit:
                    return
            following = page["meta"].get("next_cursor")
            if not following:
                return
            if not isinstance(following, str) or seen.again(following, page["data"]):
                raise _looping()
            cursor = following


class Wallpapers(_Resource):
    def list(self, **params: Unpack[ListParams]) -> WallpaperList:
        """One page of the list: every filter of the contract (`category`, `resolution`, `tags`, ...)."""
        return self._get_page("/v1/wallpapers", params, WallpaperList)

    def get(self, wallpaper_id: int) -> WallpaperDetail:
        body = self._client._get(f"/v1/wallpapers/{int(wallpaper_id)}", {})
        if not isinstance(body, dict) or not is_wallpaper_id(body.get("id")):
            raise ApiError(200, "unexpected_response", "The answer is not a wallpaper of the API")
        return cast(WallpaperDetail, body)

    def similar(self, wallpaper_id: int, **params: Unpack[SimilarParams]) -> WallpaperList:
        """The wallpapers most like this one, best first: one page of `per_page` (at most 100)."""
        return self._get_page(f"/v1/wallpapers/{int(wallpaper_id)}/similar", params, WallpaperList)

    def all(
        self, *, limit: int | None = None, on_page: Callable[[WallpaperList], None] | None = None, **params: Unpack[ListParams]
    ) -> Iterator[WallpaperListItem]:
        """``for w in client.wallpapers.all(category="space")`` walks a whole listing; `on_page` sees
        each page, for its meta (``meta.next_cursor``: where a walk stopped part way resumes)."""
        return self._walk("/v1/wallpapers", params, limit, on_page)


class Search(_Resource):
    def query(self, q: str, **params: Unpack[SearchParams]) -> WallpaperList:
        return self._get_page("/v1/search", {"q": q, **params}, WallpaperList)

    def all(
        self, q: str, *, limit: int | None = None, on_page: Callable[[WallpaperList], None] | None = None, **params: Unpack[SearchParams]
    ) -> Iterator[WallpaperListItem]:
        """Every result; `on_page` sees each page, for its meta: ``meta.did_you_mean`` suggests
        another reading of a query that found nothing, or found only wallpapers without a word typed."""
        return self._walk("/v1/search", {"q": q, **params}, limit, on_page)

    def suggest(self, q: str, limit: int | None = None) -> SuggestionList:
        return self._get("/v1/search/suggest", {"q": q, "limit": limit}, SuggestionList)


class Changes(_Resource):
    def page(self, cursor: str | None = None, **params: Unpack[ChangesParams]) -> ChangeList:
        """One page of the change feed: ``{data, meta: {next_cursor, has_more}}``."""
        return self._get_page("/v1/changes", {"cursor": cursor, **params}, ChangeList)

    def follow(
        self,
        cursor: str | None = None,
        *,
        until_end: bool = False,
        poll: float = 60.0,
        **params: Unpack[ChangesParams],
    ) -> Iterator[FollowedChange]:
        """The feed from `cursor` (from the start without one), page after page; at its end, waits
        `poll` seconds and asks again, or stops with `until_end`. Raises CursorExpired when the
        record of changes `cursor` was read in was since lost, restored or begun anew: follow again
        without a cursor, and drop what that walk does not serve once the catalogue confirms it
        gone (``wallpapers.list(ids=...)``)."""
        seen = Repeats(feed=True)
        once = _read_once(params)
        while True:
            page = self._get_page("/v1/changes", {"cursor": cursor, **once}, ChangeList)
            asked = cursor
            cursor, more = feed_step(page, asked, seen)
            for i, change in enumerate(page["data"]):
                yield FollowedChange(change, cursor if i == len(page["data"]) - 1 else asked)
            if more:
                continue
            if until_end:
                return
            time.sleep(poll)


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


class Client:
    """The Wallpaper Catalogue API: paced by its rate-limit headers, retrying GETs on 503 and
    network errors, raising ``{error, message, status}`` answers as ApiError.

    ``Client(base_url="https://api.example.com", api_key=...)``: the base URL without ``/v1``.
    ``timeout`` bounds each connect and read, and an attempt's whole answer (see Pacing).
    """

    def __init__(
        self,
        base_url: str,
        api_key: str,
        *,
        timeout: float = 30.0,
        pacing: Pacing | None = None,
        transport: httpx.BaseTransport | None = None,
    ) -> None:
        # A key goes into a header: one that cannot is refused here, without showing it.
        if not re.fullmatch(r"[\x21-\x7e]+", api_key):
            raise ValueError("api_key must be printable ASCII without spaces or line breaks (the key is not shown)")
        self._http = httpx.Client(
            base_url=base_url.rstrip("/"),
            headers={"Authorization": f"Bearer {api_key}", "Accept": "application/json"},
            timeout=timeout,
            transport=transport,
        )
        self.pacing = pacing or Pacing()
        self.wallpapers = Wallpapers(self)
        self.search = Search(self)
        self.changes = Changes(self)

    def usage(self) -> Usage:
        """The calling key's quota and use, admitting nothing."""
        return cast(Usage, self._get("/v1/usage", {}))

    def _get(self, path: str, params: Params) -> Any:
        # A 2xx whose body is not the API's JSON (a captive portal's page, a cut answer, null) is an
        # ApiError too, not a ValueError or None handed on as data.
        # So is JSON no standard parser reads (NaN, Infinity: printed again by --json, they would
        # be JSON for nobody) or nested past what Python reads (RecursionError).
        response = self.pacing.get(self._http, path, _query(params))
        try:
            body = json.loads(response.content, parse_constant=_no_constant)
        except (ValueError, RecursionError):
            raise ApiError(response.status_code, "unexpected_response", "The answer is not the JSON the API sends") from None
        if body is None:
            raise ApiError(response.status_code, "unexpected_response", "The answer is not the JSON the API sends")
        return body

    def close(self) -> None:
        self._http.close()

    def __enter__(self) -> Client:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
