// The service worker of Web Push (docs/protocol.md, section 17), served at /sw.js so that its
// scope is the whole site. A push carries {title, body, url, tag}: it is shown as a
// notification unless a focused window already shows that page; a click on it focuses a
// window on the page, or opens one.

function sameOrigin(url) {
  try {
    const target = new URL(url, self.location.origin);
    return target.origin === self.location.origin ? target.href : null;
  } catch {
    return null;
  }
}

self.addEventListener("install", () => self.skipWaiting());
self.addEventListener("activate", (event) => event.waitUntil(self.clients.claim()));

self.addEventListener("push", (event) => {
  let data = {};
  try {
    data = event.data ? event.data.json() : {};
  } catch {
    data = { title: event.data ? event.data.text() : "" };
  }
  const title = typeof data.title === "string" && data.title ? data.title : "Arcade Night";
  const body = typeof data.body === "string" ? data.body : "";
  const url = sameOrigin(typeof data.url === "string" ? data.url : "/") || self.location.origin + "/";
  const tag = typeof data.tag === "string" ? data.tag : undefined;
  event.waitUntil(
    self.clients.matchAll({ type: "window", includeUncontrolled: true }).then((windows) => {
      if (windows.some((w) => w.focused && w.url === url)) return undefined;
      return self.registration.showNotification(title, {
        body,
        tag,
        data: { url },
        icon: "/static/favicon.svg",
      });
    }),
  );
});

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const url = sameOrigin(event.notification.data && event.notification.data.url) ||
    self.location.origin + "/";
  event.waitUntil(
    self.clients.matchAll({ type: "window", includeUncontrolled: true }).then((windows) => {
      const open = windows.find((w) => w.url === url);
      if (open) return open.focus();
      return self.clients.openWindow(url);
    }),
  );
});
