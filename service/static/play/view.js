// The position on the page: its board (whatever the state draws as), the legal moves as buttons, and the
// help line for that kind of board.
import { drawBackgammon, isBackgammon } from "./backgammon.js";
import { boardOf, drawGrid, playsByColumn, targetsOf } from "./board.js";
import { helpFor } from "./help.js";
import { drawMaze, isMaze } from "./maze.js";
import { moveLabels } from "./notation.js";
import { drawTree } from "./tree.js";
import { formatNumber, html } from "./svg.js";

/** The cells a move touches on `board` (from the state before it), for marking: the last move, a hint. */
function cellsOf(move, board, moveSchema) {
  const t = move === undefined ? null : targetsOf(move, board, moveSchema);
  if (!t) return [];
  if (t.from !== null) return [t.from, ...t.to];
  return t.to.length === 1 ? t.to : [];
}

/**
 * Draw `position` ({state, info, move}; `previous` the one before it, if any) into the board area and the
 * move buttons. `onMove(move)` plays a move (null: no move now); `hint` is a move to mark. Returns the kind
 * of board drawn (a key of help.js).
 */
export function drawPosition(area, buttons, position, previous, game, { onMove, hint }) {
  const { state, info } = position;
  const labels = moveLabels(info);
  const board = boardOf(state);
  let kind;
  if (isMaze(state)) {
    drawMaze(area, state);
    kind = "maze";
  } else if (isBackgammon(state)) {
    drawBackgammon(area, state);
    kind = "backgammon";
  } else if (board) {
    const before = previous ? boardOf(previous.state) || board : board;
    const lastCells = previous ? cellsOf(position.move, before, game.move_schema) : [];
    const hintCells = hint === undefined ? [] : cellsOf(hint, board, game.move_schema);
    drawGrid(area, board, { moves: info.moves.map((move, i) => ({ move, label: labels[i] })),
                            moveSchema: game.move_schema, onMove, lastCells, hintCells });
    kind = board.kind === "plain" && playsByColumn(board, game.move_schema) ? "column" : board.kind;
  } else if (state && state.root) {
    drawTree(area, state.root, { onChild: onMove });
    kind = "tree";
  } else {
    area.replaceChildren(html("p", { class: "hint" }, "This game's state has no board the page can draw; "
                                   + "play with the move buttons below."));
    kind = "none";
  }
  buttons.replaceChildren(...info.moves.map((m, i) => {
    const button = html("button", { "data-move": JSON.stringify(m) }, labels[i]);
    if (info.probabilities) button.title = `probability ${formatNumber(info.probabilities[i])}`;
    if (hint !== undefined && JSON.stringify(hint) === JSON.stringify(m)) button.classList.add("hinted");
    button.disabled = !onMove;
    button.addEventListener("click", () => { if (onMove) onMove(m); });  // a click on a disabled button may still come
    return button;
  }));
  return helpFor(kind);
}
