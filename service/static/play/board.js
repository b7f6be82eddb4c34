// Grid boards drawn from the state alone, and the cells a move touches, read from the move's own notation:
// - a "board" of strings, one character a cell (tic-tac-toe, Connect Four, Othello, draughts) or of rows
//   of numbers (2048); a chess "fen" is read into such a board; a Go state (its moves, or an SGF) is drawn
//   from the rules' answer for it, whose "board" is such rows ("X" black, "O" white);
// - a move that is an integer is a column (when the move schema allows no more moves than there are
//   columns) or a row-major cell index; a string of squares ("d3", "e2e4", "e7e8q") names cells by column
//   letter and row number (rows counted from the top of a "board", from the bottom of a FEN, as each
//   format has it); a string of numbers ("11-15", "26x17x10") names the dark squares of a draughts board,
//   numbered from the top left; on a Go board a GTP vertex ("E5": column A-T without I, row 1 at the
//   bottom) names its point.
// A move of one cell is played by a click on it; a move from one cell to another by a click on each (a
// choice comes up when several moves join the same two cells: promotions, alternative capture paths).
// Other moves (2048's slides, "pass") are played with the buttons below the board or the keyboard.
import { clickable, html, svg } from "./svg.js";

const CELL = 48;
const EDGE = 18;  // the margin of Othello's coordinates
// [fill, label] of the usual pieces: tic-tac-toe and Connect Four, draughts men and kings (b, w, B, W).
const PIECE_COLOURS = { X: ["#d9534f", "#fff"], O: ["#f0ad4e", "#fff"], b: ["#333", "#fff"],
                        w: ["#f3ead8", "#333"], B: ["#000", "#ffd700"], W: ["#fffaf0", "#b8860b"] };
// Chess pieces: the solid glyphs for both sides, filled white or black.
const CHESS_GLYPHS = { k: "♚", q: "♛", r: "♜", b: "♝", n: "♞", p: "♟" };
const SQUARES = /^(?:[a-h][1-8])+[qrbn]?$/;
const NUMBERED = /^\d+(?:[-x]\d+)+$/;
const DRAUGHTS_FEN = /^[BW]:[BW]/;
const GO_COLUMNS = "ABCDEFGHJKLMNOPQRST";
const VERTEX = /^[A-HJ-T]\d{1,2}$/i;

/** Whether `state` is a Go state: a board's size, komi or moves of GTP vertices, or an SGF. */
function isGo(state) {
  return Boolean(state) && !state.board && !state.fen
    && (typeof state.sgf === "string" || ["size", "komi", "handicap", "setup"].some((k) => k in state)
        || (Array.isArray(state.moves) && state.moves.every((m) => m === "pass" || VERTEX.test(m))));
}

/**
 * {rows, cols, cells[r][c], kind, square(name) -> [r, c]} for a state with a board, else null. A Go state
 * keeps only its moves: its board is the rules' answer's (`info`, when given).
 */
export function boardOf(state, info = null) {
  if (isGo(state) && info && Array.isArray(info.board)) {
    const size = info.board.length;
    const square = (name) => [size - Number(name.slice(1)), GO_COLUMNS.indexOf(name[0].toUpperCase())];
    return { rows: size, cols: size, cells: info.board.map((row) => [...row]), kind: "go", square };
  }
  if (state && typeof state.fen === "string") {
    return DRAUGHTS_FEN.test(state.fen.trim()) ? draughtsBoard(state.fen.trim())
      : chessBoard(state.fen, Array.isArray(state.moves) ? state.moves : []);
  }
  const board = state && state.board;
  if (!Array.isArray(board) || board.length === 0) return null;
  const cols = board[0].length;
  if (!board.every((row) => row.length === cols)) return null;
  const fromTop = (name) => [Number(name.slice(1)) - 1, name.charCodeAt(0) - 97];
  if (board.every((row) => typeof row === "string")) {
    const cells = board.map((row) => [...row]);
    const kind = isOthello(state, cells) ? "othello"
      : cells.flat().every((x) => "bwBW.".includes(x)) && cols % 2 === 0 ? "draughts" : "plain";
    return { rows: board.length, cols, cells, kind, square: fromTop };
  }
  if (board.every((row) => Array.isArray(row) && row.every((x) => typeof x === "number"))) {
    return { rows: board.length, cols, cells: board, kind: "tiles", square: fromTop };
  }
  return null;
}

