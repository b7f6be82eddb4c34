// Explicit game trees (the `tree` game's state): layout and drawing, with what a search found at each node.
// A child's move label is its "move", else its "id", else its index, as the API defines it; a trace
// entry's path is the list of labels from the root.
import { miniPosition } from "./miniboard.js";
import { outcomeText } from "./notation.js";
import { clickable, formatNumber, moveText, svg } from "./svg.js";

const DX = 76, DY = 84, MARGIN = 30, R = 15;
const BOARD = 44, BOARD_DX = 2 * (R + BOARD + 8);  // a game node's board, beside it; the columns' width then
export const EXACT = "exact", UPPER = "upper", LOWER = "lower";  // a node's value, or a bound of it

/** A value as the tree shows it: a number, max^n's vector "(1,2,6)", an upper bound "≤2", a lower "≥5". */
export function valueText(value, bound = EXACT) {
  const prefix = bound === UPPER ? "≤" : bound === LOWER ? "≥" : "";
  return prefix + (Array.isArray(value) ? `(${value.map((x) => formatNumber(x)).join(",")})` : formatNumber(value));
}

function labelOf(child, index) {
  if (child.move !== undefined) return child.move;
  if (child.id !== undefined) return child.id;
  return index;
}

export const keyOf = (path) => JSON.stringify(path);

/** Every node with its path, depth and position: leaves side by side, parents above their children. A node
 * whose key is in `folded` is drawn without its subtree: its entry has no children but `hidden`, the keys
 * of its descendants, and takes one column, for the "+N" that stands for them. */
export function layout(root, folded = null) {
  const nodes = [];
  let nextX = 0;
  (function place(node, path, depth, parent) {
    const entry = { node, path, key: keyOf(path), depth, parent, children: [] };
    nodes.push(entry);
    const kids = Array.isArray(node.children) ? node.children : [];
    if (kids.length && folded && folded.has(entry.key)) {
      entry.hidden = descendantKeys(node, path);
      entry.x = nextX++;
    } else if (kids.length === 0) {
      entry.x = nextX++;
    } else {
      kids.forEach((child, i) => entry.children.push(place(child, [...path, labelOf(child, i)], depth + 1, entry)));
      entry.x = (entry.children[0].x + entry.children[entry.children.length - 1].x) / 2;
    }
    return entry;
  })(root, [], 0, null);
  return nodes;
}

function descendantKeys(node, path) {
  return (node.children || []).flatMap((child, i) => {
    const childPath = [...path, labelOf(child, i)];
    return [keyOf(childPath), ...descendantKeys(child, childPath)];
  });
}

/**
 * The nodes to fold so that at most `budget` nodes are drawn: every node deeper than the deepest level
 * that fits is hidden, each subtree cut there folded into its "+N" (which counts as a node drawn).
 * Empty when the whole tree fits.
 */
export function autoFold(root, budget) {
  const nodes = layout(root);
  const deepest = Math.max(...nodes.map((n) => n.depth));
  for (let depth = deepest; depth >= 0; depth--) {
    const cut = nodes.filter((n) => n.depth === depth && n.children.length);
    if (nodes.filter((n) => n.depth <= depth).length + cut.length <= budget || depth === 0) {
      return new Set(cut.map((n) => n.key));
    }
  }
  return new Set();
}

export function kindOf(node) {
  if (!Array.isArray(node.children) || node.children.length === 0) return "leaf";
  if (node.player !== undefined) return "player";
  return node.type || "max";
}

function shape(kind, node) {
  if (kind === "max") return svg("polygon", { points: `0,${-R} ${R},${R * 0.8} ${-R},${R * 0.8}` });
  if (kind === "min") return svg("polygon", { points: `0,${R} ${R},${-R * 0.8} ${-R},${-R * 0.8}` });
  if (kind === "chance") return svg("circle", { r: R });
  // max^n's nodes and leaves hold a vector: wide enough for "(1,2,6)"
  if (kind === "player") return svg("rect", { x: -1.8 * R, y: -R, width: 3.6 * R, height: 2 * R, rx: 4 });
  const half = Array.isArray(node.value) ? 1.8 * R : 0.8 * R;
  return svg("rect", { x: -half, y: -R * 0.8, width: 2 * half, height: 1.6 * R });
}

/**
 * Draw the tree. `view`: {at(key) (what is known of the node at path key `key` at the step shown, as
 * story.js's `tellTrace(...).at` gives it; absent: a tree not searched yet), chosen (the principal
 * variation's moves), windows (show each visited node's alpha and beta), onChild(label) to make the root's
 * children clickable, mcts (instead of `at`: mctsstory.js's `{at, edge}` at the step shown, each node
 * then drawn with its U/N, each edge in the tree with its N and UCB, and the step's playout dotted),
 * predicted (the path keys of the leaves a student predicts will be pruned) and onLeaf(key) to make the
 * leaves clickable for that prediction, folded (the keys of the nodes drawn without their subtrees, each
 * with a "+N" instead), onUnfold(key) to make each "+N" a button that unfolds it, and onFold(key) to make
 * each node below the root with its subtree drawn a button that folds it}. A node with a game
 * `state` (gametree.js) has its board drawn beside it; a leaf whose value is `searched` shows it once the
 * search has visited it.
 */
