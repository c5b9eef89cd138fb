"""The API's schemas as TypedDicts, generated from openapi/openapi.json by scripts/python-models.sh: do not edit."""

from __future__ import annotations

from typing import Literal, TypeAlias

from typing_extensions import NotRequired, TypedDict

Category: TypeAlias = Literal[
    'abstract',
    'animals',
    'anime',
    'architecture',
    'cars',
    'cityscapes',
    'fantasy',
    'flowers',
    'food',
    'games',
    'landscapes',
    'minimalist',
    'movies',
    'music',
    'nature',
    'ocean',
    'space',
    'sports',
    'technology',
]


Resolution: TypeAlias = str


class Wallpaper(TypedDict, closed=True):
    id: int
    title: str
    description: str
    url: str
    thumbnail: str
    resolution: Resolution
    category: Category
    downloads: int
    created_at: str


class CategoryItem(TypedDict, closed=True):
    value: str
    count: int


class ResolutionItem(TypedDict, closed=True):
    value: str
    count: int


class OrientationItem(TypedDict, closed=True):
    value: Literal['landscape', 'portrait', 'square']
    count: int


class RatioItem(TypedDict, closed=True):
    value: str
    count: int


class ColorItem(TypedDict, closed=True):
    value: Literal[
        'black',
        'white',
        'gray',
        'red',
        'orange',
        'yellow',
        'green',
        'teal',
        'blue',
        'purple',
        'pink',
        'brown',
    ]
    count: int


class ToneItem(TypedDict, closed=True):
    value: Literal['light', 'dark']
    count: int


MissingItem: TypeAlias = int


class Correction(TypedDict, closed=True):
    typed: str
    meant: str


class DidYouMean(TypedDict, closed=True):
    """
    Search only, on the first page: another reading of the query that the catalogue has wallpapers for, each `meant` in place of the word `typed`, a word of the language the catalogue holds nowhere, one typo from a thing the catalogue names that fits the query's other words better in meaning (`cannon at sunset`: canyon; `tier in the snow`: tiger). The answer stays what was asked: no results when the word typed names a thing the catalogue lacks, else the wallpapers of the other words, without it; a client offers the reading ("did you mean canyon at sunset?"). `typed` is the word as the API read it: lower case, accents and other marks removed. Absent on a page whose first wallpaper already has the word meant in its title, or whose search found something reading the word as another itself or found catalogue words for it, on a query of more than four groups, and otherwise.
    """

    corrections: list[Correction]
    total_items: int


class Error(TypedDict, closed=True):
    error: Literal[
        'invalid_request',
        'unauthorized',
        'forbidden',
        'not_found',
        'method_not_allowed',
        'rate_limit_exceeded',
        'too_many_auth_failures',
        'internal_error',
        'service_unavailable',
        'cursor_expired',
        'request_too_large',
        'request_timeout',
    ]
    message: str
    status: int


class Health(TypedDict):
    status: Literal['ok']


class Checks(TypedDict, closed=True):
    elasticsearch: Literal['ok', 'failing']
    alias: Literal['ok', 'failing']
    redis: Literal['ok', 'failing']
    serving: Literal['ok', 'draining']


class Readiness(TypedDict):
    status: Literal['ready']
    checks: Checks


class NotReady(TypedDict, closed=True):
    error: Literal['service_unavailable']
    message: str
    status: Literal[503]
    checks: Checks


class Suggestion(TypedDict, closed=True):
    text: str


class Meta(TypedDict, closed=True):
    q: str
    limit: int


class SuggestionList(TypedDict, closed=True):
    data: list[Suggestion]
    meta: Meta


Ratio: TypeAlias = Literal[
    '32x9',
    '21x9',
    '16x9',
    '16x10',
    '3x2',
    '4x3',
    '5x4',
    '1x1',
    '4x5',
    '3x4',
    '2x3',
    '10x16',
    '9x16',
    '9x19.5',
    '9x20',
]


Orientation: TypeAlias = Literal['landscape', 'portrait', 'square']


class Usage(TypedDict, closed=True):
    tier: str
    limit: int
    used: int
    remaining: int
    window: int
    reset: int


Tag: TypeAlias = str


class ColorShare(TypedDict, closed=True):
    """
    One colour of the palette
    """

    hex: str
    share: float


Tone: TypeAlias = Literal['light', 'dark'] | None


class Meta1(TypedDict, closed=True):
    per_page: int
    next_cursor: str
    has_more: bool


CreatedAt: TypeAlias = str


Description: TypeAlias = str


Downloads: TypeAlias = int


Id: TypeAlias = int


Thumbnail: TypeAlias = str


Title: TypeAlias = str


Url: TypeAlias = str


class WallpaperDetail(TypedDict, closed=True):
    """
    A wallpaper in detail: the nine fields of the resource, its dimensions and shape, its tags, its palette and tone
    """

    id: Id
    title: Title
    description: Description
    url: Url
    thumbnail: Thumbnail
    resolution: Resolution
    category: Category
    downloads: Downloads
    created_at: CreatedAt
    width: int
    height: int
    ratio: str
    orientation: Orientation
    tags: list[Tag]
    colors: list[ColorShare]
    tone: Tone


class WallpaperListItem(TypedDict, closed=True):
    """
    A wallpaper in a list: the nine fields of the resource, and what `include` asks (`dimensions`: width, height, ratio, orientation; `tags`; `colors`: colors and tone)
    """

    id: Id
    title: Title
    description: Description
    url: Url
    thumbnail: Thumbnail
    resolution: Resolution
    category: Category
    downloads: Downloads
    created_at: CreatedAt
    width: NotRequired[int]
    height: NotRequired[int]
    ratio: NotRequired[str]
    orientation: NotRequired[Orientation]
    tags: NotRequired[list[Tag]]
    colors: NotRequired[list[ColorShare]]
    tone: NotRequired[Tone]


class Tag1(TypedDict, closed=True):
    value: Tag
    count: int


class Facets(TypedDict, closed=True):
    """
    With `facets`: counts per value, most frequent first, for every facet asked (an empty list when nothing has a value of it)
    """

    category: NotRequired[list[CategoryItem]]
    resolution: NotRequired[list[ResolutionItem]]
    orientation: NotRequired[list[OrientationItem]]
    ratio: NotRequired[list[RatioItem]]
    tags: NotRequired[list[Tag1]]
    color: NotRequired[list[ColorItem]]
    tone: NotRequired[list[ToneItem]]


class Pagination(TypedDict, closed=True):
    current_page: int
    per_page: int
    total_items: int
    total_pages: int
    next_cursor: str | None
    seed: NotRequired[str]
    facets: NotRequired[Facets]
    missing: NotRequired[list[MissingItem]]
    did_you_mean: NotRequired[DidYouMean]


class WallpaperList(TypedDict, closed=True):
    data: list[WallpaperListItem]
    meta: Pagination


class ChangeItem(TypedDict, closed=True):
    """
    One change: a wallpaper as it now is (`upsert`, with `wallpaper`), or gone (`delete`, without).
    """

    id: int
    change: Literal['upsert', 'delete']
    at: str
    wallpaper: NotRequired[WallpaperListItem]


class ChangeList(TypedDict, closed=True):
    data: list[ChangeItem]
    meta: Meta1
