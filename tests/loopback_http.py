"""A keep-alive HTTP/1.1 client for loopback (127.0.0.1 only): thousands of requests from one event loop, and the
board's server-sent event streams. The test servers' phones (tests/test_asgi_server.py, tests/test_tournament_evening.py)
and the benchmarks' phones (benchmarks/club_night_phones.py) both use it; it imports nothing of the app."""

from __future__ import annotations

import asyncio
import json


class LoopbackClient:
    """One keep-alive connection to the server on 127.0.0.1:port, signed in with an API token or a browser session."""

    def __init__(self, port: int, *, token: str = "", session: str = ""):
        self.port = port
        self.auth = (
            f"Authorization: Token {token}\r\n" if token else f"Cookie: sessionid={session}\r\n" if session else ""
        )
        self.reader = self.writer = None

    async def request(self, method: str, path: str, *, body=None, headers=None) -> tuple[int, dict, bytes]:
        data = json.dumps(body).encode() if body is not None else b""
        head = f"{method} {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n{self.auth}Accept: application/json\r\n"
        head += f"Content-Length: {len(data)}\r\n" + ("Content-Type: application/json\r\n" if data else "")
        head += "".join(f"{k}: {v}\r\n" for k, v in (headers or {}).items())
        for attempt in range(2):
            if self.writer is None:
                self.reader, self.writer = await asyncio.open_connection("127.0.0.1", self.port)
            self.writer.write((head + "\r\n").encode() + data)
            try:
                await self.writer.drain()
                return await self._response()
            except (ConnectionError, asyncio.IncompleteReadError):
                self.writer = None  # the server closed the idle connection: once more on a new one
                if attempt:
                    raise
        raise AssertionError("unreachable")

    async def _response(self) -> tuple[int, dict, bytes]:
        status = int((await self.reader.readuntil(b"\r\n")).split()[1])
        headers = {}
        while (line := await self.reader.readuntil(b"\r\n")) != b"\r\n":
            name, _, value = line.decode().partition(":")
            headers[name.strip().lower()] = value.strip()
        body = b""
        if "content-length" in headers:
            body = await self.reader.readexactly(int(headers["content-length"]))
        elif headers.get("transfer-encoding") == "chunked":
            while size := int((await self.reader.readuntil(b"\r\n")).strip(), 16):
                body += (await self.reader.readexactly(size + 2))[:-2]
            await self.reader.readexactly(2)
        if headers.get("connection", "").lower() == "close":
            self.close()
        return status, headers, body

    async def open_stream(self, path: str):
        """Opens an event stream on a connection of its own: (status, an async iterator of its events as dicts, which
        ends when the server ends the stream)."""
        self.reader, self.writer = await asyncio.open_connection("127.0.0.1", self.port)
        self.writer.write(
            f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n{self.auth}Accept: text/event-stream\r\n\r\n".encode()
        )
        await self.writer.drain()
        status = int((await self.reader.readuntil(b"\r\n")).split()[1])
        while await self.reader.readuntil(b"\r\n") != b"\r\n":
            pass
        return status, self._events()

    async def _events(self):
        buffer = b""
        while size := int((await self.reader.readuntil(b"\r\n")).strip(), 16):
            buffer += (await self.reader.readexactly(size + 2))[:-2]
            while b"\n\n" in buffer:
                message, buffer = buffer.split(b"\n\n", 1)
                yield dict(line.split(": ", 1) for line in message.decode().split("\n") if ": " in line)

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
            self.writer = None
