// 2048's score: each merge scores the tile it makes (2 + 2 scores 4). The state has no score, and the page
// need not know the slides' rules: a slide's merges follow from the tiles it took and the tiles it left.
import { boardOf } from "./board.js";

/** The points of one slide, from the tile counts before and after it (chance's new tile not yet placed). */
function slidePoints(before, after) {
  const count = (cells) => cells.flat().filter(Boolean).reduce((m, v) => m.set(v, (m.get(v) || 0) + 1), new Map());
  const b = count(before), a = count(after);
  const values = [...new Set([...b.keys(), ...a.keys()])].sort((x, y) => x - y);
  let points = 0;
  const merged = new Map();  // value -> pairs of it merged (each made one tile of twice the value)
  for (const v of values) {
    // after(v) = before(v) - 2 pairs(v) + pairs(v / 2)
    const pairs = Math.max(0, ((b.get(v) || 0) + (merged.get(v / 2) || 0) - (a.get(v) || 0)) / 2);
    merged.set(v, pairs);
    points += pairs * 2 * v;
  }
  return points;
}

/** The score of the slides played since the position the line starts from. */
export function tileScore(line) {
  let score = 0;
  for (let i = 1; i < line.length; i++) {
    if (line[i - 1].info.to_move === "chance") continue;  // a new tile scores nothing
    const [before, after] = [boardOf(line[i - 1].state), boardOf(line[i].state)];
    if (before && after && before.kind === "tiles") score += slidePoints(before.cells, after.cells);
  }
  return score;
}
