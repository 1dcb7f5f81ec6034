"""Passkeys (WebAuthn, through py_webauthn): a guest adds one, and signing in with it in any
browser makes that browser hers.

The relying party is the site as the browser addressed it: its id is the request's host name,
its origin the request's scheme://host[:port]. Challenges are kept in the passkey_challenges
table (every server process sees them, a restart keeps them): each is used at most once, the
row being deleted by its use, and only for CHALLENGE_TTL. The browser sends its challenge back
inside clientDataJSON, which is how an answer finds its row; nothing else is sent along.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import json
import secrets
import uuid
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import delete, func, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession
from webauthn import (
    generate_authentication_options,
    generate_registration_options,
    options_to_json,
    verify_authentication_response,
    verify_registration_response,
)
from webauthn.helpers import bytes_to_base64url
from webauthn.helpers.structs import (
    AuthenticatorSelectionCriteria,
    PublicKeyCredentialDescriptor,
    ResidentKeyRequirement,
    UserVerificationRequirement,
)

from app.db.models import Passkey, PasskeyChallenge, Player
from app.errors import ArcadeError
from app.services.players import issue_token
from app.services.text import clean_name
from app.timestamps import as_utc

RP_NAME = "Arcade Night"
CHALLENGE_TTL = timedelta(minutes=5)
TIMEOUT_MS = int(CHALLENGE_TTL.total_seconds() * 1000)
MAX_PASSKEYS_PER_PLAYER = 20
# A credential id is at most 1023 bytes (WebAuthn); base64url makes that 1364 characters.
MAX_CREDENTIAL_ID_CHARS = 1364


@dataclass(frozen=True)
class RelyingParty:
    id: str
    origin: str


@dataclass(frozen=True)
class SignedIn:
    player: Player
    token: str


def _bad(message: str) -> ArcadeError:
    return ArcadeError("bad_request", message)


def _now() -> datetime:
    return datetime.now(UTC)


def _b64url_decode(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def _challenge_hash(challenge: bytes) -> str:
    return hashlib.sha256(challenge).hexdigest()


async def _keep_challenge(
    session: AsyncSession,
    challenge: bytes,
    purpose: str,
    *,
    player_id: str | None = None,
    user_handle: str | None = None,
) -> None:
    now = _now()
    # The expired ones go as new ones come (an index probe), so the table stays small.
    await session.execute(delete(PasskeyChallenge).where(PasskeyChallenge.expires_at < now))
    session.add(
        PasskeyChallenge(
            challenge_hash=_challenge_hash(challenge),
            purpose=purpose,
            player_id=player_id,
            user_handle=user_handle,
            expires_at=now + CHALLENGE_TTL,
        )
    )
    await session.flush()


def parse_credential(raw: bytes) -> dict[str, Any]:
    """The browser's credential JSON, checked for the fields every answer has."""
    try:
        credential = json.loads(raw)
    except (ValueError, UnicodeDecodeError):
        raise _bad("The body must be the passkey's credential as JSON.") from None
    if not isinstance(credential, dict):
        raise _bad("The body must be the passkey's credential as a JSON object.")
    cred_id, response = credential.get("id"), credential.get("response")
    if not isinstance(cred_id, str) or not cred_id or len(cred_id) > MAX_CREDENTIAL_ID_CHARS:
        raise _bad("The credential has no valid id.")
    if not isinstance(response, dict) or not isinstance(response.get("clientDataJSON"), str):
        raise _bad("The credential has no response.clientDataJSON.")
    return credential


def _client_challenge(credential: dict[str, Any]) -> bytes:
    try:
        client_data = json.loads(_b64url_decode(credential["response"]["clientDataJSON"]))
        challenge = client_data["challenge"]
        if not isinstance(challenge, str):
            raise TypeError
        return _b64url_decode(challenge)
    except (ValueError, TypeError, KeyError, binascii.Error, UnicodeDecodeError):
        raise _bad("The credential's clientDataJSON is not valid.") from None


async def _use_challenge(
    session: AsyncSession, credential: dict[str, Any], purpose: str
) -> PasskeyChallenge:
    """The challenge the credential answers, used up: a second answer to it is refused, in
    this process or any other (the row's deletion is what decides)."""
    hashed = _challenge_hash(_client_challenge(credential))
    row = await session.get(PasskeyChallenge, hashed)
    if row is None or row.purpose != purpose:
        raise _bad(
            "That passkey challenge is unknown or was already used: ask for new options "
            "and try again."
        )
    gone = await session.execute(
        delete(PasskeyChallenge).where(PasskeyChallenge.challenge_hash == hashed)
    )
    await session.commit()  # used, whatever comes next
    if gone.rowcount != 1:  # type: ignore[attr-defined]
        raise _bad("That passkey challenge was already used: ask for new options and try again.")
    if as_utc(row.expires_at) <= _now():
        raise _bad("That passkey challenge has expired (5 minutes): ask for new options.")
    return row


# --- registration ----------------------------------------------------------------------------


async def _passkeys_of(session: AsyncSession, player_id: str) -> list[Passkey]:
    found = await session.scalars(
        select(Passkey).where(Passkey.player_id == player_id).order_by(Passkey.created_at)
    )
    return list(found)


