// Real game positions in the watch view (issue 54 #3): a small tic-tac-toe position as the explicit tree
// that the watch view draws and tells, every node carrying its board. The search itself runs on the
// `tictactoe` game (the server's rules and trace); this tree only lays the moves out, in the game's
// natural order (cells 0..8, row-major), with each terminal state's utility for the player to move at
// the root, the value the trace reports.

const LINES = [[0, 1, 2], [3, 4, 5], [6, 7, 8], [0, 3, 6], [1, 4, 7], [2, 5, 8], [0, 4, 8], [2, 4, 6]];

/** The player to move on a 3 x 3 board (rows of "X", "O", "."): X moves first. */
export function toMove(cells) {
  const xs = cells.filter((c) => c === "X").length, os = cells.filter((c) => c === "O").length;
  return xs > os ? "O" : "X";
}

function winner(cells) {
  const line = LINES.find(([a, b, c]) => cells[a] !== "." && cells[a] === cells[b] && cells[b] === cells[c]);
  return line ? cells[line[0]] : null;
}

/** The game tree below a tic-tac-toe `state` ({board: three rows}), as a `tree` game root: MAX where the
 * root's player moves, each child's `move` its cell, each node's `board` its nine cells. */
export function ticTacToeTree(state) {
  const cells = state.board.join("").split("");
  const me = toMove(cells);
  const build = (board, move) => {
    const node = move === undefined ? {} : { move };
    node.board = board.join("");
    const won = winner(board);
    const empty = board.flatMap((c, i) => (c === "." ? [i] : []));
    if (won || !empty.length) {
      node.value = won === null ? 0 : won === me ? 1 : -1;
      return node;
    }
    const mover = toMove(board);
    node.type = mover === me ? "max" : "min";
    node.children = empty.map((i) => build(board.map((c, j) => (j === i ? mover : c)), i));
    return node;
  };
  return build(cells);
}
