"""Gzip inflated a bounded step at a time, as answers and pictures are read."""

from __future__ import annotations

import zlib
from collections.abc import Iterator


class Gunzip:
    """Inflates a gzip stream piece by piece, no piece longer than asked: httpx's decoders inflate a
    whole network chunk at once, before it can be counted. Members one after another are read as
    gzip reads them (one stream); anything after a member that is not another is zlib.error, as is
    a stream that ends inside a member (``finish``)."""

    def __init__(self) -> None:
        self._member = zlib.decompressobj(16 + zlib.MAX_WBITS)

    def pieces(self, raw: bytes, room: int) -> Iterator[bytes]:
        """The inflated bytes of `raw`, in pieces of at most `room` bytes (at least one): the caller
        counts them, and stops once past its bound."""
        pending = raw
        while pending:
            yield self._member.decompress(pending, max(1, room))
            pending = self._member.unconsumed_tail
            if self._member.eof:
                pending = self._member.unused_data + pending
                if pending:
                    self._member = zlib.decompressobj(16 + zlib.MAX_WBITS)

    def finish(self) -> None:
        """The stream ended: inside a member, it was cut short."""
        if not self._member.eof:
            raise zlib.error("the gzip stream ends inside a member")
