// Chance's draws, and the end of a game in words and in PGN.
import { formatNumber } from "./svg.js";

/** A chance outcome, drawn by the probabilities the rules give with the outcomes. */
export function drawOutcome(info) {
  const p = info.probabilities || info.legal_moves.map(() => 1 / info.legal_moves.length);
  let r = Math.random() * p.reduce((sum, x) => sum + x, 0);
  for (let i = 0; i < info.legal_moves.length; i++) {
    r -= p[i];
    if (r < 0) return info.legal_moves[i];
  }
  return info.legal_moves[info.legal_moves.length - 1];
}

/** The game's result from the final utilities: the winner of a two-sided game, else every utility. */
export function resultText(game, info) {
  const utilities = info.utilities || {};
  const entries = Object.entries(utilities);
  if (entries.length === 2 && game.zero_sum) {
    const [[a, ua], [b, ub]] = entries;
    if (ua === ub) return "Game over: a draw.";
    return `Game over: ${ua > ub ? a : b} wins.`;
  }
  return `Game over: ${entries.map(([p, u]) => `${p} ${formatNumber(u)}`).join(", ")}.`;
}

/** PGN's result: "1-0", "0-1", "1/2-1/2", or "*" while the game goes on (the first player's first). */
export function pgnResult(game, info) {
  if (!info.terminal || !info.utilities) return "*";
  const [a, b] = game.players.map((p) => info.utilities[p]);
  return a === b ? "1/2-1/2" : a > b ? "1-0" : "0-1";
}
