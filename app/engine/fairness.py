"""Provably fair dice: the server commits to its seed before the players' nonces are known.

seed_commitment = sha256(server seed), published when the lobby opens. Each seated player's
browser adds a random nonce. The dice of the match are keyed with
HMAC-SHA256(server seed, "arcade-night/dice/v1|" + nonces joined by "|"): the server cannot
pick a seed that suits nonces it has not seen, and no player knows the seed, so nobody alone
can steer a die. At the end the seed is revealed and anyone can recompute everything.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import re
from typing import Any

from app.engine.dice import seed_commitment

NONCE_PATTERN = re.compile(r"^[0-9a-f]{16,128}$")

__all__ = ["dice_seed", "seed_commitment", "state_hash", "valid_nonce"]


def dice_seed(server_seed: str, nonces: list[str | None]) -> str:
    if not nonces:  # matches opened before nonces existed roll with the bare seed
        return server_seed
    message = "arcade-night/dice/v1|" + "|".join(n or "" for n in nonces)
    return hmac.new(server_seed.encode(), message.encode(), hashlib.sha256).hexdigest()


def valid_nonce(nonce: str) -> bool:
    return bool(NONCE_PATTERN.match(nonce))


def state_hash(state: Any) -> str:
    """A fingerprint of a rules state, the same on every machine (canonical JSON)."""
    canonical = json.dumps(state, sort_keys=True, separators=(",", ":"), ensure_ascii=True)
    return hashlib.sha256(canonical.encode()).hexdigest()
