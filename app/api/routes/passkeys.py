"""Passkeys: add one as a guest, sign in with it in any browser (docs/protocol.md section 18)."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Path, Request, Response, status

from app.api.bodies import read_capped_body
from app.api.deps import CurrentPlayer, SessionDep
from app.api.guest_cookie import is_foreign_origin, set_guest_cookie
from app.api.responses import (
    BAD_INPUT,
    COMMON,
    FORBIDDEN,
    GUEST_CHANGE,
    GUEST_READ,
    NOT_FOUND,
    TOO_LARGE,
    Responses,
    merged,
)
from app.api.schemas import PasskeyPublic, PasskeysPublic, PlayerPublic
from app.db.models import Passkey
from app.errors import ArcadeError
from app.services import passkeys as service
from app.services.rate_limits import PasskeyLimit, PasskeySignInLimit
from app.timestamps import as_utc

router = APIRouter(prefix="/api/passkeys", tags=["passkeys"], responses=COMMON)

# A browser's credential JSON is a few hundred bytes to a few KiB (attestation certificates).
MAX_BODY_BYTES = 64 * 1024


def _credential_body(description: str) -> dict[str, Any]:
    return {
        "requestBody": {
            "required": True,
            "content": {
                "application/json": {
                    "schema": {"type": "object", "description": description},
                }
            },
        }
    }


OPTIONS_ANSWER: Responses = {
    200: {
        "content": {"application/json": {"schema": {"type": "object"}}},
        "description": "The options for the browser's navigator.credentials call, as JSON",
    }
}


def relying_party(request: Request) -> service.RelyingParty:
    """The site as the browser addressed it: its host name, and scheme://host[:port]."""
    url = request.url
    if not url.hostname:
        raise ArcadeError("bad_request", "The request names no host.")
    return service.RelyingParty(id=url.hostname, origin=f"{url.scheme}://{url.netloc}")


async def _read_credential(request: Request) -> dict[str, Any]:
    refusal = f"A passkey credential may be at most {MAX_BODY_BYTES // 1024} KiB."
    return service.parse_credential(await read_capped_body(request, MAX_BODY_BYTES, refusal))


def _public(passkey: Passkey) -> PasskeyPublic:
    return PasskeyPublic(
        id=passkey.id,
        label=passkey.label,
        created_at=as_utc(passkey.created_at),
        last_used_at=as_utc(passkey.last_used_at),
    )


@router.post("/register/options", responses=merged(OPTIONS_ANSWER, GUEST_CHANGE))
async def registration_options(
    request: Request, player: CurrentPlayer, session: SessionDep, _: PasskeyLimit
) -> dict[str, Any]:
    """PublicKeyCredentialCreationOptions (JSON, binary fields base64url) for
    navigator.credentials.create(): a resident key required, user verification preferred, her
    passkeys excluded. Its challenge is good for one registration within 5 minutes."""
    answer = await service.registration_options(session, player, relying_party(request))
    await session.commit()
    return answer


@router.post(
    "/register",
    status_code=status.HTTP_201_CREATED,
    response_model=PasskeyPublic,
    responses=merged(GUEST_CHANGE, TOO_LARGE),
    openapi_extra=_credential_body(
        "The browser's PublicKeyCredential as JSON (its toJSON()), plus an optional `label`"
    ),
)
async def register_passkey(
    request: Request, player: CurrentPlayer, session: SessionDep, _: PasskeyLimit
) -> PasskeyPublic:
    """Add the passkey the browser just made from the options above."""
    credential = await _read_credential(request)
    passkey = await service.register(session, player, credential, relying_party(request))
    return _public(passkey)


@router.get("", response_model=PasskeysPublic, responses=GUEST_READ)
async def list_passkeys(
    player: CurrentPlayer, session: SessionDep, _: PasskeyLimit
) -> PasskeysPublic:
    """Your passkeys, the oldest first."""
    found = await service.list_passkeys(session, player)
    return PasskeysPublic(passkeys=[_public(p) for p in found])


@router.delete(
    "/{passkey_id}",
    status_code=status.HTTP_204_NO_CONTENT,
    responses=merged(GUEST_CHANGE, NOT_FOUND),
)
async def remove_passkey(
    passkey_id: Annotated[str, Path(min_length=1, max_length=32)],
    player: CurrentPlayer,
    session: SessionDep,
    _: PasskeyLimit,
) -> Response:
    """Remove one of your passkeys: it signs nobody in here any more."""
    await service.remove_passkey(session, player, passkey_id)
    return Response(status_code=status.HTTP_204_NO_CONTENT)


@router.post("/login/options", responses=merged(OPTIONS_ANSWER, BAD_INPUT))
async def login_options(
    request: Request, session: SessionDep, _: PasskeySignInLimit
) -> dict[str, Any]:
    """PublicKeyCredentialRequestOptions (JSON) for navigator.credentials.get(): no
    allowCredentials, the authenticator offers the passkeys it holds for this site."""
    answer = await service.login_options(session, relying_party(request))
    await session.commit()
    return answer


@router.post(
    "/login",
    response_model=PlayerPublic,
    responses=merged(BAD_INPUT, FORBIDDEN, TOO_LARGE),
    openapi_extra=_credential_body("The browser's assertion (PublicKeyCredential) as JSON"),
)
async def login(
    request: Request, response: Response, session: SessionDep, _: PasskeySignInLimit
) -> PlayerPublic:
    """Sign in with a passkey: answers the player it belongs to and sets the guest cookie for
    her in this browser (a fresh token; her other devices keep theirs)."""
    if is_foreign_origin(request):
        raise ArcadeError("forbidden", "Only this site's own pages may sign in here.")
    credential = await _read_credential(request)
    signed_in = await service.login(session, credential, relying_party(request))
    set_guest_cookie(response, request, signed_in.token)
    return PlayerPublic(id=signed_in.player.id, name=signed_in.player.name)
