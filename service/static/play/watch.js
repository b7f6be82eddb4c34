// The "Watch the search" panel: run a search with its trace on an explicit tree, then step through the
// visits (by hand, or played at an adjustable delay) from the start: each node's value and window appear
// as the search learns them, what is pruned greys out at the step where it is cut, one narrated line per
// event says what happened and why (story.js), and the result (value, best move, the chosen line, the
// node count against the same search with pruning off, or on) is shown at the last step only. A game
// position is drawn as its game tree: tic-tac-toe's whole (positions.js), the other games' from the trace
// (gametree.js); a tree too large to read folds its deeper subtrees into "+N" marks that unfold on a click.
import { describeError, postJSON } from "./api.js";
import { PRESETS, WATCH_ALGORITHMS } from "./presets.js";
import { LESSONS } from "./lessons.js";
import { ticTacToeTree } from "./positions.js";
import { gameTree } from "./gametree.js";
import { depthSentence } from "./depthnote.js";
import { tellIterations } from "./mctsstory.js";
import { tellTrace } from "./story.js";
import { autoFold, drawTree, layout } from "./tree.js";
import { outcomeText } from "./notation.js";
import { fillStats, formatNumber, html, showError } from "./svg.js";

const $ = (id) => document.getElementById(id);
const OWN = "own";
const LESSON_HASH = "#watch/lesson/";  // a lesson's link: LESSON_HASH + its key
const STEPPING = ["first", "back", "forward", "last", "autoplay"];  // the controls of a run's steps
const FOLD_BUDGET = 40;  // the most nodes a run's tree shows before the student unfolds more
const TREE_GAMES = ["tree", "tictactoe"];  // drawn whole before the search; other games' trees come from it

export class WatchPanel {
  constructor() {
    this.run = null;  // {root, entries, story, result, compared, choice}
    this.step = 0;
    this.timer = null;  // the next step of a playing run
    this.shown = -1;  // the last step whose lines are in the narration
    this.generation = 0;  // bumped by every edit and run, so that a run's late answer is ignored
    this.predicted = new Set();  // the leaves a student predicts will be pruned (CS188's exercise)
    this.choices = [];  // this position's runs so far: {algorithm, depth, move, value}, for depthnote.js
    const preset = $("preset");
    for (const [key, p] of Object.entries(PRESETS)) preset.append(html("option", { value: key }, p.title));
    preset.append(html("option", { value: OWN }, "your own (edit the JSON)"));
    const algorithm = $("watch-algorithm");
    for (const [key, a] of Object.entries(WATCH_ALGORITHMS)) algorithm.append(html("option", { value: key }, a.label));
    const lesson = $("lesson");
    lesson.append(html("option", { value: "" }, "none: choose a tree and a search"));
    for (const [key, l] of Object.entries(LESSONS)) lesson.append(html("option", { value: key }, l.title));
    lesson.addEventListener("change", () => this.openLesson(lesson.value, true));
    window.addEventListener("hashchange", () => this.lessonFromHash());
    preset.addEventListener("change", () => this.loadPreset());
    $("tree-text").addEventListener("input", () => this.edited());
    $("run").addEventListener("click", () => this.runSearch());
    $("random-tree").addEventListener("click", () => this.randomTree());
    $("first").addEventListener("click", () => this.goTo(0));
    $("back").addEventListener("click", () => this.goTo(this.step - 1));
    $("forward").addEventListener("click", () => this.goTo(this.step + 1));
    $("last").addEventListener("click", () => this.goTo(Infinity));
    $("autoplay").addEventListener("click", () => (this.timer === null ? this.play() : this.pause()));
    $("delay").addEventListener("input", () => this.showDelay());
    this.showDelay();
    $("tree").addEventListener("keydown", (event) => {
      const moves = { ArrowLeft: this.step - 1, ArrowRight: this.step + 1, Home: 0, End: Infinity };
      if (event.key in moves) {
        event.preventDefault();
        this.goTo(moves[event.key]);
      }
    });
    this.loadPreset();
    this.lessonFromHash();
  }

  /** The lesson a link names (/play#watch/lesson/<key>), if any. */
  lessonFromHash() {
    const key = location.hash.startsWith(LESSON_HASH) ? decodeURIComponent(location.hash.slice(LESSON_HASH.length)) : "";
    if (key in LESSONS && key !== $("lesson").value) this.openLesson(key, false);
  }

