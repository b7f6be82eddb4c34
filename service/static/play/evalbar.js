// The evaluation bar (vertical, beside the board): the AI's latest value of the position, always from the first player's point of view
// (White in chess), read from the answer's `score` and `win_probability` (the API's common scale), so that
// no game needs code of its own here.
import { formatNumber, html } from "./svg.js";

/**
 * The answer's score as seen by `players[0]`: {text, share (0..1 of the bar for players[0], or null when
 * the game has no probability), view (whose point of view, when it cannot be the first player's)}.
 */
export function evaluation(answer, game) {
  const [first] = game.players;
  const flip = flips(answer.perspective, game);
  const view = answer.perspective === first || flip ? first : answer.perspective;
  const sign = flip ? -1 : 1;
  const p = answer.win_probability;
  return { text: scoreText(answer.score, sign), view,
           share: p === null || p === undefined ? null : flip ? 1 - p : p };
}

/**
 * Whether a value from `player`'s point of view reads negated from the first player's: zero_sum games have
 * two sides (Pacman and the ghosts too), so the other side's value is the first's negated.
 */
export function flips(player, game) {
  return player !== game.players[0] && game.zero_sum === true;
}

/** A score as players read it: "+1.35" pawns, "M3", "win in 5", "draw", or the value itself. */
export function scoreText(score, sign = 1) {
  if (!score) return "–";
  if ("mate" in score) return score.mate === null ? (sign > 0 ? "mate" : "mated") : `${score.mate * sign < 0 ? "-" : ""}M${Math.abs(score.mate)}`;
  if ("win_in" in score || "loss_in" in score) {
    const win = ("win_in" in score) === (sign > 0);
    const plies = score.win_in ?? score.loss_in;
    return `${win ? "win" : "loss"}${plies ? ` in ${plies}` : ""}`;
  }
  if ("draw" in score) return "draw";
  if ("cp" in score) return signed(score.cp * sign / 100);
  return signed(score.value * sign);
}

function signed(x) {
  return `${x > 0 ? "+" : ""}${formatNumber(x, 2)}`;
}

/** Draw the bar in `container` (null answer: empty, nothing known yet). */
export function drawEvalBar(container, answer, game) {
  if (!answer) {
    container.replaceChildren();
    container.hidden = true;
    return;
  }
  const { text, share, view } = evaluation(answer, game);
  const bar = html("div", { class: "eval-track", role: "meter", "aria-label": `evaluation for ${view}`,
                            "aria-valuemin": "0", "aria-valuemax": "100",
                            "aria-valuenow": share === null ? undefined : String(Math.round(share * 100)) });
  const fill = html("div", { class: "eval-fill", "data-testid": "eval-fill" });
  fill.style.height = `${share === null ? 50 : share * 100}%`;
  bar.classList.toggle("no-scale", share === null);
  bar.append(fill);
  const label = html("span", { class: "eval-text", "data-testid": "eval-text" }, text);
  const chance = share === null ? "" : ` · ${view} wins ${Math.round(share * 100)}%`;
  container.replaceChildren(html("span", { class: "eval-view" }, `${view}:`), label,
                            html("span", { class: "eval-chance" }, chance), bar);
  container.title = `${view}: ${text}${chance}`;
  container.hidden = false;
}
