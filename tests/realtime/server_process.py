"""A real server in a subprocess (so its memory can be read from /proc) and raw WebSocket
clients that can stop reading, for the tests that attack the socket layer."""

from __future__ import annotations

import asyncio
import base64
import os
import secrets
import socket
import struct
import subprocess
import sys
import time
from pathlib import Path

import httpx

from tests.conftest import free_port

ROOT = Path(__file__).resolve().parents[2]


class ServerProcess:
    """`uvicorn app.main:create_app` (or another app `factory`) in its own process; settings
    through the environment."""

    def __init__(
        self, database_url: str, *, factory: str = "app.main:create_app", **settings: object
    ) -> None:
        self.port = free_port()
        env = {**os.environ, "DATABASE_URL": database_url}
        env.update({name.upper(): str(value) for name, value in settings.items()})
        self.process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "uvicorn",
                factory,
                "--factory",
                "--host=127.0.0.1",
                f"--port={self.port}",
                "--log-level=warning",
            ],
            cwd=ROOT,
            env=env,
        )

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    def start(self) -> ServerProcess:
        deadline = time.monotonic() + 60
        while True:
            if self.process.poll() is not None:
                raise RuntimeError("the server process exited")
            try:
                if httpx.get(self.url + "/healthz", timeout=1).status_code == 200:
                    return self
            except httpx.HTTPError:
                pass
            if time.monotonic() > deadline:
                raise RuntimeError("the server did not start")
            time.sleep(0.1)

    def rss_mb(self) -> float:
        with open(f"/proc/{self.process.pid}/status") as status:
            for line in status:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024
        raise RuntimeError("no VmRSS")

    def tcp_ports(self) -> set[int]:
        """The local ports of this process's TCP sockets (Linux /proc): with them a test tells
        which of the connections a server (Redis, PostgreSQL) sees are this process's."""
        inodes = set()
        fds = f"/proc/{self.process.pid}/fd"
        for fd in os.listdir(fds):
            try:
                target = os.readlink(f"{fds}/{fd}")
            except OSError:
                continue  # closed meanwhile
            if target.startswith("socket:["):
                inodes.add(target[len("socket:[") : -1])
        ports = set()
        for table in ("/proc/net/tcp", "/proc/net/tcp6"):
            with open(table) as rows:
                next(rows)
                for row in rows:
                    fields = row.split()
                    if fields[9] in inodes:
                        ports.add(int(fields[1].rsplit(":", 1)[1], 16))
        return ports

    def kill(self) -> None:
        """SIGKILL, as the kernel's OOM killer or a pulled plug: no shutdown code runs, its
        sockets drop without a close frame and its leases stay in Redis until they expire."""
        self.process.kill()
        self.process.wait()

    @property
    def alive(self) -> bool:
        return self.process.poll() is None

    def stop(self) -> None:
        if not self.alive:
            return
        self.process.terminate()
        try:
            self.process.wait(15)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


class RawSocket:
    """A WebSocket client on a bare TCP stream: it reads only when told to."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader = reader
        self.writer = writer

    @classmethod
    async def open(cls, ws_url: str, path: str) -> RawSocket:
        host, port = ws_url.removeprefix("ws://").split(":")
        sock = socket.socket()
        # A small receive window, like a client on a poor link: what it does not read stays
        # on the server instead of in this machine's kernel buffers.
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        sock.setblocking(False)
        await asyncio.get_running_loop().sock_connect(sock, (host, int(port)))
        reader, writer = await asyncio.open_connection(sock=sock)
        key = base64.b64encode(secrets.token_bytes(16)).decode()
        writer.write(
            (
                f"GET {path} HTTP/1.1\r\nHost: {host}:{port}\r\nUpgrade: websocket\r\n"
                f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
                "Sec-WebSocket-Version: 13\r\n\r\n"
            ).encode()
        )
        response = await reader.readuntil(b"\r\n\r\n")
        assert response.startswith(b"HTTP/1.1 101"), response
        return cls(reader, writer)

    async def send_text(self, text: str) -> None:
        payload = text.encode()
        mask = secrets.token_bytes(4)
        assert len(payload) < 126
        masked = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
        self.writer.write(bytes([0x81, 0x80 | len(payload)]) + mask + masked)
        await self.writer.drain()

    async def read_until_close(self, timeout: float) -> tuple[int, str, int]:
        """Reads every frame the server sent; (close code, reason, data frames before it)."""
        frames = 0
        async with asyncio.timeout(timeout):
            while True:
                head = await self.reader.readexactly(2)
                opcode, length = head[0] & 0x0F, head[1] & 0x7F
                if length == 126:
                    (length,) = struct.unpack("!H", await self.reader.readexactly(2))
                elif length == 127:
                    (length,) = struct.unpack("!Q", await self.reader.readexactly(8))
                payload = await self.reader.readexactly(length)
                if opcode == 0x8:
                    (code,) = struct.unpack("!H", payload[:2])
                    return code, payload[2:].decode(), frames
                frames += 1

    def close(self) -> None:
        self.writer.close()
