"""A model's streamed output through a :class:`momentum_plan.PlanStream` (validator.md §10)."""

from __future__ import annotations

from typing import AsyncIterable, AsyncIterator, Iterable, Iterator, Union

from ._native import PlanStream
from ._types import Issue

Chunk = Union[str, bytes, bytearray]


def stream_plan(stream: PlanStream, chunks: Iterable[Chunk]) -> Iterator[Issue]:
    """Push each chunk of ``chunks`` (``str``, or UTF-8 ``bytes`` split anywhere, as a model SDK's
    text deltas come) into ``stream`` and yield each issue as it settles. Stop iterating to stop
    early (the first error is final); either way, ``stream.finish()`` then gives the verdict on
    what was pushed. Raises what :meth:`PlanStream.push` raises."""
    for chunk in chunks:
        yield from stream.push(chunk)


async def astream_plan(stream: PlanStream, chunks: AsyncIterable[Chunk]) -> AsyncIterator[Issue]:
    """:func:`stream_plan` over an async iterable of chunks (an async model SDK's stream)."""
    async for chunk in chunks:
        for issue in stream.push(chunk):
            yield issue
