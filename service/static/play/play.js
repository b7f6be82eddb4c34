// The "Play" panel: any game of GET /v1/games against the AI. The page keeps the states played (for
// undo) and asks the API for everything else: the legal moves, the result of a move, the AI's search
// (streamed, so its iterations show while it thinks).
import { describeError, postJSON, streamSearch } from "./api.js";
import { drawGrid, gridOf } from "./board.js";
import { drawTree, labelOf } from "./tree.js";
import { fillStats, formatNumber, html, moveText, showError, svg } from "./svg.js";

const $ = (id) => document.getElementById(id);
const BOTH = "both (hot seat)", NOBODY = "nobody (AI against AI)";
const CHANCE_DELAY_MS = 250;
const FIRST_GAME = "tictactoe";

export class PlayPanel {
  constructor(games) {
    this.games = new Map(games.map((g) => [g.id, g]));
    this.history = [];      // [{state, info, move}] from the start of the game; the last is the position
    this.search = null;     // the AbortController of the search running, if any
    this.pending = false;   // a move sent to the rules, not answered yet
    this.generation = 0;    // bumped on every new position, so that late answers are ignored
    const select = $("game");
    for (const g of games) select.append(html("option", { value: g.id }, g.name || g.id));
    if (this.games.has(FIRST_GAME)) select.value = FIRST_GAME;
    select.addEventListener("change", () => this.chooseGame());
    $("side").addEventListener("change", () => this.maybeAiMove());
    $("algorithm").addEventListener("change", () => this.hintSettings());
    $("new-game").addEventListener("click", () => this.newGame());
    $("undo").addEventListener("click", () => this.undo());
    $("ai-move").addEventListener("click", () => this.aiMove());
    $("stop").addEventListener("click", () => this.stopThinking());
    $("load-state").addEventListener("click", () => this.loadPasted());
    this.chooseGame();
  }

  get game() { return this.games.get($("game").value); }
  get position() { return this.history[this.history.length - 1]; }

  chooseGame() {
    const game = this.game;
    const side = $("side");
    side.replaceChildren(...game.players.map((p) => html("option", { value: p }, p)),
                         html("option", { value: BOTH }, BOTH), html("option", { value: NOBODY }, NOBODY));
    const algorithm = $("algorithm");
    algorithm.replaceChildren(...game.algorithms.map((a) => html("option", { value: a }, a)));
    // The strongest default the game offers: auto when the service has it, else alpha-beta, else MCTS.
    const preferred = ["auto", "alphabeta", "expectimax", "mcts"].find((a) => game.algorithms.includes(a));
    if (preferred) algorithm.value = preferred;
    this.hintSettings();
    this.newGame();
  }

  hintSettings() {
    const name = $("algorithm").value;
    const hints = { mcts: '{"seed": 1, "iterations": 5000}', alphabeta: '{"move_ordering": false}',
                    expectimax: '{"opponent_model": "epsilon_greedy"}', auto: '{"level": 3}' };
    $("extra").placeholder = `e.g. ${hints[name] || "{}"}`;
  }

  newGame() {
    this.setPosition([], this.game.initial_state);
  }

  undo() {
    // Back to the last position where a human was to move (or one move back when the AI plays itself).
    const human = $("side").value;
    let keep = this.history.length - 1;
    do { keep--; } while (keep > 0 && human !== BOTH && this.history[keep].info.to_move !== human);
    if (keep < 0) return;
    this.stopThinking();
    this.history = this.history.slice(0, keep + 1);
    this.generation++;
    this.show();
  }

  /**
   * A pasted state: JSON, or the bare text of a game whose state is one string field (a FEN, Connect
   * Four's move list), which the page wraps in that field.
   */
  async loadPasted() {
    const text = $("state-text").value.trim();
    let state, problem = null;
    try {
      state = JSON.parse(text);
    } catch (error) {
      problem = `The state is not valid JSON: ${error.message}`;
    }
    const fields = Object.entries(this.game.initial_state);
    if ((problem || typeof state !== "object") && fields.length === 1 && typeof fields[0][1] === "string") {
      state = { [fields[0][0]]: text };  // "4453" is JSON too, but a number, never a state
    } else if (problem) {
      this.showError(problem);
      return;
    }
    this.setPosition([], state);
  }

  /** Start from `state` (checked by the API, which also says who moves and what is legal). */
  async setPosition(history, state) {
    this.stopThinking();
    const generation = ++this.generation;
    this.clearError();
    try {
      const info = await postJSON(`/v1/games/${encodeURIComponent(this.game.id)}/legal-moves`, { state });
      if (generation !== this.generation) return;
      this.history = [...history, { state, info, move: undefined }];
      this.clearThinking();
      this.show();
      this.maybeAiMove();
    } catch (error) {
      if (generation === this.generation) this.showError(describeError(error));
    }
  }

