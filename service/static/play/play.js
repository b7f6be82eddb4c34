// The "Play" panel: any game of GET /v1/games against the AI. The page keeps the states played (for
// undo) and asks the API for everything else: the legal moves, the result of a move, the AI's search
// (streamed, so its iterations show while it thinks).
import { describeError, postJSON, streamSearch } from "./api.js";
import { drawBackgammon, isBackgammon } from "./backgammon.js";
import { boardOf, drawGrid, targetsOf } from "./board.js";
import { drawMaze, isMaze } from "./maze.js";
import { drawTree } from "./tree.js";
import { fillStats, formatDistinct, formatNumber, html, moveText, showError, svg } from "./svg.js";

const $ = (id) => document.getElementById(id);
const BOTH = "both (hot seat)", NOBODY = "nobody (AI against AI)";
const CHANCE_DELAY_MS = 250;
// A search the page cancels holds the client's share on the server until the server sees the stream
// closed (a heartbeat, then its stopped search's answer: well under a second). A 429 this soon after
// the page's own cancellation is that search's, not a busy server: the page asks again shortly, quietly.
const OWN_CANCEL_WINDOW_MS = 3000, OWN_CANCEL_RETRY_MS = 150;
const FIRST_GAME = "tictactoe";
// The arrow keys play the move of that name, in games whose moves are directions (2048, Pacman); Space
// plays Pacman's Stop.
const KEY_MOVES = { ArrowUp: ["up", "North"], ArrowDown: ["down", "South"], ArrowLeft: ["left", "West"],
                    ArrowRight: ["right", "East"], " ": ["Stop"] };
const TYPING = new Set(["INPUT", "TEXTAREA", "SELECT"]);

export class PlayPanel {
  constructor(games) {
    this.games = new Map(games.map((g) => [g.id, g]));
    this.history = [];      // [{state, info, move}] from the start of the game; the last is the position
    this.search = null;     // the AbortController of the search running, if any
    this.streaming = null;  // the AbortController of the search whose request is open (not yet answered)
    this.cancelledAt = -Infinity;  // when the page last aborted an open search of its own (performance.now())
    this.pending = false;   // a move or a position sent to the rules, not answered yet
    this.generation = 0;    // bumped on every new position, so that late answers are ignored
    this.editing = false;   // the state box holds text typed since a position was asked for: drawing keeps it
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
    $("state-text").addEventListener("input", () => { this.editing = true; });
    $("extra").addEventListener("change", () => this.refresh());
    document.addEventListener("keydown", (event) => this.key(event));
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
    this.editing = false;
    this.show();
  }

  /**
   * A pasted state: JSON, or the bare text of the one string field of the game's initial state other than
   * `to_move` (a chess FEN), which the page puts in that field.
   */
  async loadPasted() {
    const text = $("state-text").value.trim();
    let state, problem = null;
    try {
      state = JSON.parse(text);
    } catch (error) {
      problem = `The state is not valid JSON: ${error.message}`;
    }
    const strings = Object.entries(this.game.initial_state)  // the side to move is never a whole position
      .filter(([name, value]) => typeof value === "string" && name !== "to_move");
    if ((problem || typeof state !== "object") && strings.length === 1) {
      state = { [strings[0][0]]: text };  // "4453" is JSON too, but a number, never a state
    } else if (problem) {
      this.showError(problem);
      return;
    }
    this.setPosition([], state);
  }

  /** The game's options among the "More settings" (2048's tile_probabilities): the rules take them too. */
  gameOptions() {
    const names = new Set((this.game.options || []).map((option) => option.name));
    let extra = {};
    try {
      extra = JSON.parse($("extra").value.trim() || "{}");
    } catch {
      return {};  // the search reports it
    }
    return Object.fromEntries(Object.entries(extra).filter(([name]) => names.has(name)));
  }

  /** A request with the game's options, if any, in their place on every route: `options`. */
  rules(body) {
    const options = this.gameOptions();
    return Object.keys(options).length ? { ...body, options } : body;
  }

  /** The settings changed: the current position again, as the rules now see it (chance's odds). */
  refresh() {
    const position = this.position;
    if (position) this.setPosition(this.history.slice(0, -1), position.state, position.move);
  }

