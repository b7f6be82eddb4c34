// Grid boards drawn from the state alone: a "board" of strings (one character a cell: tic-tac-toe, Connect
// Four and any game that writes its board so) or of rows of numbers (2048). A click on a cell becomes a
// move when the game's moves are integers: a column index when the move schema allows no more moves than
// there are columns, else the row-major cell index. Games whose state has no such board are played with
// the legal-move buttons alone.
import { clickable, svg } from "./svg.js";

const CELL = 48;
// [fill, label] of the usual pieces: tic-tac-toe and Connect Four, draughts men and kings (b, w, B, W).
const PIECE_COLOURS = { X: ["#d9534f", "#fff"], O: ["#f0ad4e", "#fff"], b: ["#333", "#fff"],
                        w: ["#f3ead8", "#333"], B: ["#000", "#ffd700"], W: ["#fffaf0", "#b8860b"] };

/** {rows, cols, cells[r][c]} for a state with a grid board, else null. */
export function gridOf(state) {
  const board = state && state.board;
  if (!Array.isArray(board) || board.length === 0) return null;
  if (board.every((row) => typeof row === "string")) {
    const cols = board[0].length;
    if (!board.every((row) => row.length === cols)) return null;
    return { rows: board.length, cols, cells: board.map((row) => [...row]) };
  }
  if (board.every((row) => Array.isArray(row) && row.every((x) => typeof x === "number"))) {
    const cols = board[0].length;
    if (!board.every((row) => row.length === cols)) return null;
    return { rows: board.length, cols, cells: board };
  }
  return null;
}

/** The legal move a click on cell (r, c) plays, or undefined. */
export function moveForCell(grid, r, c, legalMoves, moveSchema) {
  if (!legalMoves.length || !legalMoves.every((m) => Number.isInteger(m))) return undefined;
  const byColumn = moveSchema && Number.isInteger(moveSchema.maximum) && moveSchema.maximum < grid.cols;
  const move = byColumn ? c : r * grid.cols + c;
  return legalMoves.includes(move) ? move : undefined;
}

/** [fill, label colour] of a piece: its usual colours, else a hue of its own. */
function coloursOf(piece) {
  if (PIECE_COLOURS[piece]) return PIECE_COLOURS[piece];
  let hash = 0;
  for (const ch of piece) hash = (hash * 31 + ch.charCodeAt(0)) % 360;
  return [`hsl(${hash}, 60%, 45%)`, "#fff"];
}

function tileColour(value) {
  if (!value) return "#cdc1b4";
  const level = Math.min(Math.log2(value), 16);
  return `hsl(${40 - level * 2.5}, ${50 + level * 3}%, ${88 - level * 4}%)`;
}

/** Draw the grid into `container`; `onMove(move)` is called for a click on a cell that plays a move. */
export function drawGrid(container, grid, { legalMoves = [], moveSchema = null, onMove = null, lastMove } = {}) {
  const width = grid.cols * CELL, height = grid.rows * CELL;
  const root = svg("svg", { viewBox: `0 0 ${width} ${height}`, class: "board", "data-testid": "board",
                            role: "grid", "aria-label": `board, ${grid.rows} by ${grid.cols}` });
  for (let r = 0; r < grid.rows; r++) {
    for (let c = 0; c < grid.cols; c++) {
      const value = grid.cells[r][c];
      const g = svg("g", { transform: `translate(${c * CELL},${r * CELL})`, "data-cell": r * grid.cols + c });
      const numeric = typeof value === "number";
      g.append(svg("rect", { width: CELL, height: CELL, class: "cell",
                             fill: numeric ? tileColour(value) : undefined }));
      if (numeric) {
        if (value) {
          g.append(svg("text", { x: CELL / 2, y: CELL / 2, class: "tile", "font-size": value >= 1000 ? 13 : 18 },
                       String(value)));
        }
      } else if (value !== ".") {
        const [fill, label] = coloursOf(value);
        g.append(svg("circle", { cx: CELL / 2, cy: CELL / 2, r: CELL * 0.38, fill, class: "piece" }));
        g.append(svg("text", { x: CELL / 2, y: CELL / 2, class: "piece-label", fill: label }, value));
        g.setAttribute("data-piece", value);
      }
      const move = onMove ? moveForCell(grid, r, c, legalMoves, moveSchema) : undefined;
      if (move !== undefined) {
        clickable(g, `play ${move} (row ${r + 1}, column ${c + 1})`, () => onMove(move));
        g.classList.add("playable");
      }
      if (lastMove !== undefined && lastMove === r * grid.cols + c) g.classList.add("last");
      root.append(g);
    }
  }
  container.replaceChildren(root);
  return root;
}
