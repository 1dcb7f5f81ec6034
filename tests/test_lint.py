"""The code is formatted and linted as pyproject.toml's [tool.ruff] says, and app/ type-checks
as its [tool.mypy] says, with the versions the `test` extra pins: a change in style or a type
that does not fit shows up here rather than in the next review."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize(
    "command", [["check", "."], ["format", "--check", "."]], ids=["check", "format"]
)
def test_ruff_finds_nothing(command: list[str]) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "ruff", *command, "--no-cache"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stdout + done.stderr


def test_mypy_finds_nothing_in_the_app() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "mypy", "app", "--no-incremental", "--cache-dir", os.devnull],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stdout + done.stderr
