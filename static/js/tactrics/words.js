// Words and colours the four Tactrics games share (rulings V2 and V10:
// docs/rules/families/tactrics-rulings.md).

import { GEOMETRY } from "./geometry.js";

export const COLOURS = {
  red: "#e9564b", yellow: "#f2cf3a", blue: "#5b8cff", green: "#53c35c",
  orange: "#ff9f43", grey: "#a9a7bd", black: "#1b1b24",
};
// Every colour's letter, on its routers, controllers and legend chips, so players who do not
// tell the colours apart read whose piece it is (two letters where initials would clash).
export const COLOUR_LETTERS = {
  red: "R", yellow: "Y", blue: "B", green: "G", orange: "O", grey: "Gy", black: "Bk",
};
export const DIRECTION_WORDS = { cw: "clockwise", ccw: "anticlockwise" };

export function capitalize(word) {
  return word ? word.charAt(0).toUpperCase() + word.slice(1) : "";
}

export function colourCss(colour) {
  return COLOURS[colour] || "var(--accent)";
}

export function colourLetter(colour) {
  return COLOUR_LETTERS[colour] || "?";
}

/** Colours that need light marks (letters, outlines) to show on them and on the dark board. */
export function isDarkColour(colour) {
  return colour === "black";
}

/** One legal move in words, for buttons and titles. */
export function describeMove(move, board) {
  switch (move.type) {
    case "rotate":
      return `Turn ${move.tower} ${DIRECTION_WORDS[move.direction]}${move.reserve ? " (spends a reserve controller)" : ""}`;
    case "place": return `Put a controller on your router at ${move.slot}`;
    case "claim": {
      const claimant = board?.claims?.[GEOMETRY.tower_ids.indexOf(move.tower)];
      const capture = move.to ? `, her controller to ${move.to}` : "";
      return `${claimant !== null && claimant !== undefined ? "Capture" : "Claim"} ${move.tower} with the controller from ${move.slot}${capture}`;
    }
    case "move_controller": return `Move the controller from ${move.from} to ${move.to}`;
    case "take_back": return `Take the controller back from ${move.tower} to ${move.to} (whole turn)`;
    case "undo": return "Undo";
    case "confirm": return "End turn";
    default: return move.type;
  }
}
