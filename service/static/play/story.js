// A search's trace told step by step: the watch view's narration (issue 31). Step s shows the trace's
// first s entries. For every step, the lines that say what the search did there and why; for every node,
// when it was visited, when its value became known (exact, or a bound: a fail-soft search's value at or
// beyond its window), and when it was pruned (the step at which its parent cut the rest of its children
// off). Everything comes from the trace the server returned and the tree it searched; nothing is
// recomputed but the sums that explain a chance node's value or cut.
import { outcomeText } from "./notation.js";
import { formatNumber } from "./svg.js";
import { EXACT, LOWER, UPPER, keyOf, kindOf, layout, valueText } from "./tree.js";

const KIND_LABELS = { max: "MAX", min: "MIN", chance: "chance" };

const number = (x) => formatNumber(x);
const vector = (value) => valueText(value);
const infinite = (x, sign) => (x === null || x === undefined ? `${sign}∞` : number(x));

/**
 * Tell the trace `entries` of a search of the tree `root`. `settings`: `windows` (the search has alpha and
 * beta: alpha-beta, expectimax), `opponentIsChance` (expectimax on a tree without chance nodes: the
 * opponent's moves, MIN's below a MAX root, are equally likely chance outcomes, API.md's default opponent
 * model), `result` (the response, for the last line: its best move). A search that deepens iteratively
 * visits the root once per pass; a node with an `eval` whose children a visit did not reach was at that
 * pass's depth limit, and so was a leaf marked `limit` (a game position the search evaluated, gametree.js).
 *
 * Returns `{steps, at}`: `steps[s]` the lines of step s (step 0: before the search), and `at(key, step)`
 * what is known of the node at path key `key` after `step` steps: `{seen, current, known, value, bound,
 * sofar, sofarBound, window, pruned, beyond}` (`sofar`: while a MAX or MIN node is searched, the bound its
 * children so far give it, `sofarBound` LOWER or UPPER; `window`: the alpha and beta of its latest visit,
 * as its children so far have narrowed them).
 */
export function tellTrace(root, entries, settings) {
  // the opponent's nodes, when expectimax takes its moves as equally likely chance outcomes
  const options = { ...settings, total: entries.length,
                    opponent: settings.opponentIsChance ? (kindOf(root) === "min" ? "max" : "min") : null };
  const nodes = new Map(layout(root).map((n) => [n.key, n]));
  const visits = readVisits(entries, nodes);
  const bounds = entries.length && Array.isArray(entries[0].bounds) ? entries[0].bounds : null;
  const steps = [["Nothing is visited yet: step forward, or press Play, to watch the search."]];
  const pruned = new Map(), beyond = new Map();
  const met = new Set();
  visits.forEach((visit) => {
    steps.push([visitLine(visit, options, met.has(visit.key))]);
    met.add(visit.key);
  });
  const settling = [...visits].sort((a, b) => a.finished - b.finished || b.entry.ply - a.entry.ply);
  for (const visit of settling) {
    steps[visit.finished].push(...settle(visit, options, bounds, pruned, beyond), ...sofar(visit, options));
  }
  if (visits.some((v) => v.entry.value === null)) {
    steps[steps.length - 1].push("The search stopped before it had every value (the time limit).");
  }
  const latest = new Map();  // key -> visits of that node, in order (a re-search visits a node again)
  for (const visit of visits) {
    if (!latest.has(visit.key)) latest.set(visit.key, []);
    latest.get(visit.key).push(visit);
  }
  const at = (key, step) => {
    const seen = (latest.get(key) || []).filter((v) => v.index < step);
    const visit = seen.length ? seen[seen.length - 1] : null;
    const known = visit !== null && visit.finished <= step && visit.entry.value !== null;
    const partial = !known && visit && visit.progress ? visit.progress.filter(([s]) => s <= step).pop() : null;
    return {
      seen: visit !== null, current: visit !== null && visit.index === step - 1, known,
      value: known ? visit.entry.value : null, bound: known ? visit.bound : null,
      sofar: partial ? partial[1] : null, sofarBound: partial ? partial[2] : null,
      window: visit ? narrowed([visit.entry.alpha, visit.entry.beta], partial) : null,
      pruned: left(pruned, key, visit, step), beyond: left(beyond, key, visit, step),
    };
  };
  return { steps, at };
}

/** A visit's window once its children so far have raised alpha (a MAX node's lower bound) or lowered
 * beta (a MIN node's upper bound), as AIMA's ALPHA-BETA-SEARCH updates them. */
function narrowed([alpha, beta], partial) {
  if (!partial) return [alpha, beta];
  const [, v, bound] = partial;
  if (bound === LOWER) return [alpha === null || alpha === undefined || v > alpha ? v : alpha, beta];
  return [alpha, beta === null || beta === undefined || v < beta ? v : beta];
}

/** Whether the node was left out (pruned, or beyond the depth limit: `marks`) by `step`, and not visited
 * since (by a later pass, or a re-search). */