  /** Start from `state` (checked by the API, which also says who moves and what is legal). */
  async setPosition(history, state, move = undefined) {
    this.stopThinking();
    const generation = ++this.generation;
    this.clearError();
    const editing = this.editing;
    this.editing = false;  // the box shows the position asked for, once the rules have answered
    this.pending = true;  // the board shown is not the position being set up: no move on it meanwhile
    $("board").classList.add("checking");
    this.setStatus("Checking the position…");
    try {
      const info = await postJSON(`/v1/games/${encodeURIComponent(this.game.id)}/legal-moves`, this.rules({ state }));
      if (generation !== this.generation) return;
      this.pending = false;
      this.history = [...history, { state, info, move }];
      this.clearThinking();
      this.show();
      this.maybeAiMove();
    } catch (error) {
      if (generation !== this.generation) return;
      this.pending = false;  // the position shown stays, and can be played on
      this.editing = editing;  // and the text typed stays, to be mended
      $("board").classList.remove("checking");
      this.showStatus();
      this.showError(describeError(error));
    }
  }

  /** Play `move`: the human's (only on a human's turn), or the AI's or chance's (`byHuman` false). */
  async play(move, byHuman = true) {
    const position = this.position;
    if (!position || position.info.terminal || this.pending) return;
    if (byHuman && !this.humanTurn()) return;  // never a move for the AI, nor during its search
    const generation = ++this.generation;
    this.clearError();
    this.pending = true;  // no second move until the rules have answered
    this.show();
    try {
      const answer = await postJSON(`/v1/games/${encodeURIComponent(this.game.id)}/apply`,
                                    this.rules({ state: position.state, move }));
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

  /** Whether a human may move now. */
  humanTurn() {
    const position = this.position;
    if (!position || position.info.terminal || position.info.to_move === "chance" || this.search || this.pending) {
      return false;
    }
    const human = $("side").value;
    return human === BOTH || human === position.info.to_move;
  }

  /** An arrow key (or Space) plays the direction of that name, when it is legal and a human's turn. */
  key(event) {
    if ($("play").hidden || TYPING.has(event.target.tagName) || event.altKey || event.ctrlKey || event.metaKey) return;
    const names = KEY_MOVES[event.key];
    if (!names || !this.humanTurn()) return;
    const move = this.position.info.moves.find((m) => names.includes(m));
    if (move === undefined) return;
    event.preventDefault();
    this.play(move);
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
        this.play(drawOutcome(position.info), false);
      }, CHANCE_DELAY_MS);
      return;
    }
    const human = $("side").value;
    if (human === BOTH || mover === human) return;
    this.aiMove();
  }

  /** The algorithm object: its name, the depth and the "More settings" but the game's options, which a
   * search takes in the request's `options`, as the rules do (see rules()). */
  algorithmRequest() {
    const algorithm = { name: $("algorithm").value };
    const depth = $("depth").value.trim();
    if (depth) algorithm.depth = Number(depth);
    const extra = $("extra").value.trim();
    if (extra) Object.assign(algorithm, JSON.parse(extra));
    for (const name of Object.keys(this.gameOptions())) delete algorithm[name];
    return algorithm;
  }

  async aiMove() {
    const position = this.position;
    if (!position || position.info.terminal || position.info.to_move === "chance") return;
    if (this.pending) return;  // the rules are checking a move or a position: their answer moves on
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
    const body = this.rules({ game: this.game.id, state: position.state, algorithm });
    const limit = $("time-limit").value.trim();
    if (limit) body.time_limit_ms = Number(limit);
    const controller = new AbortController();
    this.search = controller;
    this.show();  // the board and the move buttons take no move while the AI thinks
    $("stop").disabled = false;
    this.setStatus(`${position.info.to_move} (AI, ${algorithm.name}) is thinking…`);
    this.clearThinking();
    try {
      this.streaming = controller;
      const result = await streamSearch(body, (info) => this.showInfo(info), controller.signal)
        .finally(() => { if (this.streaming === controller) this.streaming = null; });
      if (generation !== this.generation) return;
      this.search = null;
      $("stop").disabled = true;
      this.showResult(result);
      await this.play(result.move, false);
    } catch (error) {
      if (error.name === "AbortError" || generation !== this.generation) return;
      if (error.problem?.status === 429 && performance.now() - this.cancelledAt < OWN_CANCEL_WINDOW_MS) {
        // Refused for the page's own search, just cancelled and not yet closed on the server: still
        // "thinking", and asked again as soon as that search is let go.
        setTimeout(() => { if (generation === this.generation) this.aiMove(); }, OWN_CANCEL_RETRY_MS);
        return;
      }
      if (error.retryAfter != null) {
        // The server is busy: ask again when it says. The search stays "running" meanwhile, so that Stop
        // thinking, Undo or a new position cancels the retry.
        this.setStatus(`The server is busy: asking again in ${error.retryAfter} s… (${describeError(error)})`);
        setTimeout(() => { if (generation === this.generation) this.aiMove(); }, error.retryAfter * 1000);
        return;
      }
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
      if (this.streaming === this.search) this.cancelledAt = performance.now();  // not a retry's wait
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
    if (!this.editing) $("state-text").value = JSON.stringify(state, null, 1).replace(/\n\s*(?=[\]\d"'.-])/g, " ");
    const humanTurn = this.humanTurn();  // not the AI's turn (the side chosen), nor its search, nor a pending move
    const onMove = humanTurn ? (move) => this.play(move) : null;
    const labels = moveLabels(info);
    const area = $("board");
    area.classList.remove("checking");
    const board = boardOf(state);
    if (isMaze(state)) {
      drawMaze(area, state);
    } else if (isBackgammon(state)) {
      drawBackgammon(area, state);
    } else if (board) {
      const previous = this.history[this.history.length - 2];
      const last = previous && position.move !== undefined ? targetsOf(position.move, boardOf(previous.state) || board,
                                                                         this.game.move_schema) : null;
      const lastCells = !last ? [] : last.from === null ? (last.to.length === 1 ? last.to : []) : [last.from, ...last.to];
      drawGrid(area, board, { moves: info.moves.map((move, i) => ({ move, label: labels[i] })),
                              moveSchema: this.game.move_schema, onMove, lastCells });
    } else if (state && state.root) {
      drawTree(area, state.root, { onChild: onMove });
    } else {
      area.replaceChildren(html("p", { class: "hint" }, "This game's state has no board the page can draw; "
                                     + "play with the move buttons below."));
    }
    const moves = $("moves");
    moves.replaceChildren(...info.moves.map((m, i) => {
      const button = html("button", { "data-move": JSON.stringify(m) }, labels[i]);
      if (info.probabilities) button.title = `probability ${formatNumber(info.probabilities[i])}`;
      button.disabled = !humanTurn;
      button.addEventListener("click", () => this.play(m));
      return button;
    }));
    this.showMoveList();
    $("undo").disabled = this.history.length < 2;
    $("ai-move").disabled = info.terminal || info.to_move === "chance";
    this.showStatus();
  }

  /** The position's result, or who is to move (the AI's search, while it runs, says so itself). */
  showStatus() {
    const position = this.position;
    if (!position) return this.setStatus("");
    const { info } = position;
    if (info.terminal) this.setStatus(resultText(this.game, info), "over");
    else if (!this.search) {
      const plies = this.history.length - 1;
      this.setStatus(`${info.to_move === "chance" ? "Chance" : info.to_move} to move (ply ${plies + 1}).`);
    }
  }

  /** The moves played since the start, each in the game's notation where it has one (chess: SAN). */
  showMoveList() {
    const items = this.history.slice(1).map((entry, i) => {
      const before = this.history[i].info;
      const index = before.moves.findIndex((m) => JSON.stringify(m) === JSON.stringify(entry.move));
      return html("li", { "data-mover": before.to_move }, index >= 0 ? moveLabels(before)[index] : moveText(entry.move));
    });
    $("move-list").replaceChildren(...items);
    $("move-list").scrollTop = $("move-list").scrollHeight;
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
      ["depth", info.depth], ...(info.seldepth ? [["deepest ply", info.seldepth]] : []), ["value", info.value], ["best move", moveText(info.move)],
      ["PV", info.pv.map(moveText).join(" ")], ["nodes", info.nodes], ["nodes/s", info.nodes_per_second],
      ["time (ms)", info.time_ms], ...(info.iterations !== null ? [["iterations", info.iterations]] : []),
    ], "info");
  }

  showResult(result) {
    const s = result.stats;
    const notation = Object.keys(result).find((k) => k.startsWith("pv_"))?.slice(3);
    const pv = notation ? result[`pv_${notation}`] : result.pv.map(moveText);
    const rows = [
      ["move", notation ? result[notation] : moveText(result.move)],
      ["value", formatDistinct([result.value, ...result.moves.map((m) => m.value)])[0]],  // as in the bars
      ["perspective", result.perspective],
      ["outcome", result.outcome ?? "not proven"],
      ["plies to end", result.plies_to_end ?? "–"],
      // As the answer names them: the deepest iteration finished, and the deepest ply visited.
      ["depth completed", s.depth_completed], ["deepest ply", s.max_depth], ["nodes", s.nodes], ["nodes/s", s.nodes_per_second],
      ["time (ms)", s.time_ms], ["stopped", s.stop_reason], ["PV", pv.join(" ")],
    ];
    if (s.iterations !== null) rows.push(["iterations", s.iterations]);
    if (result.values) rows.push(["values", result.values.map((x) => formatNumber(x)).join(", ")]);
    fillStats($("stats"), rows, "result");
    drawBars($("bars"), result.moves, result.move, notation);
  }

  showError(text) {
    showError($("play-error"), text);
  }

  clearError() {
    showError($("play-error"));
  }
}

