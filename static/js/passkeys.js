// "Your identity" on the home page (issue 18, item 4; docs/protocol.md section 18): a guest
// adds a passkey, and "Sign in with a passkey" on any device makes that browser hers. The
// server speaks WebAuthn's JSON forms (binary fields as base64url); the conversions to and
// from the ArrayBuffers navigator.credentials wants are here. Text goes in as text only.
import { api, loadPlayer, savePlayer } from "./api.js";
import { fill, h, toast } from "./ui.js";

const els = {
  panel: document.getElementById("identity"),
  help: document.getElementById("identity-help"),
  list: document.getElementById("passkey-list"),
  add: document.getElementById("passkey-add"),
  signIn: document.getElementById("passkey-signin"),
  status: document.getElementById("identity-status"),
};

// ------------------------------------------------------------------ base64url <-> ArrayBuffer
function fromBase64url(text) {
  const base64 = text.replace(/-/g, "+").replace(/_/g, "/");
  const padded = base64 + "=".repeat((4 - (base64.length % 4)) % 4);
  const binary = atob(padded);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i += 1) bytes[i] = binary.charCodeAt(i);
  return bytes.buffer;
}

function toBase64url(buffer) {
  const bytes = new Uint8Array(buffer);
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function creationOptions(json) {
  return {
    ...json,
    challenge: fromBase64url(json.challenge),
    user: { ...json.user, id: fromBase64url(json.user.id) },
    excludeCredentials: (json.excludeCredentials || []).map((c) => ({ ...c, id: fromBase64url(c.id) })),
  };
}

function requestOptions(json) {
  const options = { ...json, challenge: fromBase64url(json.challenge) };
  if (json.allowCredentials) {
    options.allowCredentials = json.allowCredentials.map((c) => ({ ...c, id: fromBase64url(c.id) }));
  }
  return options;
}

/** The credential as the JSON the server reads (PublicKeyCredential.toJSON()'s shape). */
function credentialJson(credential) {
  const r = credential.response;
  const response = { clientDataJSON: toBase64url(r.clientDataJSON) };
  if (r.attestationObject) {
    response.attestationObject = toBase64url(r.attestationObject);
    response.transports = typeof r.getTransports === "function" ? r.getTransports() : [];
  } else {
    response.authenticatorData = toBase64url(r.authenticatorData);
    response.signature = toBase64url(r.signature);
    response.userHandle = r.userHandle ? toBase64url(r.userHandle) : null;
  }
  const json = {
    id: credential.id,
    rawId: toBase64url(credential.rawId),
    type: credential.type,
    response,
    clientExtensionResults: credential.getClientExtensionResults?.() ?? {},
  };
  if (credential.authenticatorAttachment) json.authenticatorAttachment = credential.authenticatorAttachment;
  return json;
}

/** A label she can tell her passkeys apart by: the kind of device it was made on. */
function deviceLabel() {
  const ua = navigator.userAgent;
  const kinds = [[/iPhone/, "iPhone"], [/iPad/, "iPad"], [/Android/, "Android"], [/Mac OS X/, "Mac"],
    [/Windows/, "Windows"], [/CrOS/, "Chromebook"], [/Linux/, "Linux"]];
  const found = kinds.find(([pattern]) => pattern.test(ua));
  return found ? `Passkey on ${found[1]}` : "Passkey";
}

// ------------------------------------------------------------------ the block
const supported = typeof window.PublicKeyCredential === "function" && !!navigator.credentials;

function say(text) {
  els.status.textContent = text;
}

function passkeyRow(passkey) {
  const made = new Date(passkey.created_at).toLocaleDateString();
  return h("li", { class: "match-row", "data-testid": "passkey", "data-key": passkey.id },
    h("div", {},
      h("div", { class: "m-title" }, passkey.label),
      h("div", { class: "m-meta" }, passkey.last_used_at
        ? `added ${made} · last used ${new Date(passkey.last_used_at).toLocaleDateString()}`
        : `added ${made}`)),
    h("button", { type: "button", class: "ghost", "data-testid": "passkey-remove",
      "aria-label": `Remove ${passkey.label}`,
      onclick: (e) => remove(passkey, e.currentTarget) }, "Remove"));
}

async function refresh() {
  const guest = loadPlayer();
  els.add.hidden = !guest || !supported;
  els.signIn.disabled = !supported;
  if (!supported) {
    els.help.textContent = "This browser cannot use passkeys.";
    return;
  }
  els.help.textContent = guest
    ? "Add a passkey to be yourself on your other devices: sign in there with it."
    : "Played here before on another device? Sign in with your passkey.";
  if (!guest) {
    fill(els.list);
    return;
  }
  try {
    const { passkeys } = await api("GET", "/passkeys");
    fill(els.list, ...passkeys.map(passkeyRow));
  } catch {
    fill(els.list); // the list is a convenience; the buttons still work
  }
}

async function add() {
  els.add.disabled = true;
  say("Follow your device's prompt to make the passkey…");
  try {
    const options = await api("POST", "/passkeys/register/options");
    const credential = await navigator.credentials.create({ publicKey: creationOptions(options) });
    if (!credential) throw new Error("No passkey was made.");
    const made = await api("POST", "/passkeys/register", { ...credentialJson(credential), label: deviceLabel() });
    say(`Passkey added: ${made.label}. Use it to sign in on your other devices.`);
    await refresh();
  } catch (error) {
    say("");
    toast(readable(error), { kind: "error", title: "No passkey added" });
  } finally {
    els.add.disabled = false;
  }
}

async function signIn(event) {
  const button = event?.currentTarget instanceof HTMLButtonElement ? event.currentTarget : els.signIn;
  button.disabled = true;
  say("Choose your passkey…");
  try {
    const options = await api("POST", "/passkeys/login/options");
    const credential = await navigator.credentials.get({ publicKey: requestOptions(options) });
    if (!credential) throw new Error("No passkey was chosen.");
    const me = await api("POST", "/passkeys/login", credentialJson(credential));
    savePlayer({ id: me.id, name: me.name });
    say(`Signed in as ${me.name}.`);
    location.reload();
  } catch (error) {
    say("");
    // In the name dialog a toast would be hidden behind it: the dialog says it itself.
    const inDialog = button.closest(".passkey-offer")?.querySelector("[role=alert]");
    if (inDialog) inDialog.textContent = readable(error);
    else toast(readable(error), { kind: "error", title: "Not signed in" });
    button.disabled = false;
  }
}

async function remove(passkey, button) {
  button.disabled = true;
  try {
    await api("DELETE", `/passkeys/${encodeURIComponent(passkey.id)}`);
  } catch (error) {
    toast(readable(error), { kind: "error", title: "Could not remove the passkey" });
  }
  await refresh();
}

function readable(error) {
  // The browser's own refusals (the prompt dismissed, a timeout) are DOMExceptions.
  if (error?.name === "NotAllowedError") return "The passkey prompt was closed or timed out.";
  if (error?.name === "InvalidStateError") return "This device already holds a passkey of yours.";
  return error?.message || "Something went wrong.";
}

/**
 * A newcomer is asked for a name before anything else (lobby.js); someone who already is a
 * guest on another device should not have to become a new one first: the name dialog gets
 * "Sign in with a passkey" too.
 */
function offerInNameDialog(dialog) {
  const form = dialog.querySelector("form");
  if (!form || loadPlayer() || form.querySelector("[data-testid=passkey-signin-dialog]")) return;
  form.append(h("p", { class: "small muted passkey-offer" },
    "Played here before on another device? ",
    h("button", { type: "button", class: "ghost", "data-testid": "passkey-signin-dialog",
      onclick: signIn }, "Sign in with a passkey"),
    h("span", { class: "passkey-offer-error", role: "alert", "data-testid": "passkey-dialog-error" })));
}

if (els.panel) {
  els.add.addEventListener("click", add);
  els.signIn.addEventListener("click", signIn);
  window.addEventListener("arcade:player", refresh);
  refresh();
  if (supported) {
    const dialogs = () => document.querySelectorAll("dialog[data-testid=name-dialog]").forEach(offerInNameDialog);
    new MutationObserver(dialogs).observe(document.body, { childList: true });
    dialogs();
  }
}
