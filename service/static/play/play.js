// The "Play" panel: any game of GET /v1/games against the AI. The page keeps the states played (for
// undo, the move list and going back) and asks the API for everything else: the legal moves, the result
// of a move, the AI's search (streamed, so its iterations show while it thinks), a hint, the best moves
// (multi-PV), and the review of the game (review.js).
import { describeError, postJSON, streamSearch } from "./api.js";
import { drawBestLines, multiPvAlgorithm } from "./bestmoves.js";
import { showExport, wireExport } from "./export.js";
import { drawMoveList } from "./history.js";
import { playersOf } from "./maze.js";
import { moveLabel, moveLabels } from "./notation.js";
import { readSettings, restore, save } from "./persist.js";
import { drawOutcome, resultText } from "./outcome.js";
import { Review } from "./review.js";
import { levelName, searchAlgorithm } from "./settings.js";
import { clearThinking, showInfo, showResult } from "./thinking.js";
import { drawPosition } from "./view.js";
import { html, showError } from "./svg.js";

const $ = (id) => document.getElementById(id);
const BOTH = "both (hot seat)", NOBODY = "nobody (AI against AI)";
const CHANCE_DELAY_MS = 250;
// A search the page cancels holds the client's share on the server until the server sees the stream
// closed (a heartbeat, then its stopped search's answer: well under a second). A 429 this soon after
// the page's own cancellation is that search's, not a busy server: the page asks again shortly, quietly.
const OWN_CANCEL_WINDOW_MS = 3000, OWN_CANCEL_RETRY_MS = 150;
const FIRST_GAME = "tictactoe";
const MAX_REVIEW_MS = 120_000;  // openapi.yaml's ReviewRequest.time_limit_ms
const REVIEW_NODES = 200_000;   // a review's budget a position: about 0.15 s of the compiled core's chess
const SEARCH_BOUNDS = ["depth", "depth_rounds", "iterations", "nodes"];  // the settings that end a search
// The arrow keys play the move of that name, in games whose moves are directions (2048, Pacman); Space
// plays Pacman's Stop.
const KEY_MOVES = { ArrowUp: ["up", "North"], ArrowDown: ["down", "South"], ArrowLeft: ["left", "West"],
                    ArrowRight: ["right", "East"], " ": ["Stop"] };
const STEPS = { ArrowLeft: -1, ArrowRight: 1 };  // through the game, in games whose moves are no directions
const NARROW = "(max-width: 760px)";  // style.css's one-column layout
const TYPING = new Set(["INPUT", "TEXTAREA", "SELECT"]);
const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);

export class PlayPanel {
  constructor(games) {
    this.games = new Map(games.map((g) => [g.id, g]));
    this.line = [];         // [{state, info, move, answer?}] from the start: every position reached (answer: the AI's search there)
    this.history = [];      // the line up to the position shown (its last entry); the rest can be gone back to
    this.search = null;     // the AbortController of the search running, if any
    this.streaming = null;  // the AbortController of the search whose request is open (not yet answered)
    this.cancelledAt = -Infinity;  // when the page last aborted an open search of its own (performance.now())
    this.pending = false;   // a move or a position sent to the rules, not answered yet
    this.waiting = null;    // the timer of a move waiting for its delay (the AI's, chance's)
    this.generation = 0;    // bumped on every new position, so that late answers are ignored
    this.editing = false;   // the state box holds text typed since a position was asked for: drawing keeps it
    this.hint = null;       // {position, move} of the last hint asked for
    this.best = null;       // {position, answer} of the last best moves asked for
    this.thought = null;    // {position, move}: the AI's best move so far, while it searches there
    this.perspective = new Map();  // game id -> the fixed player whose view a search's values take, if not the mover's
    const select = $("game");
    for (const g of games) select.append(html("option", { value: g.id }, g.name || g.id));
    if (this.games.has(FIRST_GAME)) select.value = FIRST_GAME;
    select.addEventListener("change", () => this.chooseGame());
    $("side").addEventListener("change", () => { this.save(); this.maybeAiMove(); });
    $("algorithm").addEventListener("change", () => this.settingsChanged());
    $("level").addEventListener("input", () => this.settingsChanged());
    for (const id of ["depth", "time-limit", "ai-delay"]) $(id).addEventListener("change", () => this.save());
    $("new-game").addEventListener("click", () => this.newGame());
    $("undo").addEventListener("click", () => this.undo());
    $("ai-move").addEventListener("click", () => this.aiMove());
    $("hint").addEventListener("click", () => this.askHint());
    $("best-moves").addEventListener("click", () => this.findBestMoves());
    $("stop").addEventListener("click", () => this.stopThinking());
    $("load-state").addEventListener("click", () => this.loadPasted());
    $("state-text").addEventListener("input", () => { this.editing = true; });
    $("extra").addEventListener("change", () => this.refresh());
    if (window.matchMedia(NARROW).matches) $("settings").open = false;  // a phone: the board first, the settings folded under it
    wireExport();
    this.review = new Review(this);
    document.addEventListener("keydown", (event) => this.key(event));
    this.open(restore());
  }

