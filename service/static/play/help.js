// The help line under the board: how to play what is drawn there.
const HELP = {
  chess: "Click a piece, then a dotted square to move it there (or use the move buttons).",
  draughts: "Click a man or king, then where it lands; a multi-jump is its first and last square.",
  othello: "Click a dotted square to place a disc; the discs you outflank turn over.",
  go: "Click a point to place a stone (Pass is a button below); two passes in a row end the game.",
  column: "Click a column to drop a disc; four in a row wins.",
  plain: "Click an empty square to play there.",
  tiles: "Slide the tiles with the arrow keys or the buttons; equal tiles merge and the score grows.",
  maze: "Move Pacman with the arrow keys (Space stops) or the buttons: eat every dot, avoid the ghosts.",
  backgammon: "Chance rolls the dice; choose your play from the buttons below the board.",
  tree: "Click a child node, or its button, to take that branch.",
  none: "Play with the move buttons below.",
};

/** The help for a board of this kind (a key of HELP; unknown kinds get the move buttons' help). */
export function helpFor(kind) {
  return HELP[kind] || HELP.none;
}
