// MCTS's trace told iteration by iteration (issue 54): step s shows the tree after the trace's first s
// iterations. Each step says, in the course's four words, what the iteration did: selection (UCB's
// formula worked with the trace's own U, N and bound of every child), expansion, simulation (the
// playout's moves and result) and back-propagation (each node's new U and N). The U, N and UCB values
// are the server's; the only sums worked here are the formula's parts, shown as the notes write them.
import { formatNumber, moveText } from "./svg.js";
import { keyOf } from "./tree.js";

const fixed = (x) => (typeof x === "number" ? x.toFixed(2) : String(x));
const where = (path) => (path.length ? path.map(moveText).join(" → ") : "the root");

/**
 * Tell the MCTS trace `entries` (one per iteration) of a search with exploration constant `exploration`.
 * `result`: the response (the chosen move and the root moves' visits, for the last line).
 * Returns `{steps, at, edge}`: `steps[s]` the lines of step s; `at(key, step)`: the node at path key `key`
 * after `step` iterations, `{inTree, u, n, current, playout}` (`current`: on this step's path;
 * `playout`: passed through by this step's playout); `edge(key, step)`: the edge into that node, `{n,
 * ucb}` (its bound as the next selection at its parent would see it), or null outside the tree.
 */
export function tellIterations(entries, { exploration, result }) {
  const steps = [["Only the root is in the tree: step forward, or press Play, to watch each iteration."]];
  const stats = [new Map([[keyOf([]), { u: 0, n: 0 }]])];  // after each step: key -> {u, n}
  const paths = [null], playouts = [null];
  for (const entry of entries) {
    const before = stats[stats.length - 1], after = new Map(before);
    entry.backpropagation.forEach((b) => after.set(keyOf(entry.path.slice(0, b.ply)), { u: b.u, n: b.n }));
    stats.push(after);
    const path = entry.path;
    paths.push(new Set(path.map((_, i) => keyOf(path.slice(0, i + 1))).concat(keyOf([]))));
    const played = new Set();
    (entry.playout || []).forEach((_, i) => played.add(keyOf([...path, ...entry.playout.slice(0, i + 1)])));
    playouts.push(played);
    steps.push(iterationLines(entry, exploration));
  }
  if (entries.length && result) steps[steps.length - 1].push(choiceLine(result));
  const at = (key, step) => {
    const s = stats[Math.min(step, stats.length - 1)].get(key);
    return { inTree: s !== undefined && s.n > 0, u: s ? s.u : 0, n: s ? s.n : 0,
             current: step > 0 && paths[step].has(key), playout: step > 0 && playouts[step].has(key) };
  };
  const edge = (key, step) => {
    const table = stats[Math.min(step, stats.length - 1)];
    const own = table.get(key), parent = table.get(keyOf(JSON.parse(key).slice(0, -1)));
    if (!own || !own.n || !parent) return null;
    return { n: own.n, ucb: own.u / own.n + exploration * Math.sqrt(Math.log(parent.n) / own.n) };
  };
  return { steps, at, edge };
}

/** One iteration in the four steps of UCT. */
function iterationLines(entry, c) {
  const lines = [`Iteration ${entry.iteration}.`];
  for (const step of entry.selection) lines.push(selectionLine(step, entry.path.slice(0, step.ply), c));
  const last = entry.path.length ? moveText(entry.path[entry.path.length - 1]) : "the root";
  const mover = entry.backpropagation[entry.backpropagation.length - 1].player;
  if (entry.expanded) {
    lines.push(`Expansion: ${where(entry.path.slice(0, -1))} has an untried move, ${last}: it joins the tree.`);
  }
  const worth = entry.utilities.map((x) => formatNumber(x)).join(" / ");
  if (entry.end === "playout") {
    const moves = entry.playout.length ? entry.playout.map(moveText).join(" → ") : "no move";
    lines.push(`Simulation: a random playout from ${last} plays ${moves} and ends worth ${worth} ` +
               `(rewards ${entry.reward.map(fixed).join(" / ")} on the [0, 1] scale).`);
  } else if (entry.end === "terminal") {
    lines.push(`Simulation: ${last} is a leaf worth ${worth}: no playout is needed ` +
               `(rewards ${entry.reward.map(fixed).join(" / ")}).`);
  } else {
    lines.push(`${last} is proven (MCTS-Solver): its result, ${worth}, is the reward.`);
  }
  const climbed = entry.backpropagation.slice().reverse()
    .map((b) => `${where(entry.path.slice(0, b.ply))} ${fixed(b.u)}/${b.n}`).join(", ");
  lines.push(`Back-propagation: each node on the path adds its mover's reward (${mover}'s at the end) ` +
             `and one visit, U/N: ${climbed}.`);
  return lines;
}

/** A selection step: UCB's choice with the formula worked, against the runner-up's bound. */
function selectionLine(step, path, c) {
  const at = where(path);
  if (step.kind === "chance") return `Selection: at ${at}, chance draws ${moveText(step.chosen)}.`;
  const chosen = step.children.find((ch) => ch.move === step.chosen);
  const formula = `${fixed(chosen.u / chosen.n)} + ${fixed(c)}·sqrt(ln ${step.n} / ${chosen.n}) = ${fixed(chosen.ucb)}`;
  const others = step.children.filter((ch) => ch !== chosen && ch.ucb !== null);
  const rival = others.reduce((best, ch) => (best === null || ch.ucb > best.ucb ? ch : best), null);
  const beats = rival === null ? "its only open move" : `beats ${moveText(rival.move)}'s ${fixed(rival.ucb)}`;
  return `Selection: at ${at} (${step.player} to move, N = ${step.n}), UCB picks ${moveText(step.chosen)}: ` +
         `${formula} ${beats}.`;
}

/** The answer: the most visited root move. */
function choiceLine(result) {
  const visits = result.moves.map((m) => `${moveText(m.move)} ${m.visits}`).join(", ");
  return `MCTS chooses ${moveText(result.move)}, the most visited root move (visits: ${visits}).`;
}