  get game() { return this.games.get($("game").value); }
  get position() { return this.history[this.history.length - 1]; }

  /** Open with what persist.js kept (the game as it was, or a shared link's position), else a new game. */
  open(kept) {
    this.stopThinking();
    if (!kept || !this.games.has(kept.settings?.game)) {
      this.chooseGame();
      return;
    }
    $("game").value = kept.settings.game;
    this.chooseGame(false);
    for (const [id, value] of Object.entries(kept.settings)) {
      const field = $(id);
      if (id !== "game" && field && (field.tagName !== "SELECT" || [...field.options].some((o) => o.value === value))) {
        field.value = value;
      }
    }
    this.settingsChanged(false);
    if (kept.line) {
      try {
        this.line = kept.line;
        this.history = kept.line.slice(0, kept.shown);
        this.show();
      } catch (error) {  // kept by another version of the page, say: a new game rather than a broken page
        const problem = `The game kept in this browser could not be shown (${error.message}): a new game.`;
        this.newGame().then(() => this.showError(problem));
        return;
      }
      this.maybeAiMove();
    } else if (kept.state !== undefined) {
      this.setPosition([], kept.state);
    } else {
      this.newGame();
    }
  }

  /** A game chosen: its sides and algorithms, and (unless `start` is false) a new game. */
  chooseGame(start = true) {
    const game = this.game;
    this.sideOptions(game.players);
    const algorithm = $("algorithm");
    algorithm.replaceChildren(...game.algorithms.map((a) => html("option", { value: a }, a)));
    // The strongest default the game offers: auto when the service has it, else alpha-beta, else MCTS.
    const preferred = ["auto", "alphabeta", "expectimax", "mcts"].find((a) => game.algorithms.includes(a));
    if (preferred) algorithm.value = preferred;
    this.settingsChanged(false);
    if (start) this.newGame();
  }

  /** The side selector: these players (those of the position), both, or nobody; the choice kept if it can be. */
  sideOptions(players) {
    const side = $("side");
    const options = [...players, BOTH, NOBODY];
    if (same([...side.options].map((o) => o.value), options)) return;
    const chosen = side.value;
    side.replaceChildren(...options.map((p) => html("option", { value: p }, p)));
    if (options.includes(chosen)) side.value = chosen;
  }

  /** The algorithm or the level changed: the level applies to auto only, and the example settings follow. */
  settingsChanged(keep = true) {
    const name = $("algorithm").value;
    const hints = { mcts: '{"seed": 1, "iterations": 5000}', alphabeta: '{"move_ordering": false}',
                    expectimax: '{"opponent_model": "epsilon_greedy"}', auto: '{"seed": 1}' };
    $("extra").placeholder = `e.g. ${hints[name] || "{}"}`;
    $("level").disabled = name !== "auto";
    $("level").title = name === "auto" ? "" : "levels are the auto algorithm's: choose auto to play a level";
    $("level-name").textContent = levelName(Number($("level").value));
    if (keep) this.save();
  }

  newGame() {
    return this.setPosition([], this.game.initial_state);
  }

  undo() {
    // Back to the last position where a human was to move (or one move back when the AI plays itself).
    const human = $("side").value;
    let keep = this.history.length - 1;
    do { keep--; } while (keep > 0 && human !== BOTH && this.history[keep].info.to_move !== human);
    if (keep < 0) return;
    this.goTo(keep);
  }

