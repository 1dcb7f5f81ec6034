from __future__ import annotations

from dataclasses import asdict
from typing import Annotated

from fastapi import APIRouter, Path, Request, Response, status

from app.api.deps import BearerPlayer, ContextDep, CurrentPlayer, SessionDep
from app.api.guest_cookie import clear_guest_cookie, is_foreign_origin, set_guest_cookie
from app.api.responses import (
    BAD_INPUT,
    COMMON,
    FORBIDDEN,
    GONE,
    GUEST_CHANGE,
    GUEST_READ,
    TOKEN,
    merged,
)
from app.api.schemas import (
    DeviceLinkClaim,
    DeviceLinkCreated,
    FriendPublic,
    FriendsPublic,
    InvitationPublic,
    InvitationsPublic,
    PlayerCreate,
    PlayerCreated,
    PlayerPublic,
    TurnsWaiting,
    TurnWaiting,
)
from app.errors import ArcadeError
from app.services.device_links import claim_link, make_link, qr_rows
from app.services.friends import decline, invitations, recent_friends
from app.services.players import create_player, rename_player
from app.services.rate_limits import (
    DeviceClaimLimit,
    DeviceLinkLimit,
    GuestCreationLimit,
    TurnReadLimit,
)
from app.services.turns import waiting_for

router = APIRouter(prefix="/api/players", tags=["players"], responses=COMMON)


@router.post(
    "", status_code=status.HTTP_201_CREATED, response_model=PlayerCreated, responses=BAD_INPUT
)
async def create_guest(
    body: PlayerCreate,
    session: SessionDep,
    request: Request,
    response: Response,
    _: GuestCreationLimit,
) -> PlayerCreated:
    """Create a guest player. Browsers keep the token in the HttpOnly cookie this sets; API
    clients keep the token from the body (shown only once) and send it as a Bearer token."""
    player, token = await create_player(session, name=body.name)
    await session.commit()
    set_guest_cookie(response, request, token)
    return PlayerCreated(id=player.id, name=player.name, token=token)


@router.get("/me", response_model=PlayerPublic, responses=GUEST_READ)
async def read_me(player: CurrentPlayer) -> PlayerPublic:
    """The player the token (Bearer header or cookie) belongs to."""
    return PlayerPublic(id=player.id, name=player.name)


@router.get("/me/turns", response_model=TurnsWaiting, responses=GUEST_READ)
async def read_my_turns(
    player: CurrentPlayer, session: SessionDep, context: ContextDep, _: TurnReadLimit
) -> TurnsWaiting:
    """The matches waiting for your move, each with when it became your turn and, with a turn
    timer, when your time runs out: a running clock first (the soonest first), then the longest
    waiting. Lessons and seats a computer stands in for are left out."""
    turns = await waiting_for(session, context.runtime, player.id)
    return TurnsWaiting(turns=[TurnWaiting(**asdict(t)) for t in turns], count=len(turns))


@router.get("/me/friends", response_model=FriendsPublic, responses=GUEST_READ)
async def read_my_friends(
    player: CurrentPlayer, session: SessionDep, _: TurnReadLimit
) -> FriendsPublic:
    """The people you shared a table with recently (computers and lessons left out), the most
    recent first: whom "Play again with them" can invite (`invite` of POST /api/matches)."""
    found = await recent_friends(session, player.id)
    return FriendsPublic(friends=[FriendPublic(**asdict(f)) for f in found])


@router.get("/me/invitations", response_model=InvitationsPublic, responses=GUEST_READ)
async def read_my_invitations(
    player: CurrentPlayer, session: SessionDep, _: TurnReadLimit
) -> InvitationsPublic:
    """Open lobbies a friend invited you to that you have not joined, the newest first."""
    found = await invitations(session, player.id)
    return InvitationsPublic(invitations=[InvitationPublic(**asdict(i)) for i in found])


@router.delete(
    "/me/invitations/{match_id}", status_code=status.HTTP_204_NO_CONTENT, responses=GUEST_CHANGE
)
async def decline_invitation(
    match_id: Annotated[str, Path(min_length=1, max_length=32)],
    player: CurrentPlayer,
    session: SessionDep,
    _: TurnReadLimit,
) -> Response:
    """Not this time: the invitation leaves your list (the lobby stays open)."""
    await decline(session, player.id, match_id)
    await session.commit()
    return Response(status_code=status.HTTP_204_NO_CONTENT)


@router.post(
    "/me/device-link",
    status_code=status.HTTP_201_CREATED,
    response_model=DeviceLinkCreated,
    responses=GUEST_CHANGE,
)
async def make_device_link(
    player: CurrentPlayer, session: SessionDep, request: Request, _: DeviceLinkLimit
) -> DeviceLinkCreated:
    """A one-time link (and its QR code) that makes another browser you: open it there within
    ten minutes. Your matches, records and notifications follow you; this device stays yours."""
    token, expires = await make_link(session, player)
    await session.commit()
    # A fragment, not a path: link previews and the server's logs never see the token, and
    # nothing is used up until the page asks for it with a POST.
    url = f"{str(request.base_url).rstrip('/')}/#device={token}"
    return DeviceLinkCreated(url=url, expires_at=expires, qr=qr_rows(url))


@router.post(
    "/device-link/claim", response_model=PlayerPublic, responses=merged(GUEST_CHANGE, GONE)
)
async def claim_device_link(
    body: DeviceLinkClaim,
    session: SessionDep,
    request: Request,
    response: Response,
    _: DeviceClaimLimit,
) -> PlayerPublic:
    """This browser becomes the player who made the link (it sets the guest cookie); the link
    is used up. A link already used or expired answers 410 `link_used`."""
    if is_foreign_origin(request):
        raise ArcadeError("forbidden", "Open the link itself: another site cannot use it for you.")
    player, token = await claim_link(session, body.token)
    await session.commit()
    set_guest_cookie(response, request, token)
    return PlayerPublic(id=player.id, name=player.name)


@router.patch("/me", response_model=PlayerPublic, responses=GUEST_CHANGE)
async def rename_me(body: PlayerCreate, player: CurrentPlayer, session: SessionDep) -> PlayerPublic:
    """Change your display name."""
    player = await rename_player(session, player=await session.merge(player), name=body.name)
    await session.commit()
    return PlayerPublic(id=player.id, name=player.name)


@router.post("/me/cookie", response_model=PlayerPublic, responses=TOKEN)
async def keep_token_in_cookie(
    bearer: BearerPlayer, request: Request, response: Response
) -> PlayerPublic:
    """Move a guest made before browsers kept the cookie into it: send the old token once as
    `Authorization: Bearer <token>`, then forget it in the page."""
    player, token = bearer
    set_guest_cookie(response, request, token)
    return PlayerPublic(id=player.id, name=player.name)


@router.delete("/me/cookie", status_code=status.HTTP_204_NO_CONTENT, responses=FORBIDDEN)
async def forget_cookie(request: Request) -> Response:
    """Clear the guest cookie in this browser (the guest itself stays, for its token's holders)."""
    if is_foreign_origin(request):
        raise ArcadeError("forbidden", "Only this site's own pages may sign a browser out.")
    response = Response(status_code=status.HTTP_204_NO_CONTENT)
    clear_guest_cookie(response, request)
    return response
