// Moves in the game's own notation (chess: SAN). The rules give it for the legal moves of a position (an
// array beside `moves`, such as `san`) and for a move just played (`played_san`); a search writes its lines
// in it too (`pv_san`, in its progress as in its answer).
import { moveText } from "./svg.js";

// The lists of a rules answer that are not the legal moves in a notation (openapi.yaml's Position).
const NOT_NOTATION = ["legal_moves", "players", "probabilities", "plays"];

/**
 * The name of the position's notation (the array of strings beside `legal_moves`, one a move: chess's `san`), or
 * null. Backgammon's `plays` (each play's steps, objects) is no notation.
 */
function notationOf(info) {
  return Object.keys(info).find((k) => !NOT_NOTATION.includes(k) && Array.isArray(info[k])
                                       && info[k].length === info.legal_moves.length
                                       && info[k].every((x) => typeof x === "string")) || null;
}

/** Each legal move as people write it: in the game's notation where the rules give one (chess: SAN). */
export function moveLabels(info) {
  const notation = notationOf(info);
  return info.legal_moves.map((m, i) => (notation ? info[notation][i] : outcomeText(m)));
}

/** `move` as the legal moves of the position `info` write it (a move not among them: as text). */
export function moveLabel(info, move) {
  const index = info.legal_moves.findIndex((m) => JSON.stringify(m) === JSON.stringify(move));
  return index >= 0 ? moveLabels(info)[index] : moveText(move);
}

/** A move as text; 2048's new tile as "2 at b3" (its column letter and row from the top). */
export function outcomeText(move) {
  if (move && typeof move === "object" && Array.isArray(move.cell) && move.tile !== undefined) {
    return `${move.tile} at ${String.fromCharCode(97 + move.cell[1])}${move.cell[0] + 1}`;
  }
  return moveText(move);
}
