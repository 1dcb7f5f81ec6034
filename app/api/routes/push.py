"""Web Push: the server's VAPID key and a player's push subscriptions (docs/protocol.md,
section 17)."""

from __future__ import annotations

from fastapi import APIRouter, Response, status

from app.api.deps import ContextDep, CurrentPlayer, SessionDep
from app.api.responses import COMMON, GUEST_CHANGE
from app.api.schemas import PushKey, PushSubscriptionIn, PushUnsubscribe
from app.errors import ArcadeError
from app.services import push
from app.services.rate_limits import PushChangeLimit, PushKeyReadLimit

router = APIRouter(prefix="/api/push", tags=["push"], responses=COMMON)


def _key_of(context: ContextDep) -> str:
    if context.push is None:
        raise ArcadeError("not_found", "This server sends no push notifications.")
    return context.push.key.public_key


@router.get("/key", response_model=PushKey)
async def read_push_key(context: ContextDep, _: PushKeyReadLimit) -> PushKey:
    """The VAPID public key to subscribe with (PushManager.subscribe's
    applicationServerKey). The same from every server process and after a restart."""
    return PushKey(key=_key_of(context))


@router.post(
    "/subscriptions",
    status_code=status.HTTP_201_CREATED,
    responses=GUEST_CHANGE,
    response_class=Response,
)
async def subscribe(
    body: PushSubscriptionIn,
    player: CurrentPlayer,
    session: SessionDep,
    context: ContextDep,
    _: PushChangeLimit,
) -> Response:
    """Send this browser's push subscription (its PushSubscription JSON): it is notified when
    it is your turn and when your matches end. A player keeps at most 10 subscriptions (the
    oldest is dropped); the endpoint must be https."""
    push.check_subscription(
        body.endpoint,
        body.keys.p256dh,
        body.keys.auth,
        allow_local=context.settings.push_allow_local_endpoints,
    )
    await push.subscribe(session, player.id, body.endpoint, body.keys.p256dh, body.keys.auth)
    if context.push is not None:
        await context.push.subscribed(player.id)
    return Response(status_code=status.HTTP_201_CREATED)


@router.delete(
    "/subscriptions",
    status_code=status.HTTP_204_NO_CONTENT,
    responses=GUEST_CHANGE,
    response_class=Response,
)
async def unsubscribe(
    body: PushUnsubscribe, player: CurrentPlayer, session: SessionDep, _: PushChangeLimit
) -> Response:
    """Stop pushes to this endpoint (yours; someone else's is left alone)."""
    await push.unsubscribe(session, player.id, body.endpoint)
    return Response(status_code=status.HTTP_204_NO_CONTENT)
