// A game position drawn small, for a node of the watch view's tree: the play view's own renderers
// (board.js's grid for Connect Four, Othello and 2048, maze.js's maze for Pacman) drawn into a detached
// box, their SVG then nested at `size` pixels on its longer side.
import { boardOf, drawGrid } from "./board.js";
import { drawMaze, isMaze } from "./maze.js";

/** The SVG of `state`, at most `size` pixels wide and high, placed with its top left corner at (x, y);
 * null for a state that is neither a board nor a maze. */
export function miniPosition(state, { x, y, size }) {
  const box = document.createElement("div");
  let drawn = null;
  if (isMaze(state)) drawn = drawMaze(box, state);
  else if (boardOf(state)) drawn = drawGrid(box, boardOf(state));
  if (!drawn) return null;
  const [, , w, h] = drawn.getAttribute("viewBox").split(" ").map(Number);
  const scale = size / Math.max(w, h);
  for (const name of ["role", "aria-label", "data-testid"]) drawn.removeAttribute(name);  // the node is labelled
  drawn.setAttribute("x", x);
  drawn.setAttribute("y", y);
  drawn.setAttribute("width", w * scale);
  drawn.setAttribute("height", h * scale);
  drawn.classList.add("mini-position");
  return drawn;
}
