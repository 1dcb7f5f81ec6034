// One match's WebSocket: hello, snapshot + gapless patches, moves with acks, chat, presence,
// and reconnection with backoff. Versions are tracked here so pages only ever see a
// consistent state: a version gap or a patch that does not apply leads to a "sync".

import { CompactReader } from "./compact.js";
import { patched } from "./patch.js";

const MAX_BACKOFF_MS = 10000;
// Close code 1012 ("service restart"): the server is stopping and the load balancer sends
// the next connection to another one, so reconnect at once, after a random moment (up to
// this long) that keeps a whole server's pages from arriving in the same instant. A second
// 1012 in a row (the next connection reached a stopping server too) waits as usual.
const RESTART_CODE = 1012;
const RESTART_JITTER_MS = 250;
const QUICK_RESTARTS = 1;
// Patches come as compact `p` frames, or as full `patch` frames after the match waited
// (docs/protocol.md section 15): `_handle` reads both.
const HELLO = { type: "hello", compact: 2 };

let moveCounter = 0;
function newMoveId() {
  moveCounter += 1;
  const random = (crypto.randomUUID ? crypto.randomUUID() : Math.random().toString(36).slice(2)).slice(0, 18);
  return `m-${Date.now().toString(36)}-${moveCounter}-${random}`;
}

export class MoveRefused extends Error {
  constructor(code, message) {
    super(message);
    this.name = "MoveRefused";
    this.code = code;
  }
}

export class MatchSocket {
  /**
   * handlers: onSnapshot(state, version), onPatch(state, events, version), onLobby(summary),
   * onPresence(msg), onChat(msg), onError(msg), onStatus(status, detail),
   * onRefused(code, reason) when the server closed the socket for good
   * status is "connecting" | "open" | "reconnecting" | "closed".
   */
  constructor(matchId, { guest = null, ...handlers } = {}) {
    this.matchId = matchId;
    this.guest = guest; // the guest's id: the handshake carries its HttpOnly cookie
    this.handlers = handlers;
    this.ws = null;
    this.state = null;
    this.version = null;
    this.status = "closed";
    this.attempt = 0;
    this.restarts = 0;        // 1012 closes since the last snapshot or lobby
    this.timer = null;
    this.syncing = false;
    this.syncAt = 0;
    this.greeting = false;
    this.stopped = false;
    this.reader = null;       // the open connection's CompactReader
    this.pending = new Map(); // move id -> {message, resolve, reject, sent}
    this.outbox = [];         // chat typed while offline
    this._onOnline = () => { if (this.status === "reconnecting") this._reconnectNow(); };
    window.addEventListener("online", this._onOnline);
  }

  get url() {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    return `${scheme}://${location.host}/api/matches/${encodeURIComponent(this.matchId)}/ws`;
  }

  connect() {
    this.stopped = false;
    clearTimeout(this.timer);
    this._setStatus(this.attempt === 0 ? "connecting" : "reconnecting");
    let ws;
    try {
      ws = new WebSocket(this.url);
    } catch {
      this._scheduleReconnect();
      return;
    }
    this.ws = ws;
    ws.addEventListener("open", () => {
      if (this.ws !== ws) return;
      // Compact patch frames (compact.js): the dictionary they refer to lives as long as
      // this connection.
      this.reader = new CompactReader();
      ws.send(JSON.stringify(HELLO));
      this.greeting = true;
      this.syncing = true; // the answer to hello is a snapshot (or lobby while open)
      this.syncAt = Date.now();
      this.attempt = 0;
      this._setStatus("open");
      for (const text of this.outbox.splice(0)) this._send({ type: "chat", text });
    });
    ws.addEventListener("message", (event) => {
      if (this.ws !== ws) return;
      let msg;
      try { msg = JSON.parse(event.data); } catch { return; }
      this._handle(msg);
    });
    ws.addEventListener("close", (event) => {
      if (this.ws !== ws) return;
      this.ws = null;
      for (const entry of this.pending.values()) entry.sent = false;
      if (this.stopped) { this._setStatus("closed"); return; }
      // 4000-4499 are the server's deliberate refusals (unknown match, made private...);
      // 4408 (no hello in time) and 4500 (fell behind: frames dropped) reconnect, and the
      // hello of the new connection brings a fresh snapshot.
      if (event.code >= 4000 && event.code < 4500 && event.code !== 4408) {
        this.handlers.onRefused?.(event.code, event.reason);
        this._setStatus("closed", event.reason || "The server closed the connection.");
        for (const [id, entry] of this.pending) {
          entry.reject(new MoveRefused("closed", event.reason || "The connection was closed."));
          this.pending.delete(id);
        }
        return;
      }
      if (event.code === RESTART_CODE && this.restarts < QUICK_RESTARTS) {
        this.restarts += 1;
        this._setStatus("reconnecting");
        clearTimeout(this.timer);
        this.timer = setTimeout(() => this.connect(), Math.random() * RESTART_JITTER_MS);
        return;
      }
      this._scheduleReconnect();
    });
    ws.addEventListener("error", () => { /* a close event follows */ });
  }