  /** Load lesson `key` ("": none): its tree, search and depth, its question, its answer folded away;
   * `link`: write its link in the address. */
  openLesson(key, link) {
    const lesson = LESSONS[key];
    $("lesson").value = lesson ? key : "";
    $("lesson-question").hidden = $("lesson-answer").hidden = !lesson;
    $("lesson-answer").open = false;
    if (link) history.replaceState(null, "", lesson ? LESSON_HASH + key : "#watch");
    if (!lesson) return;
    $("lesson-question").textContent = lesson.question;
    $("lesson-answer-text").textContent = lesson.answer;
    $("preset").value = lesson.preset;
    this.loadPreset();
    $("watch-algorithm").value = lesson.algorithm;
    $("watch-depth").value = lesson.depth === undefined ? "" : String(lesson.depth);
  }

  loadPreset() {
    const key = $("preset").value;
    if (key === OWN) {
      this.setGame("tree");
      this.offer(null);
      $("tree-editor").open = true;
      return;
    }
    const preset = PRESETS[key];
    this.setGame(preset.game || "tree");
    $("tree-text").value = JSON.stringify(preset.state, null, 2);
    this.offer(preset.algorithms);
    $("watch-algorithm").value = preset.algorithm;
    if (preset.depth !== undefined) $("watch-depth").value = String(preset.depth);
    this.edited();
  }

  /** The game searched, whose state the editor holds (its summary says which). */
  setGame(game) {
    this.game = game;
    $("editor-game").textContent = game;
  }

  /** Only the searches `algorithms` (keys of WATCH_ALGORITHMS; null: all) can be chosen. */
  offer(algorithms) {
    for (const option of $("watch-algorithm").options) option.disabled = Boolean(algorithms) && !algorithms.includes(option.value);
  }

  /** The tree as typed; drawn without a search until the next run. */
  edited() {
    this.pause();
    this.run = null;
    this.choices = [];
    this.generation++;
    this.clearError();
    $("watch-stats").replaceChildren();
    $("step").textContent = "";
    this.forget();
    this.predicted.clear();
    for (const id of STEPPING) $(id).disabled = true;  // nothing to step through until a run
    this.drawUnsearched();
  }

  /** The tree before its search: its leaves clickable, to predict which will be pruned. */
  drawUnsearched() {
    const root = this.rootOf(this.parsedState());
    const whole = TREE_GAMES.includes(this.game);  // a game position's tree is only its root until the search
    if (root) drawTree($("tree"), root, whole ? { predicted: this.predicted, onLeaf: (key) => this.predict(key) } : {});
  }

  /** Mark leaf `key` as predicted pruned, or unmark it; before a run's first step only. */
  predict(key) {
    if (this.predicted.has(key)) this.predicted.delete(key);
    else this.predicted.add(key);
    if (this.run) this.goTo(0);
    else this.drawUnsearched();
  }

  /** A random two-ply tree (MAX over three MIN nodes of two or three leaves, 0 to 20) in the editor. */
  randomTree() {
    const leaf = () => ({ value: Math.floor(Math.random() * 21) });
    const min = (id) => ({ id, type: "min", children: Array.from({ length: 2 + Math.floor(Math.random() * 2) }, leaf) });
    $("preset").value = OWN;
    this.setGame("tree");
    this.offer(null);
    $("tree-text").value = JSON.stringify({ root: { id: "A", type: "max", children: ["B", "C", "D"].map(min) } }, null, 2);
    this.edited();
  }

  /** The tree to draw for `state`: a `tree` state's root, tic-tac-toe's tree (positions.js), or another
   * game's position as the root alone (its tree is built from the search's trace, gametree.js). */
  rootOf(state) {
    if (!state) return null;
    if (this.game === "tree") return state.root || null;
    if (this.game !== "tictactoe") return { state };
    const rows = state.board;
    const valid = Array.isArray(rows) && rows.length === 3 && rows.every((r) => typeof r === "string" && r.length === 3);
    if (!valid) this.showError("A tic-tac-toe position here is a 3 x 3 board: {\"board\": [three rows of X, O, .]}");
    return valid ? ticTacToeTree(state) : null;
  }

  parsedState() {
    try {
      return JSON.parse($("tree-text").value);
    } catch (error) {
      this.showError(`The tree is not valid JSON: ${error.message}`);
      return null;
    }
  }

  /** The search's request: the Depth field's limit for the searches that take one (MCTS has none). */
  request(state, algorithm, trace) {
    const full = { ...algorithm };
    const depth = $("watch-depth").value.trim();
    if (depth && algorithm.name !== "mcts") full.depth = Number(depth);
    return { game: this.game, state, algorithm: full, trace };
  }