function left(marks, key, visit, step) {
  return marks.has(key) && marks.get(key) <= step && !(visit && visit.index >= marks.get(key));
}

/** The trace's entries as visits: each with its tree node, its parent visit, the visits of its children
 * and `finished`, the step at which its subtree's last entry is shown. */
function readVisits(entries, nodes) {
  const visits = [], open = [];
  entries.forEach((entry, index) => {
    const key = keyOf(entry.path);
    while (open.length && !isPrefix(open[open.length - 1].entry.path, entry.path)) open.pop().finished = index;
    const parent = open.length ? open[open.length - 1] : null;
    const visit = { entry, index, key, node: nodes.get(key) || null, parent, children: [], finished: entries.length };
    if (parent) parent.children.push(visit);
    visits.push(visit);
    open.push(visit);
  });
  return visits;
}

function isPrefix(prefix, path) {
  return prefix.length < path.length && prefix.every((label, i) => JSON.stringify(label) === JSON.stringify(path[i]));
}

/** The name of a tree node: its id, else its parent's name and the move into it. */
function nameOf(node) {
  if (node.node.id !== undefined) return String(node.node.id);
  if (!node.parent) return "the root";
  return `${nameOf(node.parent)}→${outcomeText(node.path[node.path.length - 1])}`;
}

function kindFor(node, options) {
  const kind = kindOf(node.node);
  return kind === options.opponent ? "chance" : kind;
}

function windowText(entry) {
  return `α = ${infinite(entry.alpha, "−")}, β = ${infinite(entry.beta, "+")}`;
}

function visitLine(visit, options, again) {
  const { entry, node } = visit;
  if (!node) return `Visit ${entry.path.map(outcomeText).join(" → ")} (not in the tree as drawn).`;
  const name = nameOf(node);
  if (node.children.length === 0) {
    return node.node.limit ? `${name} is at the depth limit: the evaluation rates it ${vector(entry.value)}.`
      : `${name} is a leaf worth ${vector(entry.value)}.`;
  }
  const kind = kindFor(node, options);
  const label = kind === "player" ? `player ${node.node.player}`
    : kind === "chance" && kindOf(node.node) === options.opponent ? `chance: ${KIND_LABELS[options.opponent]}'s moves equally likely`
      : KIND_LABELS[kind];
  const pass = again ? (visit.parent ? " again" : " again, for the next pass of iterative deepening") : "";
  return `Visit ${name}${pass} (${label})${options.windows ? ` with ${windowText(entry)}` : ""}.`;
}

/** The probabilities of a chance node's children (as the tree gives them, else uniform). */
function probabilities(node) {
  const kids = node.children;
  return kids.map((kid) => (kid.node.p !== undefined ? kid.node.p : 1 / kids.length));
}

/**
 * The node's value is known once its subtree's last entry is shown: its bound (fail-soft: at or below
 * alpha an upper bound, at or above beta a lower one, when a child was cut off or is a bound itself), the
 * children it pruned (from this step on), and the lines that say so.
 */
function settle(visit, options, bounds, pruned, beyond) {
  const { entry, node } = visit;
  visit.bound = EXACT;
  if (!node || node.children.length === 0 || entry.value === null) return [];
  const name = nameOf(node);
  if (visit.children.length === 0 && node.node.eval !== undefined) {
    node.children.flatMap(descendants).forEach((d) => beyond.set(d.key, visit.finished));
    return [`${name} is at the depth limit: its evaluation, ${vector(entry.value)}, stands for its subtree.`];
  }
  const kind = kindFor(node, options);
  const p = probabilities(node);
  const visited = new Set(visit.children.map((v) => v.key));
  const missing = node.children.filter((kid, i) => !visited.has(kid.key) && !(kind === "chance" && p[i] === 0));
  const v = entry.value;
  const partial = missing.length > 0 || visit.children.some((c) => c.bound !== EXACT);
  if (partial && entry.alpha !== null && v <= entry.alpha) visit.bound = UPPER;
  else if (partial && entry.beta !== null && v >= entry.beta) visit.bound = LOWER;
  if (missing.length && visit.bound === EXACT) {
    return [`${name}'s other children are not in the trace (it holds at most MAX_TRACE_ENTRIES entries).`];
  }
  const lines = [];
  if (missing.length) {
    missing.forEach((kid) => descendants(kid).forEach((d) => pruned.set(d.key, visit.finished)));
    lines.push(cutLine(visit, name, kind, p, bounds, options));
  } else {
    lines.push(valueLine(visit, name, kind, p));
  }
  if (!visit.parent && visit.finished === options.total && options.result) {  // the last pass's root
    const { result } = options;
    lines.push(`The search is over: ${name} = ${vector(result.values || result.value)}, and the best move is ${outcomeText(result.move)}.`);
  }
  return lines;
}

/** "a and b", or "a, b and c". */
function listed(texts) {
  return texts.length < 2 ? texts.join("") : `${texts.slice(0, -1).join(", ")} and ${texts[texts.length - 1]}`;
}

