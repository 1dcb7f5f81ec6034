// "Notify me when it's my turn" (docs/protocol.md, section 17): asks the browser's permission,
// registers the service worker /sw.js, subscribes with the server's VAPID key and sends the
// subscription; "Turn off" unsubscribes and tells the server. Text through textContent only.

import { ApiError, api, ensurePlayer } from "./api.js";
import { askName } from "./ui.js";

const enableButton = document.getElementById("push-enable");
const disableButton = document.getElementById("push-disable");
const status = document.getElementById("push-status");

function supported() {
  return "serviceWorker" in navigator && "PushManager" in window && "Notification" in window;
}

function say(text) {
  if (status) status.textContent = text;
}

/** An unpadded base64url string as bytes (PushManager.subscribe's applicationServerKey). */
function keyBytes(text) {
  const base64 = text.replace(/-/g, "+").replace(/_/g, "/") + "=".repeat((4 - (text.length % 4)) % 4);
  const raw = atob(base64);
  return Uint8Array.from(raw, (c) => c.charCodeAt(0));
}

function sameKey(subscription, key) {
  const held = subscription.options && subscription.options.applicationServerKey;
  if (!held) return false;
  const a = new Uint8Array(held);
  return a.length === key.length && a.every((byte, i) => byte === key[i]);
}

async function currentSubscription() {
  const registration = await navigator.serviceWorker.getRegistration("/");
  return registration ? registration.pushManager.getSubscription() : null;
}

async function show() {
  let on = false;
  try {
    on = Notification.permission === "granted" && Boolean(await currentSubscription());
  } catch {
    on = false;
  }
  enableButton.hidden = on;
  disableButton.hidden = !on;
  if (on) say("This browser is told when it is your turn, even when the page is closed.");
}

async function enable() {
  enableButton.disabled = true;
  try {
    const player = await ensurePlayer(() => askName());
    if (!player) return;
    const permission = await Notification.requestPermission();
    if (permission !== "granted") {
      say("Notifications are blocked for this site in your browser's settings.");
      return;
    }
    const registration = await navigator.serviceWorker.register("/sw.js", { scope: "/" });
    await navigator.serviceWorker.ready;
    const { key } = await api("GET", "/push/key");
    const serverKey = keyBytes(key);
    let subscription = await registration.pushManager.getSubscription();
    if (subscription && !sameKey(subscription, serverKey)) {
      await subscription.unsubscribe();
      subscription = null;
    }
    if (!subscription) {
      try {
        subscription = await registration.pushManager.subscribe({
          userVisibleOnly: true,
          applicationServerKey: serverKey,
        });
      } catch {
        say("This browser could not subscribe to notifications.");
        return;
      }
    }
    await api("POST", "/push/subscriptions", subscription.toJSON());
    say("Done: you will be told when it is your turn.");
  } catch (error) {
    say(error instanceof ApiError ? error.message : "Notifications could not be turned on.");
  } finally {
    enableButton.disabled = false;
    await show();
  }
}

async function disable() {
  disableButton.disabled = true;
  try {
    const subscription = await currentSubscription();
    if (subscription) {
      await api("DELETE", "/push/subscriptions", { endpoint: subscription.endpoint });
      await subscription.unsubscribe();
    }
    say("Notifications are off in this browser.");
  } catch (error) {
    say(error instanceof ApiError ? error.message : "Notifications could not be turned off.");
  } finally {
    disableButton.disabled = false;
    await show();
  }
}

if (enableButton && disableButton) {
  if (!supported()) {
    enableButton.disabled = true;
    say("This browser cannot show notifications from a closed page.");
  } else {
    enableButton.addEventListener("click", enable);
    disableButton.addEventListener("click", disable);
    show();
  }
}