/**
 * Othello: discs "B" and "W" only, and "B" or "W" to move (draughts' men are "b"/"w", and so is its side
 * to move; its kings alone are "B"/"W"). Its moves are squares ("d3"), rows counted from the top.
 */
function isOthello(state, cells) {
  if (!cells.flat().every((x) => "BW.".includes(x))) return false;
  return state.to_move === "B" || state.to_move === "W";
}

/** A chess board: the FEN's placement with the state's UCI `moves` (played from it) made on it. */
function chessBoard(fen, moves) {
  const ranks = fen.split(" ")[0].split("/");
  if (ranks.length !== 8) return null;
  const cells = ranks.map((rank) => [...rank.replace(/\d/g, (n) => ".".repeat(Number(n)))]);
  if (!cells.every((row) => row.length === 8)) return null;
  const square = (name) => [8 - Number(name.slice(1)), name.charCodeAt(0) - 97];
  for (const move of moves) {
    if (typeof move !== "string" || !SQUARES.test(move)) return null;
    const [[r0, c0], [r1, c1]] = [square(move.slice(0, 2)), square(move.slice(2, 4))];
    const piece = cells[r0][c0];
    if (piece.toLowerCase() === "p" && c0 !== c1 && cells[r1][c1] === ".") cells[r0][c1] = ".";  // en passant
    if (piece.toLowerCase() === "k" && Math.abs(c1 - c0) === 2) {                                // castling
      const [from, to] = c1 > c0 ? [7, 5] : [0, 3];
      [cells[r0][to], cells[r0][from]] = [cells[r0][from], "."];
    }
    const promoted = move[4];
    cells[r1][c1] = promoted ? (piece === piece.toUpperCase() ? promoted.toUpperCase() : promoted) : piece;
    cells[r0][c0] = ".";
  }
  return { rows: 8, cols: 8, cells, kind: "chess", square };
}

/** A draughts board from a PDN FEN ("B:W18,24,K10:B12,K22", ranges such as "B1-12" too). */
function draughtsBoard(fen) {
  const cells = [...Array(8)].map(() => Array(8).fill("."));
  const board = { rows: 8, cols: 8, cells, kind: "draughts", square: () => [-1, -1] };
  for (const part of fen.split(":").slice(1)) {
    const side = part[0].toLowerCase();
    for (const item of part.slice(1).split(",").filter(Boolean)) {
      const king = item.startsWith("K");
      const [lo, hi = lo] = item.replace("K", "").split("-").map(Number);
      for (let n = lo; n <= hi && n >= 1 && n <= 32; n++) {
        const cell = numberedCell(board, n);
        cells[Math.floor(cell / 8)][cell % 8] = king ? side.toUpperCase() : side;
      }
    }
  }
  return board;
}

/** The cell index of draughts square `n` (1 at the top left dark square, row by row). */
function numberedCell(board, n) {
  const perRow = board.cols / 2, r = Math.floor((n - 1) / perRow);
  return r * board.cols + 2 * ((n - 1) % perRow) + (r % 2 === 0 ? 1 : 0);
}

/** The cell a disc dropped in column `c` lands on: its lowest empty cell (-1: the column is full). */
function landingCell(board, c) {
  for (let r = board.rows - 1; r >= 0; r--) if (board.cells[r][c] === ".") return r * board.cols + c;
  return -1;
}

/**
 * The longest line of equal pieces through `cell` (row, column or diagonal), as cell indices: the line a
 * k-in-a-row game's last move completed.
 */
export function lineThrough(board, cell) {
  const r0 = Math.floor(cell / board.cols), c0 = cell % board.cols, piece = board.cells[r0][c0];
  let best = [cell];
  for (const [dr, dc] of [[0, 1], [1, 0], [1, 1], [1, -1]]) {
    const line = [cell];
    for (const sign of [1, -1]) {
      for (let r = r0 + sign * dr, c = c0 + sign * dc; r >= 0 && r < board.rows && c >= 0 && c < board.cols
           && board.cells[r][c] === piece; r += sign * dr, c += sign * dc) line.push(r * board.cols + c);
    }
    if (line.length > best.length) best = line;
  }
  return piece === "." ? [] : best;
}

/** Whether the game's integer moves are columns (no more moves than columns: Connect Four). */
export function playsByColumn(board, moveSchema) {
  return Boolean(moveSchema) && Number.isInteger(moveSchema.maximum) && moveSchema.maximum < board.cols;
}

/**
 * What a click plays: {from, to} cell indices (from null for a move of one click, whose `to` lists the
 * cells any of which plays it), or null for a move with no cell.
 */