export function drawTree(container, root, view = {}) {
  const nodes = layout(root, view.folded);
  const dx = nodes.some((n) => n.node.state) ? BOARD_DX : DX;
  const leaves = nodes.filter((n) => n.children.length === 0).length;
  const depth = Math.max(...nodes.map((n) => n.depth + (n.hidden ? 1 : 0)));
  const width = Math.max(1, leaves) * dx + 2 * MARGIN, height = depth * DY + 2 * MARGIN + 30;
  const chosen = new Set();
  (view.chosen || []).forEach((_, i) => chosen.add(keyOf(view.chosen.slice(0, i + 1))));
  const at = (n) => ({ x: MARGIN + n.x * dx + dx / 2, y: MARGIN + n.depth * DY + R });
  const canvas = svg("svg", { viewBox: `0 0 ${width} ${height}`, class: dx === DX ? "tree" : "tree positions", "data-testid": "tree",
                              width, role: "img", "aria-label": "game tree" });
  const edges = svg("g"), boards = svg("g"), marks = svg("g");
  canvas.append(edges, boards, marks);
  for (const n of nodes) {
    const known = view.at ? view.at(n.key) : null;
    const grown = view.mcts ? view.mcts.at(n.key) : null;
    const classes = ["node", kindOf(n.node)];
    if (grown) classes.push(...mctsClasses(grown));
    if (known) {
      if (known.pruned) classes.push("pruned");
      else if (known.beyond) classes.push("beyond");
      else if (!known.seen) classes.push("unseen");
      if (known.seen) classes.push("visited");
      if (known.current) classes.push("current");
    }
    if (chosen.has(n.key) || (n.depth === 0 && chosen.size)) classes.push("chosen");
    const p = at(n);
    if (n.parent) {
      const q = at(n.parent);
      const edgeClasses = ["edge", ...classes.filter((c) => ["pruned", "beyond", "unseen", "chosen", "playout"]
        .includes(c))];
      edges.append(svg("line", { x1: q.x, y1: q.y, x2: p.x, y2: p.y, class: edgeClasses.join(" ") }));
      const stats = view.mcts ? view.mcts.edge(n.key) : null;
      if (stats) {
        edges.append(svg("text", { x: (p.x + q.x) / 2 - 4, y: (p.y + q.y) / 2 - 6, class: "edge-ucb",
                                   "text-anchor": "end" }, `N ${stats.n} · UCB ${stats.ucb.toFixed(2)}`));
      }
      const label = n.path[n.path.length - 1];
      const probability = n.node.p !== undefined ? ` p=${formatNumber(n.node.p)}` : "";
      if (n.node.move !== undefined || probability) {
        edges.append(svg("text", { x: (p.x + q.x) / 2 + 4, y: (p.y + q.y) / 2, class: "edge-label" },
                         `${n.node.move !== undefined ? outcomeText(label) : ""}${probability}`));
      }
    }
    const g = svg("g", { transform: `translate(${p.x},${p.y})`, class: classes.join(" "),
                         "data-path": n.key, "data-testid": "tree-node" });
    g.append(shape(kindOf(n.node), n.node));
    const leaf = kindOf(n.node) === "leaf";
    const partial = !leaf && known && !known.known && known.sofar !== null && known.sofar !== undefined;
    const shown = n.node.value !== undefined && (!n.node.searched || (known && known.seen));
    const text = leaf ? (shown ? valueText(n.node.value) : "") : known && known.known ? valueText(known.value, known.bound)
      : partial ? valueText(known.sofar, known.sofarBound) : "";
    g.append(valueLabel(kindOf(n.node), text, partial));
    if (!leaf && known && known.known) {
      g.setAttribute("data-value", JSON.stringify(known.value));
      g.setAttribute("data-bound", known.bound);
    }
    if (typeof n.node.board === "string") g.append(miniBoard(n.node.board));
    const board = n.node.state && miniPosition(n.node.state, { x: p.x - R - BOARD - 4, y: p.y - R - 6, size: BOARD });
    if (board) {
      board.classList.add(...classes.filter((c) => ["pruned", "beyond", "unseen"].includes(c)));
      board.setAttribute("data-path", n.key);
      boards.append(board);
    }
    if (n.node.id !== undefined) {
      const left = n.node.player !== undefined ? -1.8 * R : -R;  // beside the box
      g.append(svg("text", { x: left - 3, y: -R + 2, class: "node-id", "text-anchor": "end" }, String(n.node.id)));
    }
    if (n.node.player !== undefined && !leaf) {
      g.append(svg("text", { y: -R - 4, class: "node-id" }, `P${n.node.player}`));
    }
    if (grown && grown.inTree) {
      g.setAttribute("data-visits", String(grown.n));
      g.append(svg("text", { y: R + 13, class: "mcts-stats" }, `${formatNumber(grown.u, 2)}/${grown.n}`));
    }
    if (known && known.seen && view.windows) {
      const [alpha, beta] = known.window;
      g.append(svg("text", { y: R + 13, class: "alpha-beta" }, `α ${bound(alpha, "−∞")} β ${bound(beta, "+∞")}`));
    }
    if (view.predicted && view.predicted.has(n.key)) g.classList.add("predicted");
    if (view.onLeaf && leaf) clickable(g, `predict ${n.key} pruned`, () => view.onLeaf(n.key));
    if (view.onFold && n.children.length && n.depth > 0) {
      clickable(g, `fold the ${descendantKeys(n.node, n.path).length} nodes below ${pathName(n)}`, () => view.onFold(n.key));
    }
    if (view.onChild && n.depth === 1) {
      clickable(g, `play ${moveText(n.path[0])}`, () => view.onChild(n.path[0]));
    }
    marks.append(g);
    if (n.hidden) {
      edges.append(svg("line", { x1: p.x, y1: p.y, x2: p.x, y2: p.y + DY, class: "edge fold-edge" }));
      marks.append(foldMark(n, p, view));
    }
  }
  container.replaceChildren(canvas);
  return canvas;
}