  /** Reconnects with a new identity (a guest created after the page loaded). */
  setGuest(guest) {
    if (guest === this.guest) return;
    this.guest = guest;
    this.reconnect();
  }

  reconnect() {
    if (this.ws) {
      const old = this.ws;
      this.ws = null;
      try { old.close(1000, "reconnect"); } catch { /* already closing */ }
    }
    this.attempt = 0;
    this.connect();
  }

  close() {
    this.stopped = true;
    clearTimeout(this.timer);
    window.removeEventListener("online", this._onOnline);
    if (this.ws) this.ws.close(1000, "bye");
  }

  sync() {
    // One sync in flight at a time, but never wait forever for its snapshot.
    if (this.syncing && Date.now() - this.syncAt < 4000) return;
    this.syncing = true;
    this.syncAt = Date.now();
    this._send({ type: "sync" });
  }

  chat(text) {
    if (!this._send({ type: "chat", text })) this.outbox.push(text);
  }

  /**
   * Sends a move; resolves with {version} on ack, rejects with MoveRefused on error.
   * A move sent while offline (or lost by a dropped connection) is sent again with the same
   * id after reconnecting; the server never applies one id twice.
   */
  submitMove(move) {
    const id = newMoveId();
    const message = { type: "move", id, move };
    if (this.version !== null) message.version = this.version;
    return new Promise((resolve, reject) => {
      const entry = { message, resolve, reject, sent: false };
      this.pending.set(id, entry);
      entry.sent = this._send(message);
    });
  }

  // ---------------------------------------------------------------- internals
  _send(obj) {
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN) return false;
    this.ws.send(JSON.stringify(obj));
    return true;
  }

  _setStatus(status, detail) {
    this.status = status;
    this.handlers.onStatus?.(status, detail);
  }

  _scheduleReconnect() {
    this._setStatus("reconnecting");
    const base = Math.min(MAX_BACKOFF_MS, 500 * 2 ** this.attempt);
    const delay = Math.round(base * (0.75 + Math.random() * 0.5));
    this.attempt += 1;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.connect(), delay);
  }

  _reconnectNow() {
    clearTimeout(this.timer);
    this.connect();
  }

  _resendPending() {
    for (const entry of this.pending.values()) {
      if (!entry.sent) entry.sent = this._send(entry.message);
    }
  }

  _patch(version, ops, events) {
    if (this.state === null) { this.sync(); return; }
    if (version <= this.version) return; // already have it
    if (version !== this.version + 1) { this.sync(); return; }
    let next;
    try {
      next = patched(this.state, ops);
    } catch {
      this.sync();
      return;
    }
    this.state = next;
    this.version = version;
    this.handlers.onPatch?.(next, events, version);
  }

  _handle(msg) {
    switch (msg.type) {
      case "snapshot": {
        this.greeting = false;
        this.restarts = 0;
        this.state = msg.state;
        this.version = msg.version ?? msg.state?.version ?? 0;
        this.syncing = false;
        this.handlers.onSnapshot?.(this.state, this.version);
        this._resendPending();
        break;
      }
      case "p": {
        // A compact patch: its dictionary entries are kept even when its version is not
        // applied (later frames may refer to them). One that does not fit the dictionary
        // (never expected) starts a new connection, which starts a new dictionary.
        let full;
        try {
          full = this.reader.expand(msg);
        } catch {
          this.reconnect();
          break;
        }
        this._patch(msg.v, full.ops, full.events);
        break;
      }
      case "patch":
        this._patch(msg.version, msg.ops, msg.events || []);
        break;
      case "ack": {
        const entry = this.pending.get(msg.id);
        if (entry) {
          this.pending.delete(msg.id);
          entry.resolve({ version: msg.version });
        }
        break;
      }
      case "error": {
        if (this.greeting && msg.code === "unauthorized" && this.guest) {
          // The server forgot this guest (a reset database): carry on as a spectator (the
          // server takes the second hello of this connection without the cookie).
          this.guest = null;
          this._send(HELLO);
          this.handlers.onUnauthorized?.();
          break;
        }
        const entry = msg.id ? this.pending.get(msg.id) : null;
        if (entry) {
          this.pending.delete(msg.id);
          entry.reject(new MoveRefused(msg.code, msg.message));
        } else {
          this.handlers.onError?.(msg);
        }
        break;
      }
      case "lobby":
        this.greeting = false;
        this.restarts = 0;
        this.syncing = false;
        this.handlers.onLobby?.(msg.match);
        break;
      case "presence":
        this.handlers.onPresence?.(msg);
        break;
      case "chat":
        this.handlers.onChat?.(msg);
        break;
      default:
        break;
    }
  }
}