  /** One run at a time (the API lets a client hold one search): Run is disabled until it has answered. */
  async runSearch() {
    this.pause();
    this.clearError();
    const state = this.parsedState();
    let root = this.rootOf(state);
    if (!state || (!root && this.game !== "tree")) return;  // a tree without a root: the server says why
    const generation = ++this.generation;
    const key = $("watch-algorithm").value, choice = WATCH_ALGORITHMS[key];
    $("run").disabled = true;
    try {
      const result = await postJSON("/v1/search", this.request(state, choice.algorithm, true));
      const compared = choice.compare
        ? await postJSON("/v1/search", this.request(state, choice.compare.algorithm, false)) : null;
      const entries = result.trace || [];
      if (!TREE_GAMES.includes(this.game)) root = await gameTree(this.game, state, entries);
      if (generation !== this.generation) return;  // the tree was edited meanwhile
      const story = choice.algorithm.name === "mcts"
        ? tellIterations(entries, { exploration: choice.algorithm.exploration ?? Math.SQRT2, result })
        : tellTrace(root, entries, {
          windows: windowed(choice.algorithm), result,
          opponentIsChance: choice.algorithm.name === "expectimax" && !hasChance(root),
        });
      this.forget();
      if (choice.algorithm.name !== "mcts") {  // MCTS has no depth limit to compare
        this.choices.push({ algorithm: key, depth: result.algorithm.depth ?? null, move: result.move, value: result.value });
      }
      const folded = autoFold(root, FOLD_BUDGET);  // a tree that fits whole never folds
      this.run = { root, entries, story, result, compared, choice, folded, foldable: folded.size > 0 };
      for (const id of STEPPING) $(id).disabled = false;
      this.goTo(0);
    } catch (error) {
      if (generation === this.generation) this.showError(describeError(error));
    } finally {
      $("run").disabled = false;
    }
  }

  /** Show the run after `step` visits (0: before the search; Infinity: the end); a step by hand stops
   * the playing. */
  goTo(step, playing = false) {
    if (!this.run) return;
    if (!playing) this.pause();
    const { entries, story, result, compared, choice } = this.run;
    const total = entries.length;
    this.step = Math.max(0, Math.min(total, step));
    const over = this.step === total;
    const mcts = choice.algorithm.name === "mcts";
    const at = (key) => story.at(key, this.step);
    const folding = { folded: this.run.folded, onUnfold: (key) => this.unfold(key),
                      onFold: this.run.foldable ? (key) => this.fold(key) : undefined };
    drawTree($("tree"), this.run.root, mcts
      ? { ...folding, mcts: { at, edge: (key) => story.edge(key, this.step) }, chosen: over ? [result.move] : [] }
      : { ...folding, at, chosen: over ? result.pv : [], windows: windowed(choice.algorithm), predicted: this.predicted,
          onLeaf: this.step === 0 && TREE_GAMES.includes(this.game) ? (key) => this.predict(key) : undefined });
    this.keepInView();
    const current = entries[this.step - 1];
    const path = current && (current.path.length ? current.path.map(outcomeText).join(" → ") : "root");
    $("step").textContent = this.step === 0 ? `step 0 of ${total}`
      : `step ${this.step} of ${total}: ${mcts ? "iteration down to" : "visit"} ${path}`;
    this.narrate();
    $("forward").disabled = $("last").disabled = over;  // nothing after the last step
    $("back").disabled = $("first").disabled = this.step === 0;
    const rows = [[mcts ? "iterations so far" : "visited so far", this.step]];
    if (over && mcts) {
      rows.push(["best move", outcomeText(result.move)], ["visits", result.moves.map((m) => `${outcomeText(m.move)} ${m.visits}`)
        .join(", ")], ["value", result.value], ["visited nodes", result.stats.nodes]);
    } else if (over) {
      rows.push(["visited nodes", result.stats.nodes], ["value", result.value], ["best move", outcomeText(result.move)],
                ["chosen line", result.pv.map(outcomeText).join(" → ")], ["cutoffs", result.stats.cutoffs]);
      if (result.values) rows.push(["values", result.values.map((x) => formatNumber(x)).join(", ")]);
      if (compared) rows.push([`nodes with ${choice.compare.label}`, compared.stats.nodes]);
      else rows.push(["comparison", "max^n does not prune: nothing to compare"]);
      if (this.predicted.size) rows.push(["your prediction", this.verdict()]);
    }
    fillStats($("watch-stats"), rows, over ? "result" : "step");
    $("depth-note").textContent = over && !mcts && !TREE_GAMES.includes(this.game) ? depthSentence(this.choices) : "";
  }

