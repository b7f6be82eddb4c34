// The position on the page: its board (whatever the state draws as), the legal moves as buttons, and the
// help line for that kind of board.
import { drawBackgammon, isBackgammon } from "./backgammon.js";
import { boardOf, drawGrid, lineThrough, playsByColumn, targetsOf } from "./board.js";
import { helpFor } from "./help.js";
import { tileScore } from "./tiles.js";
import { drawMaze, isMaze } from "./maze.js";
import { moveLabels } from "./notation.js";
import { drawTree } from "./tree.js";
import { formatNumber, html } from "./svg.js";

/**
 * The cells a move touches on `board` (the board before it), for marking: the last move, a hint. A
 * column's move marks the cell it filled, where the board after it (`after`) is known.
 */
function cellsOf(move, board, moveSchema, after = null) {
  const t = move === undefined ? null : targetsOf(move, board, moveSchema);
  if (!t) return [];
  if (t.from !== null) return [t.from, ...t.to];
  if (t.to.length === 1) return t.to;
  const filled = (b, i) => b.cells[Math.floor(i / b.cols)][i % b.cols] !== ".";
  return after ? t.to.filter((i) => !filled(board, i) && filled(after, i)) : [];
}

/** Whether the game ended with a winner (utilities not all equal). */
function won(info) {
  return info.terminal && new Set(Object.values(info.utilities || {})).size > 1;
}

/**
 * Draw the position at the end of `history` ([{state, info, move}], the positions played to it) into the
 * board area and the move buttons. `onMove(move)` plays a move (null: no move now); `hint` is a move to mark; `second`: the
 * human plays the second player (a chess board is then turned round); `arrows`, moves to draw as arrows on a
 * board ([{move, kind, rank?}]: board.js). Returns the help for the board.
 */
export function drawPosition(area, buttons, history, game, { onMove, hint, second, arrows = [] }) {
  const position = history[history.length - 1], previous = history[history.length - 2];
  const { state, info } = position;
  const labels = moveLabels(info);
  const board = boardOf(state, info);
  let kind;
  if (isMaze(state)) {
    drawMaze(area, state);
    kind = "maze";
  } else if (isBackgammon(state)) {
    drawBackgammon(area, state);
    kind = "backgammon";
  } else if (board) {
    const before = previous ? boardOf(previous.state, previous.info) || board : board;
    const last = previous ? cellsOf(position.move, before, game.move_schema, board) : [];
    kind = board.kind === "plain" && playsByColumn(board, game.move_schema) ? "column" : board.kind;
    const marks = { last, hinted: hint === undefined ? [] : cellsOf(hint, board, game.move_schema) };
    // k in a row (tic-tac-toe, Connect Four): the line the winning move completed.
    if (["plain", "column"].includes(kind) && won(info) && last.length === 1) marks.win = lineThrough(board, last[0]);
    drawGrid(area, board, { moves: info.legal_moves.map((move, i) => ({ move, label: labels[i] })),
                            moveSchema: game.move_schema, onMove, marks, arrows,
                            flipped: board.kind === "chess" && second });
    if (kind === "tiles") {
      area.prepend(html("p", { class: "tile-score", "data-testid": "tile-score" }, `Score ${tileScore(history)}`));
    }
  } else if (state && state.root) {
    drawTree(area, state.root, { onChild: onMove });
    kind = "tree";
  } else {
    area.replaceChildren(html("p", { class: "hint" }, "This game's state has no board the page can draw; "
                                   + "play with the move buttons below."));
    kind = "none";
  }
  buttons.replaceChildren(...info.legal_moves.map((m, i) => {
    const button = html("button", { "data-move": JSON.stringify(m) }, labels[i]);
    if (info.probabilities) button.title = `probability ${formatNumber(info.probabilities[i])}`;
    if (hint !== undefined && JSON.stringify(hint) === JSON.stringify(m)) button.classList.add("hinted");
    button.disabled = !onMove;
    button.addEventListener("click", () => { if (onMove) onMove(m); });  // a click on a disabled button may still come
    return button;
  }));
  return helpFor(kind);
}
