// The "Best moves" panel: a multi-PV search's lines (`algorithm.multi_pv`), best first: each root move, its
// value from the mover's side, and the line the search expects after it.
import { scoreText } from "./evalbar.js";
import { html, moveText } from "./svg.js";

// The algorithms that value several root moves exactly (openapi.yaml: `algorithm.multi_pv`).
const MULTI_PV = ["alphabeta", "expectimax", "mcts"];

/** The algorithm of the panel's search: the one chosen when it takes multi_pv, else the game's first that does. */
export function multiPvAlgorithm(chosen, game) {
  return MULTI_PV.includes(chosen) ? chosen : MULTI_PV.find((a) => game.algorithms.includes(a));
}

/**
 * Fill the <ol> `list` with the answer's `lines`; `label(move)` writes a root move as the position's
 * buttons do, and `onPick(move)` marks that move on the board.
 */
export function drawBestLines(list, answer, label, onPick) {
  list.replaceChildren(...(answer.lines || []).map((line) => {
    const name = label(line.move);
    const button = html("button", { type: "button", class: "best-move", "aria-label": `mark ${name} on the board` }, name);
    button.addEventListener("click", () => onPick(line.move));
    const value = `${scoreText(line.score)}${line.bound === "estimate" ? " (mean)" : ""}`;
    const pv = (line.pv_san || line.pv.map(moveText)).join(" ");
    const item = html("li", { "data-move": JSON.stringify(line.move) });
    item.append(button, html("span", { class: "best-value" }, value), html("span", { class: "best-line" }, pv));
    return item;
  }));
}
