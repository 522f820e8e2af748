"""One client's TCP connection on the server: received lines in a bounded queue, sent lines
with the protocol's line ends.

A reader task cuts the byte stream into lines (:class:`~.protocol.LineSplitter`) and queues
them; when the queue is full it stops reading, so a flood fills the client's socket buffers,
not the server's memory. Whoever serves the connection takes lines one by one, and lines sent
while nobody takes them (the other side's turn, an offer waiting for an opponent) wait their
turn, as on the original server. End of input queues :data:`EOF` and sets :attr:`eof` at once.
"""

from __future__ import annotations

import asyncio
import contextlib

from minichess.protocols.imcs.protocol import EOL, LineSplitter, OverlongLine, decode

EOF = None
"""What :meth:`Connection.next_line` gives once the client has closed its side."""
READ_SIZE = 4096
WRITE_BUFFER = 64 * 1024
"""Bytes waiting to be sent above which a sender waits for the client to read."""

Line = str | OverlongLine | None


class Connection:
    """A client connection: ``next_line()`` to read, ``send(*lines)`` to write."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter,
                 max_line: int = 1024, queue_lines: int = 64, write_timeout: float = 30.0
                 ) -> None:
        self._reader = reader
        self._writer = writer
        peer = writer.get_extra_info("peername") or ("?", 0)
        self.address: str = str(peer[0])
        self.peer = f"{peer[0]}:{peer[1]}"
        self._splitter = LineSplitter(max_line)
        self._lines: asyncio.Queue[Line] = asyncio.Queue(queue_lines)
        self.eof = asyncio.Event()
        """Set when the client has closed (or lost) its side of the connection."""
        self.closed = False
        self._write_timeout = write_timeout
        self._reading = asyncio.ensure_future(self._read_loop())

    async def _read_loop(self) -> None:
        try:
            while data := await self._reader.read(READ_SIZE):
                for raw in self._splitter.feed(data):
                    await self._lines.put(raw if isinstance(raw, OverlongLine) else decode(raw))
        except (ConnectionError, OSError):
            pass
        finally:
            self.eof.set()
        await self._lines.put(EOF)

    async def next_line(self) -> Line:
        """The next line (str), an :class:`OverlongLine`, or :data:`EOF`."""
        if self.closed and self._lines.empty():
            return EOF
        return await self._lines.get()

    def has_lines(self) -> bool:
        """Whether lines (or the end) are waiting to be taken."""
        return not self._lines.empty()

    @property
    def gone(self) -> bool:
        """Whether the client closed its side and every line it sent has been taken."""
        return self.eof.is_set() and self._lines.qsize() <= 1

    async def send(self, *lines: str) -> bool:
        """Send each line followed by ``\\r\\n``; False (and the connection closed) if the
        client is gone or does not read within the write timeout."""
        if self.closed or self._writer.is_closing():
            return False
        data = "".join(line + EOL for line in lines).encode("utf-8", "surrogateescape")
        try:
            self._writer.write(data)
            if self._writer.transport.get_write_buffer_size() > WRITE_BUFFER:
                await asyncio.wait_for(self._writer.drain(), self._write_timeout)
        except (TimeoutError, ConnectionError, OSError):
            self.close()
            return False
        return True

    def close(self) -> None:
        """Close the connection (what was sent is still delivered)."""
        if self.closed:
            return
        self.closed = True
        self._reading.cancel()
        with contextlib.suppress(asyncio.QueueFull):
            self._lines.put_nowait(EOF)  # wakes whoever waits for a line
        with contextlib.suppress(RuntimeError):
            self._writer.close()

    async def wait_closed(self) -> None:
        """Wait until the connection is closed and its reader has stopped."""
        with contextlib.suppress(ConnectionError, OSError, asyncio.CancelledError):
            await self._writer.wait_closed()
        with contextlib.suppress(asyncio.CancelledError):
            await self._reading