  async play(move) {
    const position = this.position;
    if (!position || position.info.terminal) return;
    const generation = ++this.generation;
    this.clearError();
    this.pending = true;  // no second move until the rules have answered
    this.show();
    try {
      const answer = await postJSON(`/v1/games/${encodeURIComponent(this.game.id)}/apply`,
                                    { state: position.state, move });
      if (generation !== this.generation) return;
      const { state, ...info } = answer;
      this.history.push({ state, info, move });
      this.pending = false;
      this.show();
      this.maybeAiMove();
    } catch (error) {
      if (generation !== this.generation) return;
      this.pending = false;
      this.showError(describeError(error));
      this.show();
    }
  }

  /** Whoever is to move next: chance draws an outcome, the AI searches, a human waits for a click. */
  maybeAiMove() {
    const position = this.position;
    if (!position || position.info.terminal) return;
    const mover = position.info.to_move;
    if (mover === "chance") {
      const generation = this.generation;
      setTimeout(() => {
        if (generation !== this.generation) return;
        this.play(drawOutcome(position.state, position.info.moves));
      }, CHANCE_DELAY_MS);
      return;
    }
    const human = $("side").value;
    if (human === BOTH || mover === human) return;
    this.aiMove();
  }

  algorithmRequest() {
    const algorithm = { name: $("algorithm").value };
    const depth = $("depth").value.trim();
    if (depth) algorithm.depth = Number(depth);
    const extra = $("extra").value.trim();
    if (extra) Object.assign(algorithm, JSON.parse(extra));
    return algorithm;
  }

  async aiMove() {
    const position = this.position;
    if (!position || position.info.terminal || position.info.to_move === "chance") return;
    this.stopThinking();
    const generation = ++this.generation;
    this.clearError();
    let algorithm;
    try {
      algorithm = this.algorithmRequest();
    } catch (error) {
      this.showError(`More settings must be a JSON object: ${error.message}`);
      return;
    }
    const body = { game: this.game.id, state: position.state, algorithm };
    const limit = $("time-limit").value.trim();
    if (limit) body.time_limit_ms = Number(limit);
    const controller = new AbortController();
    this.search = controller;
    $("stop").disabled = false;
    this.setStatus(`${position.info.to_move} (AI, ${algorithm.name}) is thinking…`);
    this.clearThinking();
    try {
      const result = await streamSearch(body, (info) => this.showInfo(info), controller.signal);
      if (generation !== this.generation) return;
      this.search = null;
      $("stop").disabled = true;
      this.showResult(result);
      await this.play(result.move);
    } catch (error) {
      if (error.name === "AbortError" || generation !== this.generation) return;
      this.search = null;
      $("stop").disabled = true;
      this.showError(describeError(error));
      this.show();
    }
  }

  /** Stop the AI's search, if one runs; a move sent to the rules is forgotten (its answer is ignored). */
  stopThinking() {
    this.pending = false;
    if (this.search) {
      this.search.abort();
      this.search = null;
      this.generation++;
      this.show();
    }
    $("stop").disabled = true;
  }

  // --- drawing ---