  /** Show the position after ply `ply` of the line (0: the start); the AI waits for "AI move now". */
  goTo(ply) {
    this.stopThinking();
    this.history = this.line.slice(0, ply + 1);
    this.generation++;
    this.editing = false;
    clearThinking();  // the answer shown was for another position: the one that chose the last move, if any
    const before = this.history[this.history.length - 2];
    if (before && before.answer) showResult(before.answer, this.game, before.info);
    this.clearError();
    this.show();
  }

  /** Show `line` (positions {state, info, move}, the start first: a game pasted) at its end. */
  showLine(line) {
    this.stopThinking();
    this.line = line;
    this.goTo(line.length - 1);
  }

  /** Mark `move` on the board of the position shown, as a hint is. */
  markHint(move) {
    this.hint = { position: this.position, move };
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
    if (!history.length) this.review.clear();  // a new game: the review was of another
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
      this.line = [...this.history];
      clearThinking();
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
      const next = this.line[this.history.length - 1];
      if (!next || !same(next.move, move)) this.line = [...this.history];  // a new line from here
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

  /**
   * An arrow key (or Space) plays the direction of that name, when it is legal and a human's turn, in the
   * games whose moves are directions (2048, Pacman); in the others ← and → go one move back and forward
   * along the game.
   */
  key(event) {
    if ($("play").hidden || TYPING.has(event.target.tagName) || event.altKey || event.ctrlKey || event.metaKey) return;
    if (event.target.getAttribute?.("role") === "tab") return;  // the tabs' own arrow keys (main.js)
    const names = KEY_MOVES[event.key];
    if (!names || !this.position) return;
    const directions = this.position.info.legal_moves.some((m) => Object.values(KEY_MOVES).flat().includes(m));
    if (!directions && STEPS[event.key]) {
      const ply = this.history.length - 1 + STEPS[event.key];
      event.preventDefault();
      if (ply >= 0 && ply < this.line.length) this.goTo(ply);
      return;
    }
    const move = this.position.info.legal_moves.find((m) => names.includes(m));
    if (move === undefined || !this.humanTurn()) return;
    event.preventDefault();
    this.play(move);
  }

  /**
   * Whoever is to move next: chance draws an outcome, the AI searches (after the delay set, when it plays
   * both sides), a human waits for a click.
   */
  maybeAiMove() {
    const position = this.position;
    if (!position || position.info.terminal) return;
    const mover = position.info.to_move;
    const human = $("side").value;
    if (mover !== "chance" && (human === BOTH || mover === human)) return;
    const generation = this.generation;
    const delay = mover === "chance" ? CHANCE_DELAY_MS : human === NOBODY ? Math.max(0, Number($("ai-delay").value) || 0) : 0;
    const next = () => {
      this.waiting = null;
      $("stop").disabled = true;  // until the AI's search, if it is the AI's move, enables it
      if (generation !== this.generation) return;
      const side = $("side").value;  // it may have changed meanwhile
      if (mover === "chance") this.play(drawOutcome(position.info), false);
      else if (side !== BOTH && side !== mover) this.aiMove();
    };
    if (!delay) return next();
    this.waiting = setTimeout(next, delay);
    $("stop").disabled = false;  // the next move, the AI's or chance's, can be stopped while it waits
  }

  /** The search request's algorithm: the one chosen, its depth, auto's level, and the settings typed. */
  algorithmRequest() {
    const algorithm = searchAlgorithm($("algorithm").value, $("depth").value, Number($("level").value),
                                      $("extra").value);
    for (const name of Object.keys(this.gameOptions())) delete algorithm[name];  // they go in `options`
    return algorithm;
  }

  /** A search request for `position` with `algorithm`, in the time limit set. */
  searchBody(position, algorithm) {
    const body = this.rules({ game: this.game.id, state: position.state, algorithm });
    const limit = $("time-limit").value.trim();
    if (limit) body.time_limit_ms = Number(limit);
    return body;
  }

  /** The player whose view a search's values take at `position`: its mover, or the game's fixed one. */
  perspectiveAt(position) {
    return this.perspective.get(this.game.id) || position.info.to_move;
  }

  /** The AI's move at the position shown (chance's outcome, drawn at once, where chance moves). */
  async aiMove() {
    const position = this.position;
    if (!position || position.info.terminal) return;
    if (this.pending) return;  // the rules are checking a move or a position: their answer moves on
    if (position.info.to_move === "chance") return this.play(drawOutcome(position.info), false);
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
    const body = this.searchBody(position, algorithm);
    const controller = new AbortController();
    this.search = controller;
    this.show();  // the board and the move buttons take no move while the AI thinks
    $("stop").disabled = false;
    this.setStatus(`${position.info.to_move} (AI, ${algorithm.name}) is thinking…`);
    clearThinking();
    const game = this.game;
    const labels = moveLabels(position.info);
    const onInfo = (info) => {
      showInfo(info, labels[position.info.legal_moves.findIndex((m) => same(m, info.move))], game,
               this.perspectiveAt(position));
      if (this.search !== controller || same(this.thought?.move, info.move)) return;
      this.thought = { position, move: info.move };
      this.drawBoard();
    };
    try {
      this.streaming = controller;
      const result = await streamSearch(body, onInfo, controller.signal)
        .finally(() => { if (this.streaming === controller) this.streaming = null; });
      if (generation !== this.generation) return;
      this.search = null;
      $("stop").disabled = true;
      if (result.perspective !== position.info.to_move) this.perspective.set(game.id, result.perspective);
      position.answer = result;  // shown again when the game goes back to the position after its move
      showResult(result, game, position.info);
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

  /**
   * A hint: the engine's best move for the human to move (auto at full strength, in the time set), marked
   * on the board and its button. It is the search's answer, shown like the AI's, and nothing is played.
   */
  async askHint() {
    const position = this.position;
    if (!this.humanTurn()) return;
    const result = await this.consult(this.searchBody(position, { name: "auto" }),
                                      `Looking for a good move for ${position.info.to_move}…`);
    if (!result) return;
    this.hint = { position, move: result.move };
    showResult(result, this.game, position.info);
    this.show();
    this.setStatus(`Hint for ${position.info.to_move}: ${moveLabel(position.info, result.move)}.`);
  }

  /**
   * The best moves of the position shown, as many as asked (a multi-PV search: `algorithm.multi_pv`), with
   * the algorithm chosen when it ranks several moves exactly, else the game's first that does. Nothing is
   * played; a line's move can be marked on the board.
   */
  async findBestMoves() {
    const position = this.position;
    if (!position || position.info.terminal || position.info.to_move === "chance" || this.search || this.pending) return;
    const name = multiPvAlgorithm($("algorithm").value, this.game);
    const count = Math.min(32, Math.max(2, Math.round(Number($("best-count").value)) || 3));
    const algorithm = { name, multi_pv: count };
    if ($("depth").value.trim()) algorithm.depth = Number($("depth").value);
    const result = await this.consult(this.searchBody(position, algorithm),
                                      `Looking for the ${count} best moves for ${position.info.to_move} (${name})…`);
    if (!result) return;
    this.best = { position, answer: result };
    this.show();
    this.setStatus(`The ${(result.lines || []).length} best moves for ${result.perspective}, best first.`);
  }

  /**
   * A search of the position shown that plays nothing (a hint, the best moves), which Stop thinking or a
   * move elsewhere cancels: its answer, or null when it was cancelled or failed (the error shown).
   */
  async consult(body, status) {
    const controller = new AbortController();
    this.search = controller;
    this.show();
    $("stop").disabled = false;
    this.setStatus(status);
    try {
      const result = await postJSON("/v1/search", body, controller.signal);
      if (this.search !== controller) return null;
      this.search = null;
      $("stop").disabled = true;
      return result;
    } catch (error) {
      if (error.name === "AbortError" || this.search !== controller) return null;
      this.search = null;
      $("stop").disabled = true;
      this.showError(describeError(error));
      this.show();
      return null;
    }
  }

  /** Stop the AI's search, if one runs; a move sent to the rules is forgotten (its answer is ignored). */
  stopThinking() {
    this.pending = false;
    if (this.waiting) {  // an AI move waiting for its delay
      clearTimeout(this.waiting);
      this.waiting = null;
      this.generation++;
    }
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
    this.sideOptions(playersOf(state, this.game.players));
    const humanTurn = this.drawBoard();
    drawMoveList($("move-list"), this.line, this.history.length, this.game.players, (ply) => this.goTo(ply),
                 (ply) => this.review.classOf(this.line, ply));
    this.review.draw();
    this.showBestMoves();
    showExport(this.history, this.game, (p) => this.playerName(p));
    $("undo").disabled = this.history.length < 2;
    $("ai-move").disabled = info.terminal;
    $("hint").disabled = !humanTurn;
    this.showStatus();
    if (!this.pending) this.save();
  }

  /**
   * The board of the position shown, its move buttons and help, and its arrows; whether a human may move
   * now (not the AI's turn, nor during its search, nor with a move pending).
   */
  drawBoard() {
    const position = this.position;
    const humanTurn = this.humanTurn();
    const hint = this.hint && this.hint.position === position ? this.hint.move : undefined;
    $("board").classList.remove("checking");
    $("help").textContent = drawPosition($("board"), $("moves"), this.history, this.game, {
      onMove: humanTurn ? (move) => this.play(move) : null, hint, arrows: this.arrowsAt(position, hint),
      second: $("side").value === this.game.players[1] });
    return humanTurn;
  }

  /**
   * The arrows at `position`: the best moves' lines (the best first), the AI's best move (while it searches
   * there, or the move it chose there) and the `hint`.
   */
  arrowsAt(position, hint) {
    const lines = this.best && this.best.position === position ? this.best.answer.lines || [] : [];
    const arrows = lines.map((line, i) => ({ move: line.move, kind: "line", rank: i + 1 }));
    const thought = this.search && this.thought?.position === position ? this.thought.move : position.answer?.move;
    if (thought !== undefined) arrows.push({ move: thought, kind: "best" });
    if (hint !== undefined) arrows.push({ move: hint, kind: "hint" });
    return arrows;
  }

  /**
   * Follow `pv`, a line of the best moves at the position shown, to its `plies`-th move: the line's
   * positions (by the rules) become the game's moves from here, to be stepped through (← →).
   */
  async followLine(pv, plies) {
    const position = this.position, generation = this.generation;
    try {
      const line = await this.review.lineFrom(position.state, pv);
      if (generation !== this.generation || position !== this.position) return;
      this.line = [...this.history, ...line.slice(1)];
      this.goTo(this.history.length - 1 + plies);
    } catch (error) {
      this.showError(error.message);
    }
  }

  /** The best moves asked for at the position shown, if they were; the button, when they can be. */
  showBestMoves() {
    const position = this.position;
    const best = this.best && this.best.position === position ? this.best.answer : null;
    $("best-view").textContent = best ? `Values for ${best.perspective}.` : "";
    drawBestLines($("best-lines"), best || {}, (move) => moveLabel(position.info, move), (move) => this.markHint(move),
                  (pv, plies) => this.followLine(pv, plies));
    $("best-moves").disabled = Boolean(this.search) || this.pending || position.info.terminal
                               || position.info.to_move === "chance" || !multiPvAlgorithm($("algorithm").value, this.game);
  }

  /**
   * The review's algorithm: the AI's, at full strength, and where it sets no bound of its own a budget of
   * REVIEW_NODES nodes a position, so that the same game reviewed twice is judged alike (within the time
   * limit, which still caps each search). Throws when More settings is not a JSON object.
   */
  reviewAlgorithm() {
    const algorithm = this.algorithmRequest();
    delete algorithm.level;
    if (!SEARCH_BOUNDS.some((name) => name in algorithm)) algorithm.nodes = REVIEW_NODES;
    return algorithm;
  }

  /**
   * The review's whole time limit for `plies` decisions: the time limit set, for each (at most the API's
   * 120,000 ms); null when none is set (the server's default).
   */
  reviewBudget(plies) {
    const limit = Number($("time-limit").value.trim());
    return limit > 0 && plies > 0 ? Math.min(MAX_REVIEW_MS, Math.round(limit) * plies) : null;
  }

  /** Who plays `player`: "Human", or the AI and its algorithm. */
  playerName(player) {
    const side = $("side").value;
    return side === BOTH || side === player ? "Human" : `Tactician (${$("algorithm").value})`;
  }

  save() {
    if (!this.position) return;
    save(readSettings(), this.line, this.history.length, !$("play").hidden);
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

  setStatus(text, kind = "") {
    const status = $("status");
    status.textContent = text;
    status.dataset.kind = kind;
  }

  showError(text) {
    const box = $("play-error");
    showError(box, text);
    const { top, bottom } = box.getBoundingClientRect();
    if (top < 0 || bottom > window.innerHeight) box.scrollIntoView({ block: "center" });  // a phone's paste
  }

  clearError() {
    showError($("play-error"));
  }
}