async def registration_options(
    session: AsyncSession, player: Player, rp: RelyingParty
) -> dict[str, Any]:
    existing = await _passkeys_of(session, player.id)
    if len(existing) >= MAX_PASSKEYS_PER_PLAYER:
        raise _bad(f"You have {MAX_PASSKEYS_PER_PLAYER} passkeys already; remove one first.")
    # One user handle for all her passkeys: random, so it tells nothing about her.
    handle = existing[0].user_handle if existing else bytes_to_base64url(secrets.token_bytes(32))
    options = generate_registration_options(
        rp_id=rp.id,
        rp_name=RP_NAME,
        user_id=_b64url_decode(handle),
        user_name=player.name,
        user_display_name=player.name,
        timeout=TIMEOUT_MS,
        authenticator_selection=AuthenticatorSelectionCriteria(
            resident_key=ResidentKeyRequirement.REQUIRED,
            user_verification=UserVerificationRequirement.PREFERRED,
        ),
        exclude_credentials=[
            PublicKeyCredentialDescriptor(id=_b64url_decode(p.credential_id)) for p in existing
        ],
    )
    await _keep_challenge(
        session, options.challenge, "register", player_id=player.id, user_handle=handle
    )
    answer: dict[str, Any] = json.loads(options_to_json(options))
    return answer


async def register(
    session: AsyncSession, player: Player, credential: dict[str, Any], rp: RelyingParty
) -> Passkey:
    raw_label = credential.get("label")
    # Checked first: a refused label should not use up the challenge.
    label = clean_name(raw_label) if isinstance(raw_label, str) and raw_label.strip() else "Passkey"
    challenge = await _use_challenge(session, credential, "register")
    if challenge.player_id != player.id or challenge.user_handle is None:
        raise _bad("Those passkey options were made for another player.")
    try:
        verified = verify_registration_response(
            credential=credential,
            expected_challenge=_client_challenge(credential),
            expected_rp_id=rp.id,
            expected_origin=rp.origin,
        )
    except Exception as exc:  # py_webauthn raises many kinds on hostile input
        raise _bad(f"The passkey could not be verified: {_reason(exc)}") from None
    credential_id = bytes_to_base64url(verified.credential_id)
    taken = await session.scalar(select(Passkey.id).where(Passkey.credential_id == credential_id))
    if taken is not None:
        raise _bad("That passkey is registered already.")
    passkey = Passkey(
        id=uuid.uuid4().hex,
        credential_id=credential_id,
        public_key=verified.credential_public_key,
        sign_count=verified.sign_count,
        player_id=player.id,
        user_handle=challenge.user_handle,
        label=label,
        created_at=_now(),
    )
    session.add(passkey)
    try:
        await session.commit()
    except IntegrityError:  # the same credential, registered at the same moment elsewhere
        await session.rollback()
        raise _bad("That passkey is registered already.") from None
    return passkey


def _reason(exc: Exception) -> str:
    text = str(exc).strip() or type(exc).__name__
    return text[:200]


async def list_passkeys(session: AsyncSession, player: Player) -> list[Passkey]:
    return await _passkeys_of(session, player.id)


async def remove_passkey(session: AsyncSession, player: Player, passkey_id: str) -> None:
    gone = await session.execute(
        delete(Passkey).where(Passkey.id == passkey_id, Passkey.player_id == player.id)
    )
    if gone.rowcount != 1:  # type: ignore[attr-defined]
        raise ArcadeError("not_found", "You have no such passkey.")
    await session.commit()


# --- signing in ------------------------------------------------------------------------------


async def login_options(session: AsyncSession, rp: RelyingParty) -> dict[str, Any]:
    # Discoverable credentials: no allowCredentials, the authenticator offers hers.
    options = generate_authentication_options(
        rp_id=rp.id,
        timeout=TIMEOUT_MS,
        user_verification=UserVerificationRequirement.PREFERRED,
    )
    await _keep_challenge(session, options.challenge, "login")
    answer: dict[str, Any] = json.loads(options_to_json(options))
    answer.pop("allowCredentials", None)
    return answer


async def login(session: AsyncSession, credential: dict[str, Any], rp: RelyingParty) -> SignedIn:
    await _use_challenge(session, credential, "login")
    passkey = await session.scalar(select(Passkey).where(Passkey.credential_id == credential["id"]))
    if passkey is None:
        raise _bad("This passkey is not known here (it may have been removed).")
    handle = credential["response"].get("userHandle")
    if handle is not None and handle != passkey.user_handle:
        raise _bad("This passkey's user does not match the one it was registered for.")
    try:
        verified = verify_authentication_response(
            credential=credential,
            expected_challenge=_client_challenge(credential),
            expected_rp_id=rp.id,
            expected_origin=rp.origin,
            credential_public_key=passkey.public_key,
            credential_current_sign_count=passkey.sign_count,
        )
    except Exception as exc:  # py_webauthn raises many kinds on hostile input
        raise _bad(f"The passkey could not be verified: {_reason(exc)}") from None
    # The sign count only moves forward: a lower or equal one (a cloned authenticator, a
    # replay) was refused above; one that lost a race to another sign-in is refused here.
    updated = await session.execute(
        update(Passkey)
        .where(Passkey.id == passkey.id, Passkey.sign_count == passkey.sign_count)
        .values(sign_count=verified.new_sign_count, last_used_at=func.now())
    )
    if updated.rowcount != 1:  # type: ignore[attr-defined]
        await session.rollback()
        raise _bad("This passkey was just used elsewhere; try again.")
    player = await session.get(Player, passkey.player_id)
    if player is None:  # deleted players take their passkeys with them (cascade)
        raise _bad("This passkey is not known here.")
    token = await issue_token(session, player=player)
    await session.commit()
    return SignedIn(player=player, token=token)