  show() {
    const position = this.position;
    if (!position) return;
    const { state, info } = position;
    $("state-text").value = JSON.stringify(state, null, 1).replace(/\n\s*(?=[\]\d"'.])/g, " ");
    const humanTurn = !info.terminal && info.to_move !== "chance" && !this.search && !this.pending;
    const onMove = humanTurn ? (move) => this.play(move) : null;
    const grid = gridOf(state);
    const area = $("board");
    if (grid) {
      const last = Number.isInteger(position.move) ? position.move : undefined;
      drawGrid(area, grid, { legalMoves: info.moves, moveSchema: this.game.move_schema, onMove, lastMove: last });
    } else if (state && state.root) {
      drawTree(area, state.root, { onChild: onMove });
    } else {
      area.replaceChildren(html("p", { class: "hint" }, "This game's state has no board the page can draw; "
                                     + "play with the move buttons below."));
    }
    const moves = $("moves");
    moves.replaceChildren(...info.moves.map((m) => {
      const button = html("button", { "data-move": JSON.stringify(m) }, moveText(m));
      button.disabled = !humanTurn;
      button.addEventListener("click", () => this.play(m));
      return button;
    }));
    $("undo").disabled = this.history.length < 2;
    $("ai-move").disabled = info.terminal || info.to_move === "chance";
    if (info.terminal) this.setStatus(resultText(this.game, info), "over");
    else if (!this.search) {
      const plies = this.history.length - 1;
      this.setStatus(`${info.to_move === "chance" ? "Chance" : info.to_move} to move (ply ${plies + 1}).`);
    }
  }

  setStatus(text, kind = "") {
    const status = $("status");
    status.textContent = text;
    status.dataset.kind = kind;
  }

  clearThinking() {
    $("stats").replaceChildren();
    $("bars").replaceChildren();
  }

  showInfo(info) {
    fillStats($("stats"), [
      ["depth", info.depth], ["value", info.value], ["best move", moveText(info.move)],
      ["PV", info.pv.map(moveText).join(" ")], ["nodes", info.nodes], ["nodes/s", info.nodes_per_second],
      ["time (ms)", info.time_ms], ...(info.iterations !== null ? [["iterations", info.iterations]] : []),
    ], "info");
  }

  showResult(result) {
    const s = result.stats;
    const rows = [
      ["move", moveText(result.move)], ["value", result.value], ["perspective", result.perspective],
      ["outcome", result.outcome ?? "not proven"],
      ["plies to end", result.plies_to_end ?? "–"],
      ["depth", s.depth_completed], ["nodes", s.nodes], ["nodes/s", s.nodes_per_second],
      ["time (ms)", s.time_ms], ["stopped", s.stop_reason], ["PV", result.pv.map(moveText).join(" ")],
    ];
    if (s.iterations !== null) rows.push(["iterations", s.iterations]);
    if (result.values) rows.push(["values", result.values.map(formatNumber).join(", ")]);
    fillStats($("stats"), rows, "result");
    drawBars($("bars"), result.moves, result.move);
  }

  showError(text) {
    showError($("play-error"), text);
  }

  clearError() {
    showError($("play-error"));
  }
}

/**
 * A chance outcome: by the probabilities a tree's chance node writes on its children ("p"), else (the
 * rules list outcomes without their odds) uniformly among the outcomes.
 */
function drawOutcome(state, outcomes) {
  const children = state && state.root && Array.isArray(state.root.children) ? state.root.children : [];
  const weighted = children.map((child, i) => [labelOf(child, i), child.p])
    .filter(([label, p]) => typeof p === "number" && outcomes.some((o) => JSON.stringify(o) === JSON.stringify(label)));
  let r = Math.random() * weighted.reduce((sum, [, p]) => sum + p, 0);
  for (const [label, p] of weighted) {
    r -= p;
    if (r < 0) return label;
  }
  return outcomes[Math.floor(Math.random() * outcomes.length)];
}

/** The game's result from the final utilities: the winner of a two-sided game, else every utility. */
function resultText(game, info) {
  const utilities = info.utilities || {};
  const entries = Object.entries(utilities);
  if (entries.length === 2 && game.zero_sum) {
    const [[a, ua], [b, ub]] = entries;
    if (ua === ub) return "Game over: a draw.";
    return `Game over: ${ua > ub ? a : b} wins.`;
  }
  return `Game over: ${entries.map(([p, u]) => `${p} ${formatNumber(u)}`).join(", ")}.`;
}

/** Every root move's value as a horizontal bar, from the lowest value to the highest. */
function drawBars(container, moves, chosen) {
  if (!moves.length) {
    container.replaceChildren();
    return;
  }
  const values = moves.map((m) => m.value);
  let lo = Math.min(0, ...values), hi = Math.max(0, ...values);
  if (hi - lo < 1e-9) { lo -= 1; hi += 1; }
  const rowHeight = 22, labelWidth = 70, barWidth = 220, width = labelWidth + barWidth + 110;
  const scale = (v) => labelWidth + ((v - lo) / (hi - lo)) * barWidth;
  const chart = svg("svg", { viewBox: `0 0 ${width} ${moves.length * rowHeight + 4}`, class: "bars",
                             role: "img", "aria-label": "value of every root move" });
  moves.forEach((m, i) => {
    const y = i * rowHeight + 2;
    const x0 = scale(0), x1 = scale(m.value);
    const best = JSON.stringify(m.move) === JSON.stringify(chosen);
    chart.append(svg("text", { x: labelWidth - 6, y: y + 15, class: "bar-label", "text-anchor": "end" },
                     moveText(m.move)));
    chart.append(svg("rect", { x: Math.min(x0, x1), y: y + 3, width: Math.max(1, Math.abs(x1 - x0)),
                               height: rowHeight - 6, class: best ? "bar best" : "bar",
                               "data-move": JSON.stringify(m.move) }));
    const note = `${formatNumber(m.value)}${m.bound !== "exact" ? ` (${m.bound})` : ""}`
                 + `${m.visits !== null && m.visits !== undefined ? ` ${m.visits} visits` : ""}`;
    chart.append(svg("text", { x: labelWidth + barWidth + 6, y: y + 15, class: "bar-value" }, note));
  });
  chart.append(svg("line", { x1: scale(0), x2: scale(0), y1: 0, y2: moves.length * rowHeight + 4,
                             class: "axis" }));
  container.replaceChildren(chart);
}