/** A chance outcome, drawn by the probabilities the rules give with the outcomes. */
function drawOutcome(info) {
  const p = info.probabilities || info.moves.map(() => 1 / info.moves.length);
  let r = Math.random() * p.reduce((sum, x) => sum + x, 0);
  for (let i = 0; i < info.moves.length; i++) {
    r -= p[i];
    if (r < 0) return info.moves[i];
  }
  return info.moves[info.moves.length - 1];
}

// The lists of a rules answer that are not the legal moves in a notation (openapi.yaml's Position).
const NOT_NOTATION = ["legal_moves", "moves", "players", "probabilities", "plays"];

/** Each legal move as people write it: in the game's notation where the rules give one (chess: SAN). */
function moveLabels(info) {
  const notation = Object.keys(info).find((k) => !NOT_NOTATION.includes(k) && Array.isArray(info[k])
                                                 && info[k].length === info.moves.length);
  return info.moves.map((m, i) => (notation ? info[notation][i] : outcomeText(m)));
}

/** A move as text; 2048's new tile as "2 at b3" (its column letter and row from the top). */
function outcomeText(move) {
  if (move && typeof move === "object" && Array.isArray(move.cell) && move.tile !== undefined) {
    return `${move.tile} at ${String.fromCharCode(97 + move.cell[1])}${move.cell[0] + 1}`;
  }
  return moveText(move);
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
function drawBars(container, moves, chosen, notation) {
  if (!moves.length) {
    container.replaceChildren();
    return;
  }
  const values = moves.map((m) => m.value);
  const texts = formatDistinct(values);  // enough digits to tell the values apart
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
                     notation && m[notation] ? m[notation] : moveText(m.move)));
    chart.append(svg("rect", { x: Math.min(x0, x1), y: y + 3, width: Math.max(1, Math.abs(x1 - x0)),
                               height: rowHeight - 6, class: best ? "bar best" : "bar",
                               "data-move": JSON.stringify(m.move) }));
    const note = `${texts[i]}${m.bound !== "exact" ? ` (${m.bound})` : ""}`
                 + `${m.visits !== null && m.visits !== undefined ? ` ${m.visits} visits` : ""}`;
    chart.append(svg("text", { x: labelWidth + barWidth + 6, y: y + 15, class: "bar-value" }, note));
  });
  chart.append(svg("line", { x1: scale(0), x2: scale(0), y1: 0, y2: moves.length * rowHeight + 4,
                             class: "axis" }));
  container.replaceChildren(chart);
}
