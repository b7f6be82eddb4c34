// "What the AI thought": a search's progress while it runs, its answer once it comes (the statistics, the
// root moves' chart), and the evaluation bar above the board, from either.
import { drawBars } from "./chart.js";
import { drawEvalBar } from "./evalbar.js";
import { moveLabel } from "./notation.js";
import { fillStats, formatDistinct, formatNumber, moveText } from "./svg.js";

const $ = (id) => document.getElementById(id);

export function clearThinking() {
  $("stats").replaceChildren();
  $("bars").replaceChildren();
  drawEvalBar($("eval"), null);
}

/** A search's progress; `move` as written in the game's notation, and its line too where the server wrote it (chess: `pv_san`). */
export function showInfo(info, move, game, perspective) {
  fillStats($("stats"), [
    ["depth", info.depth], ...(info.seldepth ? [["deepest ply", info.seldepth]] : []), ["value", info.value],
    ["best move", move ?? moveText(info.move)], ["PV", (info.pv_san || info.pv.map(moveText)).join(" ")],
    ["nodes", info.nodes], ["nodes/s", info.nodes_per_second], ["time (ms)", info.time_ms],
    ...(info.iterations !== null ? [["iterations", info.iterations]] : []),
  ], "info");
  drawEvalBar($("eval"), { ...info, perspective }, game);
}

/** A search's answer for the position whose rules answer is `info` (its legal moves, as the page writes them). */
export function showResult(result, game, info) {
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
  if (result.algorithm && result.algorithm.level !== undefined) rows.push(["level", result.algorithm.level]);
  fillStats($("stats"), rows, "result");
  drawBars($("bars"), result.moves, result.move, (move) => moveLabel(info, move));
  drawEvalBar($("eval"), result, game);
}