function descendants(node) {
  return [node, ...node.children.flatMap(descendants)];
}

/** What a MAX or MIN node is worth so far, after a child's value came back and more children are to come
 * (AIMA figure 5.5: "B, which is a MIN node, has a value of at most 3"); said when it changes. A child's
 * bound counts only on the side that bounds its parent (an upper bound bounds a MIN node from above). */
function sofar(visit, options) {
  const parent = visit.parent;
  const v = visit.entry.value;
  if (!parent || !parent.node || parent.finished === visit.finished || typeof v !== "number") return [];
  const kind = kindFor(parent.node, options);
  if (kind !== "max" && kind !== "min") return [];
  if (visit.bound !== EXACT && visit.bound !== (kind === "max" ? LOWER : UPPER)) return [];
  if (parent.sofar !== undefined && (kind === "max" ? v <= parent.sofar : v >= parent.sofar)) return [];
  parent.sofar = v;
  (parent.progress ||= []).push([visit.finished, v, kind === "max" ? LOWER : UPPER]);
  return [`${nameOf(parent.node)} ${kind === "max" ? "≥" : "≤"} ${number(v)} so far.`];
}

/** Why the rest of the node's children were not searched. */
function cutLine(visit, name, kind, p, bounds, options) {
  const { entry } = visit;
  const upper = visit.bound === UPPER;
  const relation = upper ? "≤" : "≥";
  const edge = upper ? `α = ${number(entry.alpha)}` : `β = ${number(entry.beta)}`;
  const tail = "so its other children are pruned";
  if (kind === "chance" && bounds) {
    const seen = new Map(visit.children.map((c) => [c.key, c]));
    let total = 0, rest = 1;
    const terms = [];
    visit.node.children.forEach((kid, i) => {
      const child = seen.get(kid.key);
      if (!child) return;
      total += p[i] * child.entry.value;
      rest -= p[i];
      terms.push(`${number(p[i])} × ${valueText(child.entry.value, child.bound)}`);
    });
    const extreme = upper ? bounds[1] : bounds[0];
    const sum = total + rest * extreme;
    const unseen = `the unseen outcomes (p = ${number(rest)}) are worth at ${upper ? "most" : "least"} ${number(extreme)}`;
    return `${name} ${relation} ${[...terms, `${number(rest)} × ${number(extreme)}`].join(" + ")} = ${number(sum)} `
      + `${relation} ${edge}, ${tail}: ${unseen}.`;
  }
  return `${name} ${relation} ${number(entry.value)} ${relation} ${edge}, ${tail}${whyWindow(visit, kind, options)}.`;
}

/** Where a MAX or MIN node's cutting bound came from: a decision node above it (the textbook's "MAX can
 * already get alpha elsewhere"), or the chance node above it, whose Star1 window it is. */
function whyWindow(visit, kind, options) {
  const upper = visit.bound === UPPER;
  const parent = visit.parent;
  const edge = number(upper ? visit.entry.alpha : visit.entry.beta);
  if (parent && parent.node && kindFor(parent.node, options) === "chance") {
    const parentEdge = upper ? parent.entry.alpha : parent.entry.beta;
    if (parentEdge === null) return "";
    return `: ${upper ? "α" : "β"} = ${edge} is the Star1 window from ${nameOf(parent.node)} (${upper ? "below" : "above"} `
      + `it, ${nameOf(parent.node)} ${upper ? "stays at most its α" : "stays at least its β"} = ${number(parentEdge)})`;
  }
  if (kind === "min" && upper) return `: MAX can already get ${edge} elsewhere`;
  if (kind === "max" && !upper) return `: MIN can already hold MAX to ${edge} elsewhere`;
  return "";
}

/** How the node's value follows from its children's. */
function valueLine(visit, name, kind, p) {
  const { entry } = visit;
  const relation = visit.bound === UPPER ? "≤" : visit.bound === LOWER ? "≥" : "=";
  const byKey = new Map(visit.children.map((c) => [c.key, c]));
  const kids = visit.node.children.map((kid, i) => ({ visit: byKey.get(kid.key), p: p[i] })).filter((k) => k.visit);
  const texts = kids.map((k) => valueText(k.visit.entry.value, k.visit.bound));
  if (kind === "player") {
    const player = visit.node.node.player;
    const tie = kids.filter((k) => k.visit.entry.value[player] === entry.value[player]).length > 1;
    return `${name} = ${vector(entry.value)}: of ${listed(texts)}, player ${player} takes the child best `
      + `for itself (its entry ${number(entry.value[player])}${tie ? "; the first of equals" : ""}).`;
  }
  if (kind === "chance") {
    return `${name} ${relation} ${kids.map((k, i) => `${number(k.p)} × ${texts[i]}`).join(" + ")} = ${vector(entry.value)}.`;
  }
  return `${name} ${relation} ${kind}(${texts.join(", ")}) = ${vector(entry.value)}.`;
}
