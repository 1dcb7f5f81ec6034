#!/usr/bin/env bash
# Installs Arcade Night with its test tools into .venv and runs the whole test suite.
# PostgreSQL tests run when TEST_DATABASE_URL is set (each test makes a fresh database);
# browser tests need Chromium at /usr/bin/chromium (Debian: apt-get install -y chromium).
set -euo pipefail
cd "$(dirname "$0")/.."
[ -x .venv/bin/python ] || python3 -m venv .venv
.venv/bin/python -m pip install --quiet --disable-pip-version-check -e ".[test]"
exec .venv/bin/python -m pytest "$@"
