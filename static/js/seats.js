// Seats that are not simply a friend at her screen: a computer player (a bot seat), a friend
// who is away, and a computer playing for her meanwhile (issue 15). One look for them on
// every page that lists seats.

import { h, svg } from "./ui.js";

export const BOT_LEVEL_WORDS = { easy: "easy", normal: "normal" };

/** The turn timer choices a host has, in seconds (null: no timer). */
export const TURN_TIMERS = [
  [null, "Off"], [30, "30 s"], [60, "1 min"], [120, "2 min"], [300, "5 min"], [600, "10 min"],
];
/** A turn-based match's time per move (docs/protocol.md 7.4): nobody needs to be online. */
export const TURN_BASED_TIMERS = [
  [3600, "1 hour"], [28800, "8 hours"], [86400, "1 day"], [259200, "3 days"], [604800, "1 week"],
];

/** "Computer (normal)": what a bot seat is called when the server gave no name. */
export function botName(level) {
  return `Computer (${BOT_LEVEL_WORDS[level] || level})`;
}

/** A little monitor: the sign of a computer player wherever seats are listed. */
export function computerIcon() {
  return svg("svg", { class: "computer-icon", viewBox: "0 0 16 16", "aria-hidden": "true", "shape-rendering": "crispEdges" },
    svg("rect", { x: 1, y: 2, width: 14, height: 9, rx: 1, fill: "currentColor" }),
    svg("rect", { x: 3, y: 4, width: 10, height: 5, fill: "#120e3a" }),
    svg("rect", { x: 5, y: 6, width: 2, height: 1, fill: "currentColor" }),
    svg("rect", { x: 9, y: 6, width: 2, height: 1, fill: "currentColor" }),
    svg("rect", { x: 6, y: 12, width: 4, height: 1, fill: "currentColor" }),
    svg("rect", { x: 4, y: 13, width: 8, height: 2, fill: "currentColor" }),
  );
}

/** The badge beside a bot seat's name: the icon and the word, read out as "computer player". */
export function computerBadge(extra = "") {
  return h("span", { class: `tag computer-tag${extra ? ` ${extra}` : ""}`, "data-testid": "computer-badge", title: "computer player" },
    computerIcon(), "computer");
}

/** A seat's name with the computer's badge in front when a computer plays it. */
export function seatNameWithBadge(seat) {
  if (!seat?.bot) return seat?.name || "?";
  return h("span", { class: "bot-name", "data-testid": "bot-name" }, computerIcon(), seat.name || botName(seat.bot));
}

/** Seconds since an ISO time (never negative: the browser's clock may run a little behind). */
export function secondsSince(iso, now = Date.now()) {
  const then = iso ? new Date(iso).getTime() : NaN;
  return Number.isNaN(then) ? 0 : Math.max(0, Math.floor((now - then) / 1000));
}

/** "40 s", "2 min", "3 h": how long someone has been away. */
export function durationWords(seconds) {
  if (seconds < 60) return `${seconds} s`;
  const m = Math.floor(seconds / 60);
  if (m < 60) return `${m} min`;
  const hours = Math.floor(m / 60);
  return hours < 48 ? `${hours} h` : `${Math.floor(hours / 24)} days`;
}

/** "away 40 s", "away 2 min", "away 3 h" */
export function awayWords(iso, now = Date.now()) {
  return `away ${durationWords(secondsSince(iso, now))}`;
}

/** "45 s", "1:05", "10:00": what is left of a clock, in the banner. */
export function clockWords(seconds) {
  if (seconds < 60) return `${seconds} s`;
  if (seconds < 3600) return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, "0")}`;
  // A turn-based clock: hours and minutes, or days and hours.
  const hours = Math.floor(seconds / 3600);
  if (hours < 24) return `${hours} h ${String(Math.floor((seconds % 3600) / 60)).padStart(2, "0")} min`;
  return `${Math.floor(hours / 24)} d ${hours % 24} h`;
}

/** "30 s", "1 min", ...: a turn timer in words; "off" without one. */
export function timerWords(seconds) {
  const known = [...TURN_TIMERS, ...TURN_BASED_TIMERS].find(([value]) => value === seconds);
  if (known) return seconds === null ? "off" : known[1];
  return seconds < 60 ? `${seconds} s` : `${Math.round(seconds / 60)} min`;
}
