// The review's evaluation graph: the position's worth after each decision judged, over the plies of the
// game, from the first player's point of view (the win probability where the game has one, else the
// value); every point a button to the position after its move, the inaccuracies, mistakes and blunders
// marked larger, and the position shown as a vertical line.
import { flips } from "./evalbar.js";
import { clickable, formatNumber, svg } from "./svg.js";

const WIDTH = 400, HEIGHT = 130, PAD = 8;
/** The classes marked (and worth going back to): the moves that gave something up. */
export const MARKED = new Set(["inaccuracy", "mistake", "blunder"]);

/** The ply's worth after the move, from the first player's point of view, on `scale`. */
function worth(ply, game, scale) {
  const flip = flips(ply.player, game);
  if (scale === "probability") return flip ? 1 - ply.win_probability_after : ply.win_probability_after;
  return flip ? -ply.value_after : ply.value_after;
}

/**
 * Draw into `container` the graph of `plies` (ReviewPly objects, in order) of a game of `length` plies;
 * `shown` is the number of plies played to the position shown, `label(ply)` names a judged move, and
 * `onGo(n)` shows the position after `n` plies.
 */
export function drawReviewGraph(container, plies, game, { length, shown, label, onGo }) {
  if (!plies.length) {
    container.replaceChildren();
    return;
  }
  const scale = plies.every((p) => typeof p.win_probability_after === "number") ? "probability" : "value";
  const ys = plies.map((p) => worth(p, game, scale));
  let [lo, hi] = scale === "probability" ? [0, 1] : [Math.min(0, ...ys), Math.max(0, ...ys)];
  if (hi - lo < 1e-9) { lo -= 1; hi += 1; }
  const x = (n) => PAD + (n / Math.max(1, length)) * (WIDTH - 2 * PAD);
  const y = (v) => PAD + ((hi - v) / (hi - lo)) * (HEIGHT - 2 * PAD);
  const even = scale === "probability" ? 0.5 : 0;
  const first = game.players[0];
  const chart = svg("svg", { viewBox: `0 0 ${WIDTH} ${HEIGHT}`, class: "review-graph", role: "group",
                             "data-scale": scale,
                             "aria-label": `${first}'s ${scale === "probability" ? "winning chances" : "evaluation"} over the game` });
  chart.append(svg("rect", { x: 0, y: 0, width: WIDTH, height: HEIGHT, class: "graph-paper" }));
  chart.append(svg("line", { x1: PAD, x2: WIDTH - PAD, y1: y(even), y2: y(even), class: "axis" }));
  chart.append(svg("line", { x1: x(shown), x2: x(shown), y1: 0, y2: HEIGHT, class: "now", "data-shown": String(shown) }));
  const [top, bottom] = scale === "probability" ? [`${first} wins`, `${first} loses`] : [formatNumber(hi), formatNumber(lo)];
  chart.append(svg("text", { x: PAD + 2, y: PAD + 10, class: "graph-label" }, top),
               svg("text", { x: PAD + 2, y: HEIGHT - PAD - 2, class: "graph-label" }, bottom));
  const points = plies.map((p, i) => `${x(p.ply + 1)},${y(ys[i])}`);
  chart.append(svg("polyline", { points: points.join(" "), class: "trace" }));
  plies.forEach((p, i) => {
    const marked = MARKED.has(p.class);
    const dot = svg("circle", { cx: x(p.ply + 1), cy: y(ys[i]), r: marked ? 5 : 3.5, class: `point ${p.class}`,
                                "data-ply": String(p.ply + 1), "data-class": p.class });
    dot.append(svg("title", {}, `${p.ply + 1}. ${label(p)}: ${p.class}`));
    clickable(dot, `${label(p)}: ${p.class}; show the position after it`, () => onGo(p.ply + 1));
    chart.append(dot);
  });
  container.replaceChildren(chart);
}
