// The review of a game (POST /v1/review/stream): each decision judged as it comes, drawn on a graph of
// the evaluation over the plies and marked on the move list, and the last move of the position shown
// explained: its class, what it gave up, the better move and its line. The game reviewed is the one
// played, or one pasted: a PGN (chess; the server reads it) or a move list from the start of the game shown.
import { describeError, postJSON, streamEvents } from "./api.js";
import { moveLabel } from "./notation.js";
import { MARKED, drawReviewGraph } from "./reviewgraph.js";
import { formatNumber, html, moveText } from "./svg.js";

const $ = (id) => document.getElementById(id);
const CLASSES = ["best", "good", "inaccuracy", "mistake", "blunder"];

/** A pasted move list: a JSON array, else words (each JSON where it parses: 3, {"cell": ...}; else text). */
export function parseMoves(text) {
  try {
    const moves = JSON.parse(text);
    if (Array.isArray(moves)) return moves;
  } catch { /* words, then */ }
  return text.split(/[\s,]+/).filter(Boolean).map((word) => {
    try {
      return JSON.parse(word);
    } catch {
      return word;
    }
  });
}

/**
 * The plies of a PGN's main line, as near as the page can count them without the rules: its words once
 * the tag pairs, comments, variations, move numbers, annotations and the result are taken out.
 */
export function pgnPlies(pgn) {
  let text = pgn.replace(/^\s*\[[^\]]*\]\s*$/gm, " ").replace(/\{[^}]*\}/g, " ").replace(/;[^\n]*/g, " ");
  while (/\([^()]*\)/.test(text)) text = text.replace(/\([^()]*\)/g, " ");  // variations, nested ones too
  return text.split(/\s+/).map((word) => word.replace(/^\d+\.+/, "").replace(/[?!]+$/, ""))
    .filter((word) => word && !/^(\$\d+|1-0|0-1|1\/2-1\/2|\*|\.+)$/.test(word)).length;
}

/** Whether the pasted text is a PGN rather than a move list: chess, and not a JSON array. */
function isPgn(text, game) {
  if (game.id !== "chess") return false;
  try {
    return !Array.isArray(JSON.parse(text));
  } catch {
    return true;
  }
}

/** A position's worth for its mover: "mate" or "mated" (chess), "won" or "lost" where proven, else the value. */
function worthText(value, outcome, game) {
  const chess = game.value_scale === "pawns";
  if (outcome === "win") return chess ? "mate" : "won";
  if (outcome === "loss") return chess ? "mated" : "lost";
  if (outcome === "draw") return "a draw";
  return formatNumber(value);
}

/** What a move gave up: a proven result, or so much value. */
function givenUp(p) {
  if (p.outcome_before === "win" && p.outcome_after !== "win") return "a forced win let go";
  if (p.outcome_after === "loss" && p.outcome_before !== "loss") return "now lost by force";
  if (p.outcome_before === "draw" && p.outcome_after === "loss") return "a draw let go";
  return p.loss > 0 ? `gave up ${formatNumber(p.loss)}` : "nothing given up";
}

export class Review {
  /**
   * `panel` is the Play panel: its game, line and history, `rules(body)`, `reviewAlgorithm()`,
   * `goTo(plies)`, `showLine(line)`, `markHint(move)`, `show()` and its error box.
   */
  constructor(panel) {
    this.panel = panel;
    this.entries = null;      // the line reviewed ({state, info, move}, the start first), once known
    this.plies = new Map();   // index of the move in the game (0: the first) -> its ReviewPly
    this.length = 0;          // the plies of the game reviewed
    this.result = null;       // the whole review's answer, once it came
    this.running = null;      // the AbortController of the review streaming
    $("review").addEventListener("click", () => (this.running ? this.cancel() : this.reviewGame()));
    $("review-pasted").addEventListener("click", () => this.reviewPasted());
    $("review-try").addEventListener("click", () => this.tryBetter());
    $("review-back").addEventListener("click", () => this.step(-1));
    $("review-forward").addEventListener("click", () => this.step(1));
    $("review-previous-mistake").addEventListener("click", () => this.stepToMistake(-1));
    $("review-next-mistake").addEventListener("click", () => this.stepToMistake(1));
  }

  /** The review's class of move `ply` (1: the first) of `line`, when that move is the one reviewed. */
  classOf(line, ply) {
    if (!this.entries || line[ply] !== this.entries[ply]) return undefined;
    return this.plies.get(ply - 1)?.class;
  }

  /** Review the game played (the whole line, also the moves after the position shown). */
  reviewGame() {
    const line = this.panel.line;
    if (line.length < 2) return;
    this.run({ state: line[0].state, moves: line.slice(1).map((entry) => entry.move) }, line);
  }