  /** Fold the subtree below the node `key` into its "+N" (what was folded inside it stays so), which
   * takes the focus. */
  fold(key) {
    this.run.folded.add(key);
    this.goTo(this.step, this.timer !== null);
    [...$("tree").querySelectorAll("g.fold")].find((g) => g.dataset.path === key).focus();
  }

  /** Show the subtree below the folded node `key` one level deeper: its children, each of theirs with a
   * subtree folded in turn; the focus goes to the first of those, else to the tree. */
  unfold(key) {
    const { folded, root } = this.run;
    folded.delete(key);
    const node = layout(root).find((n) => n.key === key);
    for (const child of node.children) if (child.children.length) folded.add(child.key);
    this.goTo(this.step, this.timer !== null);
    const below = key === "[]" ? "[" : `${key.slice(0, -1)},`;  // the keys of its descendants start so
    const next = [...$("tree").querySelectorAll("g.fold")].find((g) => g.dataset.path.startsWith(below));
    (next || $("tree")).focus();
  }

  /** The student's prediction of the pruned leaves against the run's. */
  verdict() {
    const pruned = layout(this.run.root).filter((n) => !n.children.length && this.run.story.at(n.key, Infinity).pruned)
      .map((n) => n.key);
    const missed = pruned.filter((k) => !this.predicted.has(k)).length;
    const wrong = [...this.predicted].filter((k) => !pruned.includes(k)).length;
    if (!missed && !wrong) return `right: exactly the ${pruned.length} pruned leaves`;
    return `${pruned.length - missed} of ${pruned.length} pruned leaves found, ${wrong} marked that were searched`;
  }

  /** The story so far: every step's lines up to this one, the current step's marked and read out. Lines
   * are added and removed as the step moves, so that a step costs its own lines, not the whole story's. */
  narrate() {
    const { steps } = this.run.story;
    const log = $("narration");
    while (log.lastElementChild && Number(log.lastElementChild.dataset.step) > this.step) log.lastElementChild.remove();
    for (let s = Math.min(this.shown, this.step) + 1; s <= this.step; s++) {
      log.append(...steps[s].map((line) => html("li", { "data-step": s }, line)));
    }
    this.shown = this.step;
    log.querySelectorAll("li.now").forEach((item) => item.classList.remove("now"));
    log.querySelectorAll(`li[data-step="${this.step}"]`).forEach((item) => item.classList.add("now"));
    log.scrollTop = log.scrollHeight;
    $("narration-now").textContent = steps[this.step].join(" ");
  }

  /** A tree wider than its box (on a phone) scrolls sideways to the node the current step visits. */
  keepInView() {
    const area = $("tree"), node = area.querySelector("g.current");
    if (!node || area.scrollWidth <= area.clientWidth) return;
    const box = area.getBoundingClientRect(), mark = node.getBoundingClientRect();
    area.scrollLeft += (mark.left + mark.width / 2) - (box.left + box.width / 2);
  }

  /** No story shown. */
  forget() {
    $("narration").replaceChildren();
    $("narration-now").textContent = "";
    this.shown = -1;
  }

  /** Step forward every `delay` milliseconds until the end (from the start when at the end). */
  play() {
    if (!this.run) return;
    if (this.step === this.run.entries.length) this.goTo(0);
    const tick = () => {
      this.goTo(this.step + 1, true);
      if (this.step === this.run.entries.length) this.pause();
      else this.timer = setTimeout(tick, Number($("delay").value));
    };
    this.timer = setTimeout(tick, Number($("delay").value));
    $("autoplay").textContent = "Pause";
    $("autoplay").setAttribute("aria-pressed", "true");
  }

  pause() {
    clearTimeout(this.timer);
    this.timer = null;
    $("autoplay").textContent = "Play";
    $("autoplay").setAttribute("aria-pressed", "false");
  }

  showDelay() {
    $("delay-text").textContent = `${$("delay").value} ms`;
  }

  showError(text) {
    showError($("watch-error"), text);
  }

  clearError() {
    showError($("watch-error"));
  }
}

/** Whether the search's trace has alpha and beta: alpha-beta, and expectimax with Star1. */
function windowed(algorithm) {
  return algorithm.name === "alphabeta" || (algorithm.name === "expectimax" && algorithm.pruning !== false);
}

function hasChance(node) {
  return node.type === "chance" || (Array.isArray(node.children) && node.children.some(hasChance));
}
