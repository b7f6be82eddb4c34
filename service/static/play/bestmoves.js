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
 * buttons do, `onPick(move)` marks that move on the board, and `onFollow(pv, plies)` goes down the line
 * `pv` to its `plies`-th move (each move of a line is a button).
 */
export function drawBestLines(list, answer, label, onPick, onFollow) {
  list.replaceChildren(...(answer.lines || []).map((line) => {
    const name = label(line.move);
    const button = html("button", { type: "button", class: "best-move", "aria-label": `mark ${name} on the board` }, name);
    button.addEventListener("click", () => onPick(line.move));
    const value = `${scoreText(line.score)}${line.bound === "estimate" ? " (mean)" : ""}`;
    const words = line.pv_san || line.pv.map(moveText);
    const pv = html("span", { class: "best-line" });
    words.forEach((word, i) => {
      const step = html("button", { type: "button", class: "line-move", "data-plies": String(i + 1),
                                    "aria-label": `go down the line to ${word}` }, word);
      step.addEventListener("click", () => onFollow(line.pv.slice(0, words.length), i + 1));
      pv.append(...(i ? [" ", step] : [step]));
    });
    const item = html("li", { "data-move": JSON.stringify(line.move) });
    item.append(button, html("span", { class: "best-value" }, value), pv);
    return item;
  }));
}