export function targetsOf(move, board, moveSchema) {
  const size = board.rows * board.cols;
  const inside = (cells) => cells.every((i) => Number.isInteger(i) && i >= 0 && i < size);
  let cells = null;
  if (Number.isInteger(move)) {
    if (playsByColumn(board, moveSchema)) return { from: null, to: [...Array(board.rows).keys()].map((r) => r * board.cols + move) };
    cells = [move];
  } else if (typeof move === "string" && SQUARES.test(move)) {
    cells = move.match(/[a-h][1-8]/g).map((name) => {
      const [r, c] = board.square(name);
      return r >= 0 && r < board.rows && c < board.cols ? r * board.cols + c : -1;
    });
  } else if (typeof move === "string" && VERTEX.test(move) && board.kind === "go") {
    const [r, c] = board.square(move);
    cells = [r >= 0 && r < board.rows && c >= 0 && c < board.cols ? r * board.cols + c : -1];
  } else if (typeof move === "string" && NUMBERED.test(move) && board.kind === "draughts") {
    cells = move.split(/[-x]/).map((n) => numberedCell(board, Number(n)));
  }
  if (!cells || !inside(cells)) return null;
  return cells.length === 1 ? { from: null, to: cells } : { from: cells[0], to: [cells[cells.length - 1]] };
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

/** A tile's number in a size that fits its cell: 20px for two digits, down to 10px for six. */
function tileFontSize(value) {
  return [20, 20, 20, 17, 13, 11, 10][Math.min(String(value).length, 6)];
}

function drawPiece(g, board, value) {
  if (typeof value === "number") {
    if (value) {
      // Styles, not attributes: the style sheet's ".board .tile" and ".board .cell" win over attributes.
      g.append(svg("text", { x: CELL / 2, y: CELL / 2, class: value >= 128 ? "tile light" : "tile",
                             style: `font-size: ${tileFontSize(value)}px` }, String(value)));
      g.setAttribute("data-piece", String(value));
    }
    return;
  }
  if (value === ".") return;
  g.setAttribute("data-piece", value);
  if (board.kind === "chess") {
    const white = value === value.toUpperCase();
    g.append(svg("text", { x: CELL / 2, y: CELL / 2 + 2, class: `chess-piece ${white ? "white" : "black"}` },
                 CHESS_GLYPHS[value.toLowerCase()] || value));
    return;
  }
  if (board.kind === "othello" || board.kind === "go") {
    const black = value === (board.kind === "go" ? "X" : "B");
    g.append(svg("circle", { cx: CELL / 2, cy: CELL / 2, r: CELL * (board.kind === "go" ? 0.46 : 0.4),
                             class: `disc ${black ? "black" : "white"}` }));
    return;
  }
  const [fill, label] = coloursOf(value);
  g.append(svg("circle", { cx: CELL / 2, cy: CELL / 2, r: CELL * 0.38, fill, class: "piece" }));
  g.append(svg("text", { x: CELL / 2, y: CELL / 2, class: "piece-label", fill: label }, value));
}

/** The name written in a corner of a cell: a chess square, or a draughts square's number. */
function cellName(board, r, c) {
  if (board.kind === "chess") return `${String.fromCharCode(97 + c)}${8 - r}`;
  if (board.kind === "othello") return `${String.fromCharCode(97 + c)}${r + 1}`;  // written on the edges
  if (board.kind === "go") return `${GO_COLUMNS[c]}${board.rows - r}`;                // written on the edges
  if (board.kind === "draughts" && (r + c) % 2 === 1) return String(r * board.cols / 2 + Math.floor(c / 2) + 1);
  return null;
}

/** The kinds of arrow drawn over a board, each with its arrowhead (style.css colours them). */
const ARROW_KINDS = ["hint", "best", "line"];

/**
 * The arrows over `board` for `arrows` ([{move, kind, rank?}]: the hint, the AI's best move, the best
 * moves' lines, rank 1 the best): from the move's first cell to its last, or a ring on the cell of a move
 * of one cell (a Connect Four column: where the disc lands). They take no clicks.
 */
function arrowLayer(board, arrows, moveSchema, flipped) {
  const layer = svg("g", { class: "arrows", "data-testid": "arrows" });
  const defs = svg("defs");
  for (const kind of ARROW_KINDS) {
    const head = svg("marker", { id: `arrowhead-${kind}`, class: `arrowhead ${kind}`, viewBox: "0 0 10 10", refX: 5, refY: 5,
                                 markerWidth: 3, markerHeight: 3, orient: "auto-start-reverse" });
    head.append(svg("path", { d: "M 0 0 L 10 5 L 0 10 z" }));
    defs.append(head);
  }
  layer.append(defs);
  const centre = (i) => {
    const r = Math.floor(i / board.cols), c = i % board.cols;
    const [x, y] = flipped ? [board.cols - 1 - c, board.rows - 1 - r] : [c, r];
    return [x * CELL + CELL / 2, y * CELL + CELL / 2];
  };
  for (const { move, kind, rank } of arrows) {
    const t = targetsOf(move, board, moveSchema);
    if (!t) continue;
    const attrs = { class: `arrow ${kind}`, "data-kind": kind, "data-move": JSON.stringify(move),
                    ...(rank ? { "data-rank": String(rank), style: `opacity: ${Math.max(0.35, 1 - 0.2 * (rank - 1))}` } : {}) };
    if (t.from !== null) {
      const [x1, y1] = centre(t.from), [x2, y2] = centre(t.to[0]);
      const length = Math.hypot(x2 - x1, y2 - y1) || 1, back = CELL * 0.3;  // the head ends inside the square
      layer.append(svg("line", { ...attrs, x1, y1, x2: x2 - ((x2 - x1) / length) * back,
                                 y2: y2 - ((y2 - y1) / length) * back, "marker-end": `url(#arrowhead-${kind})` }));
      continue;
    }
    const cell = t.to.length === 1 ? t.to[0] : landingCell(board, t.to[0] % board.cols);
    if (cell < 0) continue;
    const [cx, cy] = centre(cell);
    layer.append(svg("circle", { ...attrs, cx, cy, r: CELL * 0.42 }));
  }
  return layer;
}

/**
 * Draw `board` into `container`. `moves`: the legal moves as [{move, label}]; `onMove(move)` plays one
 * (null: no clicks now); `marks`: {class: [cells]}, the cells to mark with that class (the last move,
 * a hint, a winning line); `arrows`: the moves drawn as arrows over it (arrowLayer); `flipped`: the
 * board turned round (chess, for Black).
 */
export function drawGrid(container, board, { moves = [], moveSchema = null, onMove = null, marks = {},
                                             arrows = [], flipped = false } = {}) {
  const width = board.cols * CELL, height = board.rows * CELL;
  const edged = board.kind === "othello" || board.kind === "go";
  const edge = edged ? EDGE : 0;  // a margin for the coordinates
  const root = svg("svg", { viewBox: `${-edge} ${-edge} ${width + 2 * edge} ${height + 2 * edge}`,
                            class: `board ${board.kind}${flipped ? " flipped" : ""}`, "data-testid": "board",
                            role: "grid", "aria-label": `board, ${board.rows} by ${board.cols}` });
  const choice = html("div", { class: "choice", "data-testid": "choice", hidden: "" });
  const targeted = onMove ? moves.map((m) => ({ ...m, ...targetsOf(m.move, board, moveSchema) }))
    .filter((m) => m.to) : [];
  const legal = new Set(board.kind !== "othello" ? [] : moves
    .map((m) => targetsOf(m.move, board, moveSchema)).filter((t) => t && t.from === null).flatMap((t) => t.to));
  const groups = [];
  const byColumn = onMove !== null && playsByColumn(board, moveSchema);
  let selected = null;

  const offer = (candidates) => {
    if (candidates.length === 1) {
      onMove(candidates[0].move);
      return;
    }
    choice.replaceChildren(html("span", {}, "Which move? "), ...candidates.map((m) => {
      const button = html("button", { "data-move": JSON.stringify(m.move) }, m.label);
      button.addEventListener("click", () => onMove(m.move));
      return button;
    }));
    choice.hidden = false;
    choice.querySelector("button").focus();
  };
  const select = (cell) => {
    selected = selected === cell ? null : cell;
    choice.hidden = true;
    for (const g of groups) {
      const i = Number(g.dataset.cell);
      g.classList.toggle("selected", i === selected);
      g.classList.toggle("target", selected !== null && targeted.some((m) => m.from === selected && m.to[0] === i));
    }
  };
  const click = (cell) => {
    if (selected !== null) {
      const landing = targeted.filter((m) => m.from === selected && m.to[0] === cell);
      if (landing.length) {
        offer(landing);
        return;
      }
    }
    const here = targeted.filter((m) => m.from === null && m.to.includes(cell));
    if (here.length) offer(here);
    else if (targeted.some((m) => m.from === cell)) select(cell);
    else select(null);
  };

  for (let r = 0; r < board.rows; r++) {
    for (let c = 0; c < board.cols; c++) {
      const index = r * board.cols + c;
      const value = board.cells[r][c];
      const [x, y] = flipped ? [board.cols - 1 - c, board.rows - 1 - r] : [c, r];
      const g = svg("g", { transform: `translate(${x * CELL},${y * CELL})`, "data-cell": index });
      const dark = (board.kind === "chess" || board.kind === "draughts") && (r + c) % 2 === 1;
      g.append(svg("rect", { width: CELL, height: CELL, class: dark ? "cell dark" : "cell",
                             style: typeof value === "number" ? `fill: ${tileColour(value)}` : undefined }));
      const name = cellName(board, r, c);
      if (name && !edged) g.append(svg("text", { x: 3, y: 10, class: "cell-name" }, name));
      if (board.kind === "go") {  // the lines through the point, to the board's edge
        const half = CELL / 2;
        g.append(svg("line", { x1: c === 0 ? half : 0, x2: c === board.cols - 1 ? half : CELL, y1: half, y2: half,
                               class: "go-line" }));
        g.append(svg("line", { y1: r === 0 ? half : 0, y2: r === board.rows - 1 ? half : CELL, x1: half, x2: half,
                               class: "go-line" }));
      }
      if (name) g.setAttribute("data-square", name);
      drawPiece(g, board, value);
      if (board.kind === "othello" && legal.has(index)) {
        g.classList.add("legal");  // a legal square of the side to move, whoever plays it
        g.append(svg("circle", { cx: CELL / 2, cy: CELL / 2, r: CELL * 0.12, class: "legal-mark" }));
      }
      const playable = targeted.some((m) => (m.from === null ? m.to.includes(index) : m.from === index));
      const landing = targeted.some((m) => m.from !== null && m.to[0] === index);
      if (landing) g.append(svg("circle", { cx: CELL / 2, cy: CELL / 2, r: CELL * 0.15, class: "target-dot" }));
      if (value === "." && byColumn) g.append(svg("circle", { cx: CELL / 2, cy: CELL / 2, r: CELL * 0.38, class: "preview-disc" }));
      if (playable || landing) {
        clickable(g, `${name || `row ${r + 1}, column ${c + 1}`}`, () => click(index));
        if (playable) g.classList.add("playable");
        // The focus ring drawn inside the cell: an outline would be cut by the board's edge and its neighbours.
        g.append(svg("rect", { x: 3, y: 3, width: CELL - 6, height: CELL - 6, rx: 4, class: "focus-ring" }));
      }
      for (const [mark, cells] of Object.entries(marks)) if (cells.includes(index)) g.classList.add(mark);
      if (byColumn && playable) {  // where a disc dropped in this column would land
        const show = (on) => groups[landingCell(board, c)]?.classList.toggle("preview", on);
        g.addEventListener("mouseenter", () => show(true));
        g.addEventListener("mouseleave", () => show(false));
        g.addEventListener("focus", () => show(true));
        g.addEventListener("blur", () => show(false));
      }
      groups.push(g);
      root.append(g);
    }
  }
  if (arrows.length) root.append(arrowLayer(board, arrows, moveSchema, flipped));
  const extra = [];
  if (edged) {
    const go = board.kind === "go";
    for (let i = 0; i < board.cols; i++) {
      const letter = go ? GO_COLUMNS[i] : String.fromCharCode(97 + i), x = i * CELL + CELL / 2;
      root.append(svg("text", { x, y: -edge / 2, class: "coordinate" }, letter));
      root.append(svg("text", { x, y: height + edge / 2, class: "coordinate" }, letter));
    }
    for (let r = 0; r < board.rows; r++) {
      const y = r * CELL + CELL / 2, number = String(go ? board.rows - r : r + 1);
      root.append(svg("text", { x: -edge / 2, y, class: "coordinate" }, number));
      root.append(svg("text", { x: width + edge / 2, y, class: "coordinate" }, number));
    }
  }
  if (board.kind === "othello") {
    const count = (disc) => board.cells.flat().filter((x) => x === disc).length;
    const counts = html("p", { class: "disc-count", "data-testid": "disc-count" });
    counts.append(html("span", { "data-disc": "B" }, `Black ${count("B")}`), " · ",
                  html("span", { "data-disc": "W" }, `White ${count("W")}`));
    extra.push(counts);
  }
  container.replaceChildren(root, ...extra, choice);
  return root;
}
