"""The Python server's stdio transport: every request read before the end of input is answered.

The SDK's stdio loop (``mcp`` 2.3, ``serve_dual_era_loop``) ends the session, and cancels the
handlers still running, as soon as stdin reaches its end. A client that writes its requests and
closes its end at once (``printf '...' | momentum-planner``, the outside try of issue 29, finding
8) then gets answers to some of them only. The WASI and the Node servers answer every request
they read, so this wrapper holds the end of input back until each request read so far has its
answer on stdout (or was cancelled by ``notifications/cancelled``), for at most
:data:`DRAIN_SECONDS`, so that a handler waiting for an answer that cannot come (an elicitation
after the client left) never holds the server forever. Rule: mcp-server.md "Protocol eras on one
stdio stream" (a request gets its answer), and the MCP specification's stdio shutdown (the client
closes the server's input, then waits for it to exit).
"""

from __future__ import annotations

import contextvars
from typing import TYPE_CHECKING, Any, Optional, Set, Union

import anyio
from mcp.server.stdio import stdio_server
from mcp.shared.message import SessionMessage
from mcp_types import JSONRPCError, JSONRPCNotification, JSONRPCRequest, JSONRPCResponse

if TYPE_CHECKING:
    from mcp.server.mcpserver import MCPServer

DRAIN_SECONDS = 30.0
"""How long, in seconds, the end of input waits for the answers still owed (then the session ends
as the SDK ends it, cancelling what still runs)."""

RequestId = Union[str, int]


class Owed:
    """The ids of the requests read and not yet answered; ``settled`` is set when there are none."""

    def __init__(self) -> None:
        self.ids: Set[RequestId] = set()
        self.settled = anyio.Event()
        self.settled.set()

    def add(self, request_id: RequestId) -> None:
        self.ids.add(request_id)
        if self.settled.is_set():
            self.settled = anyio.Event()

    def discard(self, request_id: Any) -> None:
        self.ids.discard(request_id)
        if not self.ids:
            self.settled.set()


class DrainingReader:
    """The SDK's read stream, noting each request read; at the end of input it waits for
    :class:`Owed` to settle (at most :data:`DRAIN_SECONDS`) before it reports the end."""

    def __init__(self, inner: Any, owed: Owed) -> None:
        self._inner = inner
        self._owed = owed

    @property
    def last_context(self) -> Optional[contextvars.Context]:
        """The sender context of the last item, as the SDK's own stream carries it."""
        return getattr(self._inner, "last_context", None)

    async def receive(self) -> Any:
        try:
            item = await self._inner.receive()
        except anyio.EndOfStream:
            with anyio.move_on_after(DRAIN_SECONDS):
                while self._owed.ids:
                    await self._owed.settled.wait()
            raise
        if isinstance(item, SessionMessage):
            message = item.message
            if isinstance(message, JSONRPCRequest):
                self._owed.add(message.id)
            elif isinstance(message, JSONRPCNotification) and message.method == "notifications/cancelled":
                params = message.params or {}
                self._owed.discard(params.get("requestId"))
        return item

    def __aiter__(self) -> "DrainingReader":
        return self

    async def __anext__(self) -> Any:
        try:
            return await self.receive()
        except anyio.EndOfStream:
            raise StopAsyncIteration from None

    def close(self) -> None:
        self._inner.close()

    async def aclose(self) -> None:
        await self._inner.aclose()

    async def __aenter__(self) -> "DrainingReader":
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()


class AnsweringWriter:
    """The SDK's write stream, crossing each answer it writes off :class:`Owed`."""

    def __init__(self, inner: Any, owed: Owed) -> None:
        self._inner = inner
        self._owed = owed

    async def send(self, item: SessionMessage) -> None:
        await self._inner.send(item)
        message = item.message
        if isinstance(message, (JSONRPCResponse, JSONRPCError)):
            self._owed.discard(message.id)

    def close(self) -> None:
        self._inner.close()

    async def aclose(self) -> None:
        await self._inner.aclose()

    async def __aenter__(self) -> "AnsweringWriter":
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()


async def run_stdio(mcp: "MCPServer") -> None:
    """Serves ``mcp`` on stdin and stdout as ``MCPServer.run_stdio_async`` does (the SDK's
    ``stdio_server``, its fd claim included), with the end of input held back until every request
    read is answered (:class:`DrainingReader`)."""
    owed = Owed()
    lowlevel = mcp._lowlevel_server  # noqa: SLF001 - what run_stdio_async itself serves
    async with stdio_server() as (read_stream, write_stream):
        await lowlevel.run(
            DrainingReader(read_stream, owed),
            AnsweringWriter(write_stream, owed),
            lowlevel.create_initialization_options(),
        )
