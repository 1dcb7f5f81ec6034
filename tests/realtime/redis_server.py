"""A Redis server of a test's own, on its own port, that the test may stop and start again
(issue 19, item 4: the Redis outage). The shared Redis of the machine is never stopped."""

from __future__ import annotations

import shutil
import signal
import subprocess
import time

import pytest
import redis

from tests.conftest import IN_CI, free_port

START_SECONDS = 30.0  # how long a starting server may take to answer, on a loaded machine


class OwnRedis:
    """`redis-server` in a subprocess, without persistence: stopping it loses every key and
    subscription, as a real outage does."""

    def __init__(self) -> None:
        binary = shutil.which("redis-server")
        if binary is None:
            if IN_CI:
                pytest.fail("redis-server is needed in CI for the Redis outage tests")
            pytest.skip("redis-server is not installed")
        self.binary = binary
        self.port = free_port()
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> OwnRedis:
        assert self.process is None, "already running"
        self.process = subprocess.Popen(
            [
                self.binary,
                "--port",
                str(self.port),
                "--bind",
                "127.0.0.1",
                "--save",
                "",
                "--appendonly",
                "no",
                "--loglevel",
                "warning",
            ],
            stdout=subprocess.DEVNULL,
        )
        client = redis.Redis.from_url(self.url, socket_connect_timeout=1)
        deadline = time.monotonic() + START_SECONDS
        try:
            while True:
                if self.process.poll() is not None:
                    raise RuntimeError("redis-server exited at start")
                try:
                    client.ping()
                    return self
                except redis.RedisError:
                    if time.monotonic() > deadline:
                        raise
                time.sleep(0.05)
        finally:
            client.close()

    def pause(self) -> None:
        """Freezes the server (SIGSTOP): connections are still accepted by the system, and
        nothing is answered, as with a hung server or a lost network."""
        assert self.process is not None
        self.process.send_signal(signal.SIGSTOP)

    def resume(self) -> None:
        assert self.process is not None
        self.process.send_signal(signal.SIGCONT)

    def stop(self) -> None:
        """Terminates the server and waits until it is gone: its port refuses connections."""
        if self.process is None:
            return
        self.resume()  # a frozen server would not act on the signal
        self.process.terminate()
        try:
            self.process.wait(15)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(15)
        self.process = None
