// The "Watch the search" panel: run a search with its trace on an explicit tree, draw the tree with each
// node's value and window, grey out what was pruned, highlight the chosen line, step through the visits,
// and compare the node count with the same search with pruning off (or on).
import { describeError, postJSON } from "./api.js";
import { PRESETS, WATCH_ALGORITHMS } from "./presets.js";
import { drawTree, readTrace } from "./tree.js";
import { fillStats, formatNumber, html, moveText, showError } from "./svg.js";

const $ = (id) => document.getElementById(id);
const OWN = "own";

export class WatchPanel {
  constructor() {
    this.run = null;  // {root, visits, entries, result, compared}
    this.step = 0;
    this.generation = 0;  // bumped by every edit and run, so that a run's late answer is ignored
    const preset = $("preset");
    for (const [key, p] of Object.entries(PRESETS)) preset.append(html("option", { value: key }, p.title));
    preset.append(html("option", { value: OWN }, "your own (edit the JSON)"));
    const algorithm = $("watch-algorithm");
    for (const [key, a] of Object.entries(WATCH_ALGORITHMS)) algorithm.append(html("option", { value: key }, a.label));
    preset.addEventListener("change", () => this.loadPreset());
    $("tree-text").addEventListener("input", () => this.edited());
    $("run").addEventListener("click", () => this.runSearch());
    $("first").addEventListener("click", () => this.goTo(0));
    $("back").addEventListener("click", () => this.goTo(this.step - 1));
    $("forward").addEventListener("click", () => this.goTo(this.step + 1));
    $("last").addEventListener("click", () => this.goTo(Infinity));
    $("tree").addEventListener("keydown", (event) => {
      const moves = { ArrowLeft: this.step - 1, ArrowRight: this.step + 1, Home: 0, End: Infinity };
      if (event.key in moves) {
        event.preventDefault();
        this.goTo(moves[event.key]);
      }
    });
    this.loadPreset();
  }

  loadPreset() {
    const key = $("preset").value;
    if (key === OWN) {
      $("tree-editor").open = true;
      return;
    }
    const preset = PRESETS[key];
    $("tree-text").value = JSON.stringify(preset.state, null, 2);
    $("watch-algorithm").value = preset.algorithm;
    this.edited();
  }

  /** The tree as typed; drawn without a search until the next run. */
  edited() {
    this.run = null;
    this.generation++;
    this.clearError();
    $("watch-stats").replaceChildren();
    $("step").textContent = "";
    const state = this.parsedState();
    if (state && state.root) drawTree($("tree"), state.root);
  }

  parsedState() {
    try {
      return JSON.parse($("tree-text").value);
    } catch (error) {
      this.showError(`The tree is not valid JSON: ${error.message}`);
      return null;
    }
  }

  request(state, algorithm, trace) {
    const full = { ...algorithm };
    const depth = $("watch-depth").value.trim();
    if (depth) full.depth = Number(depth);
    return { game: "tree", state, algorithm: full, trace };
  }

  /** One run at a time (the API lets a client hold one search): Run is disabled until it has answered. */
  async runSearch() {
    this.clearError();
    const state = this.parsedState();
    if (!state) return;
    const generation = ++this.generation;
    const choice = WATCH_ALGORITHMS[$("watch-algorithm").value];
    $("run").disabled = true;
    try {
      const result = await postJSON("/v1/search", this.request(state, choice.algorithm, true));
      const compared = choice.compare
        ? await postJSON("/v1/search", this.request(state, choice.compare.algorithm, false)) : null;
      if (generation !== this.generation) return;  // the tree was edited meanwhile
      const entries = result.trace || [];
      this.run = { root: state.root, entries, visits: readTrace(entries), result, compared, choice };
      this.goTo(Infinity);
    } catch (error) {
      if (generation === this.generation) this.showError(describeError(error));
    } finally {
      $("run").disabled = false;
    }
  }

  goTo(step) {
    if (!this.run) return;
    const total = this.run.entries.length;
    this.step = Math.max(0, Math.min(total, step));
    const { result, compared, choice } = this.run;
    drawTree($("tree"), this.run.root, { visits: this.run.visits, step: this.step,
                                        chosen: this.step === total ? result.pv : [],
                                        windows: ["alphabeta", "expectimax"].includes(choice.algorithm.name) });
    const current = this.run.entries[this.step - 1];
    $("step").textContent = this.step === 0 ? `step 0 of ${total}`
      : `step ${this.step} of ${total}: visit ${current.path.length ? current.path.map(moveText).join(" → ") : "root"}`;
    const rows = [
      ["visited nodes", result.stats.nodes], ["value", result.value], ["best move", moveText(result.move)],
      ["chosen line", result.pv.map(moveText).join(" → ")], ["cutoffs", result.stats.cutoffs],
    ];
    if (result.values) rows.push(["values", result.values.map((x) => formatNumber(x)).join(", ")]);
    if (compared) rows.push([`nodes with ${choice.compare.label}`, compared.stats.nodes]);
    else rows.push(["comparison", "max^n does not prune: nothing to compare"]);
    if (this.run.entries.length < result.stats.nodes) rows.push(["trace", "truncated (MAX_TRACE_ENTRIES)"]);
    fillStats($("watch-stats"), rows, "result");
  }

  showError(text) {
    showError($("watch-error"), text);
  }

  clearError() {
    showError($("watch-error"));
  }
}