/** A node as its moves from the root say it ("the root", "0 → 4"), for a screen reader. */
const pathName = (n) => (n.path.length ? n.path.map((m) => outcomeText(m)).join(" → ") : "the root");

/** The "+N" below a folded node, standing for its N hidden descendants: marked "current" when the step
 * shown visits one of them, "visited" once the search has; a button that unfolds it, with `onUnfold`. */
function foldMark(n, p, view) {
  const at = view.at || (view.mcts && view.mcts.at);  // a depth-first search's story, or MCTS's
  const states = at ? n.hidden.map((key) => at(key)).filter(Boolean) : [];
  const classes = ["fold"];
  if (states.some((s) => s.current)) classes.push("current");
  if (states.some((s) => s.seen || s.inTree)) classes.push("visited");
  const g = svg("g", { transform: `translate(${p.x},${p.y + DY})`, class: classes.join(" "),
                       "data-path": n.key, "data-hidden": String(n.hidden.length), "data-testid": "fold" });
  g.append(svg("rect", { x: -R * 1.4, y: -R * 0.8, width: R * 2.8, height: R * 1.6, rx: R * 0.8 }));
  g.append(svg("text", { y: 4, class: "node-value" }, `+${n.hidden.length}`));
  if (view.onUnfold) clickable(g, `unfold the ${n.hidden.length} nodes below ${pathName(n)}`, () => view.onUnfold(n.key));
  return g;
}

/** A game position's board (nine cells, row-major) drawn small beside its node, to its left. */
function miniBoard(cells) {
  const size = 8, board = svg("g", { class: "mini-board", transform: `translate(${-R - 3 * size - 3},${-R})` });
  board.append(svg("rect", { width: 3 * size, height: 3 * size }));
  [...cells].forEach((c, i) => {
    if (c === ".") return;
    board.append(svg("text", { x: (i % 3) * size + size / 2, y: Math.floor(i / 3) * size + size - 1.5,
                               class: c === "X" ? "x" : "o" }, c));
  });
  return board;
}

/** A node's value, inside its shape: in a triangle, at its wide side, and a text longer than three
 * characters ("≤2.8") squeezed to the width there; `partial`: a bound from the children so far. */
function valueLabel(kind, text, partial) {
  const y = kind === "max" ? 9 : kind === "min" ? -1 : 4;
  const attributes = { y, class: partial ? "node-value partial" : "node-value" };
  const room = kind === "max" || kind === "min" ? 1.1 * R : kind === "chance" ? 1.6 * R : null;
  if (room !== null && text.length > 3) Object.assign(attributes, { textLength: room, lengthAdjust: "spacingAndGlyphs" });
  return svg("text", attributes, text);
}

/** A node's classes in a growing MCTS tree: in it or not yet, on this iteration's path, in its playout. */
function mctsClasses(grown) {
  const classes = [grown.inTree ? "visited" : "unseen"];
  if (grown.current) classes.push("current");
  if (grown.playout) classes.push("playout");
  return classes;
}

const bound = (x, infinity) => (x === null || x === undefined ? infinity : formatNumber(x));