  /** Review the pasted game: a chess PGN as it is, a move list once the rules have played it. */
  async reviewPasted() {
    const text = $("review-text").value.trim();
    const game = this.panel.game;
    if (!text) return this.panel.showError("Paste a game to review: a move list (or a PGN, for chess).");
    this.stop();
    this.panel.clearError();
    if (isPgn(text, game)) {
      const fen = /\[FEN\s+"([^"]+)"\]/.exec(text);
      const start = fen ? { fen: fen[1] } : game.initial_state;
      return this.run({ pgn: text }, null, start);
    }
    const moves = parseMoves(text);
    if (!moves.length) return this.panel.showError("The move list has no moves.");
    this.setStatus("Playing the moves pasted…");
    try {
      const line = await this.lineFrom(this.panel.line[0].state, moves);
      this.panel.showLine(line);
      this.run({ state: line[0].state, moves }, line);
    } catch (error) {
      this.setStatus("");
      this.panel.showError(error.message);
    }
  }

  /** The positions of `moves` played from `state`, by the rules; an illegal move names its number. */
  async lineFrom(state, moves) {
    const url = (route) => `/v1/games/${encodeURIComponent(this.panel.game.id)}/${route}`;
    const info = await postJSON(url("legal-moves"), this.panel.rules({ state })).catch((error) => {
      throw new Error(`The start of the game: ${describeError(error)}`);
    });
    const line = [{ state, info, move: undefined }];
    for (const [i, move] of moves.entries()) {
      try {
        const { state: after, ...played } = await postJSON(url("apply"), this.panel.rules({ state: line[i].state, move }));
        line.push({ state: after, info: played, move });
      } catch (error) {
        throw new Error(`Move ${i + 1} (${moveText(move)}): ${describeError(error)}`);
      }
    }
    return line;
  }

  /**
   * Stream the review of `game` ({state, moves} or {pgn}) with the AI's algorithm. `line` is the game's
   * positions when known; a PGN's are played from `start` once the review has named its moves.
   */
  async run(game, line, start = null) {
    let algorithm;
    try {
      algorithm = this.panel.reviewAlgorithm();
    } catch (error) {
      return this.panel.showError(`More settings must be a JSON object: ${error.message}`);
    }
    this.stop();
    this.panel.stopThinking();  // the AI pauses (its searches would take the review's turns); "AI move now" goes on
    const controller = new AbortController();
    this.running = controller;
    this.entries = line;
    this.length = line ? line.length - 1 : 0;
    this.plies = new Map();
    this.result = null;
    this.panel.clearError();
    this.setStatus(`Reviewing the game with ${algorithm.name}…`);
    this.panel.show();
    const body = this.panel.rules({ game: this.panel.game.id, ...game, algorithm });
    const budget = this.panel.reviewBudget(game.moves ? game.moves.length : pgnPlies(game.pgn));
    if (budget) body.time_limit_ms = budget;
    try {
      const result = await streamEvents("/v1/review/stream", body, (event, ply) => {
        if (event !== "ply" || this.running !== controller) return;
        this.plies.set(ply.ply, ply);
        this.length = Math.max(this.length, ply.ply + 1);
        this.setStatus(`Reviewing the game with ${algorithm.name}… ${this.plies.size} moves judged.`);
        this.panel.show();
      }, controller.signal);
      if (this.running !== controller) return;
      if (!line) {  // a PGN: its positions, now that the review named its moves
        this.entries = await this.lineFrom(start, result.plies.map((p) => p.move));
        if (this.running !== controller) return;
        this.panel.showLine(this.entries);
      }
      this.running = null;
      this.result = result;
      for (const ply of result.plies) this.plies.set(ply.ply, ply);
      this.length = Math.max(this.length, this.entries.length - 1);
      // A review ends by its time limit: the moves it had no time for are not judged (`complete` false).
      const partial = result.complete === false ? " The time ran out before the end: the later moves are not judged." : "";
      this.setStatus(`Review done: ${result.plies.length} moves judged.${partial} The graph's points and `
                     + "the moves listed go to their positions.");
      this.panel.show();
    } catch (error) {
      if (error.name === "AbortError" || this.running !== controller) return;
      this.running = null;
      this.setStatus("");
      this.panel.showError(describeError(error));
      this.panel.show();
    }
  }

  /** Stop the review streaming, if one is. */
  stop() {
    if (this.running) this.running.abort();
    this.running = null;
  }

  /** The user stopped the review: what was judged so far stays. */
  cancel() {
    this.stop();
    this.setStatus(`Review stopped: ${this.plies.size} moves judged.`);
    this.panel.show();
  }

  /** Forget the review (a new game): its graph, summary and marks go. */
  clear() {
    this.stop();
    this.entries = null;
    this.plies = new Map();
    this.result = null;
    this.length = 0;
    this.setStatus("");
  }

  /** The judgement of the last move of the position shown, if it was reviewed: {ply, before}. */
  current() {
    const n = this.shownPly();
    if (!n || !this.plies.has(n - 1)) return null;
    return { ply: this.plies.get(n - 1), before: this.entries[n - 1] };
  }

  /** The number of moves played to the position shown, when it is on the line reviewed, else null. */
  shownPly() {
    const { history, line } = this.panel;
    const n = history.length - 1;
    return this.entries && line[n] === this.entries[n] ? n : null;
  }

  /** One move back (-1) or forward (1) along the game reviewed. */
  step(direction) {
    const n = this.shownPly();
    if (n === null) return;
    const next = n + direction;
    if (next >= 0 && next < this.entries.length) this.panel.goTo(next);
  }

  /** The position after the previous (-1) or next (1) inaccuracy, mistake or blunder from the one shown. */
  stepToMistake(direction) {
    const target = this.mistakeFrom(direction);
    if (target !== null) this.panel.goTo(target);
  }

  /** The number of moves to the position after the nearest marked move in `direction`, or null. */
  mistakeFrom(direction) {
    const n = this.shownPly();
    if (n === null) return null;
    for (let k = n + direction; k >= 1 && k < this.entries.length; k += direction) {
      if (MARKED.has(this.plies.get(k - 1)?.class)) return k;
    }
    return null;
  }

  /** Show the better move of the last move shown: the position before it, that move marked. */
  tryBetter() {
    const judged = this.current();
    if (!judged) return;
    this.panel.goTo(this.panel.history.length - 2);
    this.panel.markHint(judged.ply.best_move);
  }

  // --- drawing ---

  setStatus(text) {
    $("review-status").textContent = text;
  }

  /** The graph, the summary and the last move shown, for the position the panel shows. */
  draw() {
    const { game, line } = this.panel;
    const button = $("review");
    button.textContent = this.running ? "Stop the review" : "Review the game";
    button.disabled = !this.running && (line.length < 2 || Boolean(this.panel.search) || this.panel.pending);
    const plies = [...this.plies.values()].sort((a, b) => a.ply - b.ply);
    const label = (p) => p.san ?? (this.entries ? moveLabel(this.entries[p.ply].info, p.move) : moveText(p.move));
    const shown = this.shownPly();
    $("review-back").disabled = !shown;
    $("review-forward").disabled = shown === null || shown + 1 >= this.entries.length;
    $("review-previous-mistake").disabled = this.mistakeFrom(-1) === null;
    $("review-next-mistake").disabled = this.mistakeFrom(1) === null;
    drawReviewGraph($("review-graph"), plies, game, {
      length: this.length, shown: shown ?? -1, label,
      onGo: (n) => { if (this.entries && this.panel.line[n] === this.entries[n]) this.panel.goTo(n); },
    });
    this.drawSummary();
    this.drawCurrent(label);
  }

  drawSummary() {
    const table = $("review-summary");
    table.hidden = !this.result;
    if (!this.result) return table.replaceChildren();
    const head = html("tr");
    head.append(...["side", "accuracy", ...CLASSES].map((name) => html("th", { scope: "col" }, name)));
    const rows = Object.entries(this.result.summary).map(([player, side]) => {
      const row = html("tr", { "data-player": player });
      row.append(html("th", { scope: "row" }, player),
                 html("td", { "data-stat": "accuracy" }, `${formatNumber(side.accuracy, 1)} %`),
                 ...CLASSES.map((name) => html("td", { "data-stat": name }, String(side.classes[name]))));
      return row;
    });
    const judge = this.result.judge;
    const caption = html("caption", {}, `Accuracy and moves by class; thresholds ${judge.inaccuracy} / ${judge.mistake} / `
                                        + `${judge.blunder} on ${judge.measure.replace("_", " ")}: ${judge.source}`);
    const thead = html("thead"), tbody = html("tbody");
    thead.append(head);
    tbody.append(...rows);
    table.replaceChildren(caption, thead, tbody);
  }

  /** What the review says of the last move shown: its class, its loss, and the better move and line. */
  drawCurrent(label) {
    const box = $("review-ply");
    const judged = this.current();
    box.hidden = !judged;
    $("review-try").hidden = !judged || judged.ply.class === "best";
    if (!judged) return;
    const { ply: p, before } = judged;
    box.dataset.class = p.class;
    const units = p.win_probability_before !== null && p.win_probability_after !== null
      ? `; ${p.player}'s winning chances ${Math.round(p.win_probability_before * 100)} % → ${Math.round(p.win_probability_after * 100)} %`
      : "";
    const played = html("p", { class: "review-played" });
    const game = this.panel.game;
    played.append(html("strong", {}, `${p.player} played ${label(p)}`), `: ${p.class}`,
                  `. Value ${worthText(p.value_before, p.outcome_before, game)} → ${worthText(p.value_after, p.outcome_after, game)}`
                  + ` (${givenUp(p)})${units}.`);
    const better = html("p", { class: "review-better" });
    if (p.class !== "best") {
      const best = p.best_san ?? moveLabel(before.info, p.best_move);
      better.append("Better: ", html("strong", { "data-testid": "review-best" }, best), ", the line ",
                    html("span", { class: "review-line", "data-testid": "review-line" },
                         (p.pv_san ?? p.pv.map(moveText)).join(" ")));
    } else if (JSON.stringify(p.best_move) === JSON.stringify(p.move)) {
      better.append("The engine's choice too.");
    } else {
      better.append(`As good as the engine's choice, ${p.best_san ?? moveLabel(before.info, p.best_move)}.`);
    }
    box.replaceChildren(played, better);
  }
}
