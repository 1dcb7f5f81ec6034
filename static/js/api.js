// REST client and the guest identity stored in this browser. The credential itself is in an
// HttpOnly cookie the server sets (no script can read it); localStorage "arcade.player" keeps
// only {id, name} so pages know who they are before asking.

const PLAYER_KEY = "arcade.player";

export class ApiError extends Error {
  constructor(status, code, message, retryAfter = null) {
    super(message);
    this.name = "ApiError";
    this.status = status;
    this.code = code;
    // Seconds to wait after a rate_limited refusal (the message already says it in words).
    this.retryAfter = retryAfter;
  }
}

function storedEntry() {
  try {
    const stored = JSON.parse(localStorage.getItem(PLAYER_KEY) || "null");
    if (stored && typeof stored === "object" && stored.id) return stored;
  } catch {
    /* a broken entry is the same as none */
  }
  return null;
}

export function loadPlayer() {
  const stored = storedEntry();
  return stored ? { id: stored.id, name: stored.name } : null;
}

export function savePlayer(player) {
  const { id, name } = player;
  localStorage.setItem(PLAYER_KEY, JSON.stringify({ id, name }));
  window.dispatchEvent(new CustomEvent("arcade:player", { detail: { id, name } }));
  return { id, name };
}

/** Forgets the guest in this browser: the stored entry and the cookie (which only the server can clear). */
export function forgetPlayer() {
  localStorage.removeItem(PLAYER_KEY);
  return fetch("/api/players/me/cookie", { method: "DELETE" }).catch(() => {});
}

let migration = null;
/**
 * Guests made before the cookie kept their token in localStorage, where any script could
 * read it: hand it to the server once (it answers with the cookie), then keep only {id, name}.
 * Unreachable server: the entry stays and the next request tries again.
 */
function migrateStoredToken() {
  const stored = storedEntry();
  if (!stored || typeof stored.token !== "string") return Promise.resolve();
  if (!migration) {
    migration = fetch("/api/players/me/cookie", {
      method: "POST",
      headers: { Accept: "application/json", Authorization: `Bearer ${stored.token}` },
    })
      .then(async (response) => {
        if (response.ok) {
          const me = await response.json();
          savePlayer({ id: me.id, name: me.name });
        } else if (response.status === 401) {
          localStorage.removeItem(PLAYER_KEY); // the server no longer knows this guest
        }
      })
      .catch(() => {})
      .finally(() => { migration = null; });
  }
  return migration;
}

function errorFromBody(status, body) {
  if (body && typeof body === "object") {
    if (body.code && body.message) {
      const wait = Number.isFinite(body.retry_after) ? body.retry_after : null;
      return new ApiError(status, body.code, body.message, wait);
    }
    // FastAPI's own shapes, in case an error slips past the server's handler.
    const detail = body.detail;
    if (detail && typeof detail === "object" && !Array.isArray(detail) && detail.message) {
      return new ApiError(status, detail.code || "error", detail.message);
    }
    if (typeof detail === "string") return new ApiError(status, "error", detail);
    if (Array.isArray(detail) && detail.length) {
      const first = detail[0];
      const where = (first.loc || []).filter((p) => p !== "body").join(".");
      return new ApiError(status, "bad_request", `${where ? where + ": " : ""}${first.msg || "invalid request"}`);
    }
  }
  const fallback = {
    401: "Your guest pass was not recognised.",
    403: "You are not allowed to do that.",
    404: "Not found.",
    409: "That clashed with another change; please try again.",
    429: "Slow down a little and try again.",
  };
  return new ApiError(status, "error", fallback[status] || `The server answered ${status}.`);
}

/**
 * api("POST", "/matches", {...}) -> parsed JSON; throws ApiError with a readable message.
 * The guest cookie goes with every request of this origin (an `auth: false` option of
 * older callers changes nothing).
 */
export async function api(method, path, body, { signal } = {}) {
  const headers = { Accept: "application/json" };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  await migrateStoredToken(); // before any request, so the cookie goes with it
  let response;
  try {
    response = await fetch(`/api${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      signal,
    });
  } catch (error) {
    if (error.name === "AbortError") throw error;
    throw new ApiError(0, "network", "Cannot reach the server. Check your connection and try again.");
  }
  let data = null;
  const text = await response.text();
  if (text) {
    try { data = JSON.parse(text); } catch { data = null; }
  }
  if (!response.ok) throw errorFromBody(response.status, data);
  return data;
}

/**
 * The stored guest if the server still knows its cookie (refreshing the name), null if it
 * does not (entry and cookie are dropped), the stored guest unchanged if the server is
 * unreachable.
 */
export async function verifyPlayer() {
  await migrateStoredToken();
  const stored = loadPlayer();
  if (!stored) return null;
  try {
    const me = await api("GET", "/players/me");
    return savePlayer({ id: me.id, name: me.name });
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) {
      await forgetPlayer();
      return null;
    }
    return stored;
  }
}

export async function createPlayer(name) {
  const created = await api("POST", "/players", { name }, { auth: false });
  return savePlayer(created);
}

/**
 * Renames the guest. Uses PATCH /api/players/me when the server offers it; otherwise the
 * guest gets a fresh identity under the new name (returned with `fresh: true`).
 */
export async function renamePlayer(name) {
  const stored = loadPlayer();
  if (stored) {
    try {
      const me = await api("PATCH", "/players/me", { name });
      return savePlayer({ id: stored.id, name: me.name ?? name });
    } catch (error) {
      if (!(error instanceof ApiError) || ![404, 405, 501].includes(error.status)) throw error;
    }
  }
  const created = await createPlayer(name);
  return { ...created, fresh: true };
}

/** The guest, asking for a name first if this browser has none. */
export async function ensurePlayer(askName) {
  const known = await verifyPlayer();
  if (known) return known;
  const name = await askName();
  if (!name) return null;
  return createPlayer(name);
}

// ---------------------------------------------------------------- replays and fair dice
/**
 * 32 random bytes as 64 hex characters: this browser's contribution to the match's dice
 * (docs/replays.md, "Fair dice"). Sent with every create and join; never reused.
 */
export function newNonce() {
  const bytes = new Uint8Array(32);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

/** `path` with `?watch=<token>` (or `&watch=`) when a watch token is known. */
export function withWatch(path, watch) {
  if (!watch) return path;
  return `${path}${path.includes("?") ? "&" : "?"}watch=${encodeURIComponent(watch)}`;
}

/**
 * A server timestamp as a Date. Timestamps without a zone (SQLite keeps none) are UTC, the
 * server's clock; reading them as local time would shift every date by the visitor's offset.
 */
export function serverTime(iso) {
  if (!iso) return null;
  const text = /[zZ]|[+-]\d\d:?\d\d$/.test(iso) ? iso : `${iso}Z`;
  const date = new Date(text);
  return Number.isNaN(date.getTime()) ? null : date;
}
