// Moves in the game's own notation (chess: SAN). The rules give it for the legal moves of a position (an
// array beside `moves`, such as `san`) and for a move just played (`played_san`); a streamed search's
// progress gives its line as moves only, so the page has each move of it written by the rules.
import { postJSON } from "./api.js";
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
function outcomeText(move) {
  if (move && typeof move === "object" && Array.isArray(move.cell) && move.tile !== undefined) {
    return `${move.tile} at ${String.fromCharCode(97 + move.cell[1])}${move.cell[0] + 1}`;
  }
  return moveText(move);
}

/**
 * Writes lines of moves from one position in its notation: each move by the rules' `apply`, in the
 * position after the moves before it. Each answer is kept by the line up to it, so that a line grown by
 * a ply costs one request and a line seen before none.
 */
export class LineWriter {
  /** `rules(body)` completes a rules request (the game's options); `position` is {state, info}. */
  constructor(gameId, position, rules) {
    this.url = `/v1/games/${encodeURIComponent(gameId)}/apply`;
    this.notation = notationOf(position.info);
    this.root = { state: position.state };
    this.rules = rules;
    this.answers = new Map();
  }

  /** The line's moves as text: in the notation, else as the moves themselves. */
  async write(line) {
    if (!this.notation) return line.map(moveText);
    let before = Promise.resolve(this.root);
    const written = [];
    for (let i = 0; i < line.length; i++) {
      const key = JSON.stringify(line.slice(0, i + 1));
      if (!this.answers.has(key)) {
        const move = line[i];
        this.answers.set(key, before.then((answer) => postJSON(this.url, this.rules({ state: answer.state, move }))));
      }
      before = this.answers.get(key);
      written.push(before.then((answer) => answer[`played_${this.notation}`]));
    }
    return Promise.all(written);
  }
}
