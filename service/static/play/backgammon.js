// A backgammon board drawn from the state: "points" (24 counts, X's positive, point 1 first, counted from
// X's side), "bar", "off" and "dice". X's home board (points 1-6) is at the bottom right, as X sees it.
// Plays are chosen with the buttons below the board, in the API's standard notation. The dice are drawn
// beside the board, by the checkers borne off, clear of the point numbers; a legend says which colour is X.
import { html, svg } from "./svg.js";

const W = 30, STACK = 5, H = W * STACK + 10, GAP = 30, DIE = 24;
const SIDES = { X: ["#b3261e", "#fff"], O: ["#f5ecd7", "#222"] };

export function isBackgammon(state) {
  return Boolean(state) && Array.isArray(state.points) && state.points.length === 24;
}

/** [column, top] of point n (1-24): columns 0-5 and 7-12, column 6 the bar, 13 the checkers borne off. */
function placeOf(n) {
  if (n <= 12) return [n <= 6 ? 13 - n : 12 - n, false];
  return [n <= 18 ? n - 13 : n - 12, true];
}

function stack(root, x, top, count, side) {
  const [fill, ink] = SIDES[side];
  const shown = Math.min(count, STACK);
  for (let i = 0; i < shown; i++) {
    const cy = top ? W / 2 + i * W : 2 * H + GAP - W / 2 - i * W;
    root.append(svg("circle", { cx: x + W / 2, cy, r: W / 2 - 2, fill, class: "checker" }));
    if (i === shown - 1 && count > STACK) {
      root.append(svg("text", { x: x + W / 2, y: cy, class: "checker-count", fill: ink }, String(count)));
    }
  }
}

export function drawBackgammon(container, state) {
  const width = 16 * W, height = 2 * H + GAP;
  const root = svg("svg", { viewBox: `0 0 ${width} ${height}`, class: "backgammon", "data-testid": "backgammon",
                            role: "img", "aria-label": "backgammon board" });
  root.append(svg("rect", { width: 13 * W, height, class: "bg-board" }));
  root.append(svg("rect", { x: 6 * W, width: W, height, class: "bg-bar" }));
  for (let n = 1; n <= 24; n++) {
    const [column, top] = placeOf(n);
    const x = column * W;
    const tip = top ? H - 10 : H + GAP + 10;
    const base = top ? 0 : height;
    const g = svg("g", { "data-point": n, "data-count": String(state.points[n - 1]) });
    g.append(svg("polygon", { points: `${x},${base} ${x + W},${base} ${x + W / 2},${tip}`,
                              class: n % 2 ? "point odd" : "point even" }));
    g.append(svg("text", { x: x + W / 2, y: top ? H + 8 : H + GAP - 2, class: "point-number" }, String(n)));
    root.append(g);
    const count = state.points[n - 1];
    if (count) stack(g, x, top, Math.abs(count), count > 0 ? "X" : "O");
  }
  const bar = state.bar || {}, off = state.off || {};
  if (bar.O) stack(root, 6 * W, true, bar.O, "O");     // O enters at X's home board, from the top
  if (bar.X) stack(root, 6 * W, false, bar.X, "X");
  for (const [side, top] of [["O", true], ["X", false]]) {
    const y = top ? 16 : height - 8;
    root.append(svg("text", { x: 14.5 * W, y, class: "bg-off", "data-off": side }, `${side} off ${off[side] || 0}`));
  }
  drawDice(root, state, 14.5 * W, H + GAP / 2);
  container.replaceChildren(root, legend());
  return root;
}

/** The dice (or "to roll") of the side to move, centred on (x, y), in that side's colours. */
function drawDice(root, state, x, y) {
  const side = state.to_move === "O" ? "O" : "X";
  const [fill, ink] = SIDES[side];
  const g = svg("g", { class: "bg-dice", "data-testid": "dice", "data-side": side });
  g.append(svg("text", { x, y: y - DIE / 2 - 8, class: "bg-dice-label" }, `${state.to_move || "X"} to play`));
  const dice = Array.isArray(state.dice) ? state.dice : [];
  dice.forEach((pips, i) => {
    const left = x - dice.length * (DIE + 4) / 2 + i * (DIE + 4) + 2;
    g.append(svg("rect", { x: left, y: y - DIE / 2, width: DIE, height: DIE, rx: 4, fill, class: "die" }));
    g.append(svg("text", { x: left + DIE / 2, y, fill: ink, class: "die-pips" }, String(pips)));
  });
  if (!dice.length) g.append(svg("text", { x, y, class: "bg-dice-label" }, "to roll"));
  root.append(g);
}

/** Which colour is which side, and which way each moves. */
function legend() {
  const p = html("p", { class: "bg-legend", "data-testid": "bg-legend" });
  for (const [side, words] of [["X", "red, moves from 24 down to 1 (home: 1-6, bottom right)"],
                               ["O", "cream, moves from 1 up to 24 (home: 19-24, top right)"]]) {
    const item = html("span", { "data-side": side });
    item.append(html("span", { class: "swatch", style: `background: ${SIDES[side][0]}` }), ` ${side}: ${words}`);
    p.append(item, " ");
  }
  return p;
}
