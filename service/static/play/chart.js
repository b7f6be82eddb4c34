// The root moves' chart: every root move's value as a horizontal bar, from the lowest value to the highest
// (MCTS: its visits, which choose its move), with a line under it saying what the values are (exact,
// bounds, estimates).
import { formatDistinct, formatNumber, html, svg } from "./svg.js";

const ROW = 22, BAR = 220, NOTE = 170, CHAR = 7;  // CHAR: the width of a label's character, at most
const VISITS = "bars: the visits of each move, most visited first; MCTS plays the most visited move";
const BOUND_SIGN = { lower: "≥ ", upper: "≤ " };
const MEANINGS = {
  exact: "exact: the move's value, searched in full to the depth reached",
  lower: "≥ (lower bound): the move is worth at least this; the search stopped once it knew enough",
  upper: "≤ (upper bound): the move is worth at most this; alpha-beta cut it off once it could not be best",
  estimate: "estimate: the mean result of the move's visits (MCTS)",
};

/**
 * Draw the chart of `moves` (the answer's root moves) into `container`; `chosen` is the move played and
 * `label(move)` writes a move as the position's buttons do. An MCTS answer's bars are its visits, most
 * visited first (its choice), the mean value written beside each; other answers' bars are the values.
 */
export function drawBars(container, moves, chosen, label) {
  if (!moves.length) {
    container.replaceChildren();
    return;
  }
  const byVisits = moves.every((m) => typeof m.visits === "number");
  if (byVisits) moves = [...moves].sort((a, b) => b.visits - a.visits);
  const values = moves.map((m) => m.value);
  const texts = formatDistinct(values);  // enough digits to tell the values apart
  const lengths = byVisits ? moves.map((m) => m.visits) : values;
  const labels = moves.map((m) => label(m.move));
  const labelWidth = Math.max(40, ...labels.map((l) => l.length * CHAR)) + 8;
  let lo = Math.min(0, ...lengths), hi = Math.max(0, ...lengths);
  if (hi - lo < 1e-9) { lo -= 1; hi += 1; }
  const width = labelWidth + BAR + NOTE, height = moves.length * ROW + 4;
  const scale = (v) => labelWidth + ((v - lo) / (hi - lo)) * BAR;
  const chart = svg("svg", { viewBox: `0 0 ${width} ${height}`, class: "bars", role: "img", "data-scale": byVisits ? "visits" : "value",
                             "aria-label": byVisits ? "visits of every root move" : "value of every root move" });
  moves.forEach((m, i) => {
    const y = i * ROW + 2;
    const x0 = scale(0), x1 = scale(lengths[i]);
    const best = JSON.stringify(m.move) === JSON.stringify(chosen);
    chart.append(svg("text", { x: labelWidth - 6, y: y + 15, class: "bar-label", "text-anchor": "end" }, labels[i]));
    chart.append(svg("rect", { x: Math.min(x0, x1), y: y + 3, width: Math.max(1, Math.abs(x1 - x0)),
                               height: ROW - 6, class: `bar ${m.bound}${best ? " best" : ""}`,
                               "data-move": JSON.stringify(m.move), "data-bound": m.bound,
                               ...(byVisits ? { "data-visits": String(m.visits) } : {}) }));
    const note = `${BOUND_SIGN[m.bound] || ""}${texts[i]}`
                 + `${byVisits ? ` · ${formatNumber(m.visits)} visits` : ""}`;
    chart.append(svg("text", { x: labelWidth + BAR + 6, y: y + 15, class: "bar-value" }, note));
  });
  chart.append(svg("line", { x1: scale(0), x2: scale(0), y1: 0, y2: height, class: "axis" }));
  const kinds = [...new Set(moves.map((m) => m.bound))].filter((b) => MEANINGS[b]);
  const legend = html("ul", { class: "bars-legend", "data-testid": "bars-legend" });
  legend.append(...kinds.map((b) => html("li", { "data-bound": b }, MEANINGS[b])));
  if (byVisits) legend.append(html("li", { "data-scale": "visits" }, VISITS));
  container.replaceChildren(chart, legend);
}
