// A real game's position (issue 54 #3: Connect Four, Pacman, 2048, Othello), searched with a trace, as the
// explicit tree the watch view draws and tells. The trace says which nodes the search visited (a depth-first
// search's visits; MCTS's: the nodes its iterations ended at, its tree's leaves as it grows); the rules
// route says what each node is: `POST /v1/games/{game}/apply` with the moves from the root gives its state
// (drawn as its board), whose turn it is, its legal moves (in the order the search tries them) and a chance
// node's probabilities. The tree holds every visited node and, beside each visited node with visited
// children, its other legal moves, the ones the search pruned; a visited node without visited children is
// a leaf, terminal or at the depth limit. Nothing else is expanded, so the tree's size is bounded by the
// trace's: at most MAX_VISITS visits, each with its legal moves.
import { postJSON } from "./api.js";
import { keyOf } from "./tree.js";

/** The most visits a trace may have for its tree to be built (one rules request a node). */
export const MAX_VISITS = 300;

/**
 * Build the tree of the search of `game` from `state` whose trace is `entries`: each node `{move, state,
 * type ("max" where the root's player moves, "min" for the other players, "chance"), p (a chance
 * outcome's probability), children}`; a leaf has `value` (the trace's), `searched: true` (its value is
 * the search's, shown once visited) and `limit: true` when it is not terminal (the depth limit stopped
 * there); a pruned node has neither. Rejects with an Error when the trace is longer than MAX_VISITS.
 */
export async function gameTree(game, state, entries) {
  if (entries.length > MAX_VISITS) {
    throw new Error(`The search visited ${entries.length} nodes, more than this view draws (${MAX_VISITS}): `
      + "lower the depth.");
  }
  const visited = new Map(entries.map((e) => [keyOf(e.path), e]));  // a re-visit keeps the last value
  const expanded = new Set(entries.filter((e) => e.path.length).map((e) => keyOf(e.path.slice(0, -1))));
  const rules = (path) => (path.length
    ? postJSON(`/v1/games/${game}/apply`, { state, moves: path })
    : postJSON(`/v1/games/${game}/legal-moves`, { state }).then((answer) => ({ ...answer, state })));
  const rootAnswer = await rules([]);
  const me = rootAnswer.to_move;
  const make = (path, answer, p) => {
    const node = { state: answer.state };
    if (path.length) node.move = path[path.length - 1];
    if (p !== undefined) node.p = p;
    node.type = answer.to_move === "chance" ? "chance" : answer.to_move === me ? "max" : "min";
    const entry = visited.get(keyOf(path));
    if (entry && !expanded.has(keyOf(path))) {
      Object.assign(node, { value: entry.value, searched: true });
      if (!answer.terminal) node.limit = true;
    }
    return node;
  };
  const root = make([], rootAnswer);
  // level by level, every node's rules request at once
  let level = [{ node: root, path: [], answer: rootAnswer }];
  while (level.length) {
    const open = level.filter(({ path }) => expanded.has(keyOf(path)));
    const kids = open.flatMap(({ node, path, answer }) => answer.legal_moves.map((move, i) => ({
      parent: node, path: [...path, move], p: answer.probabilities ? answer.probabilities[i] : undefined })));
    const answers = await Promise.all(kids.map((kid) => rules(kid.path)));
    level = kids.map((kid, i) => {
      const node = make(kid.path, answers[i], kid.p);
      (kid.parent.children ||= []).push(node);
      return { node, path: kid.path, answer: answers[i] };
    });
  }
  return root;
}
