// The moves played, as players write them: in pairs with move numbers ("1. e4 Nf6") where two players
// alternate, else one line a ply that names who moved (chance, and the ghosts, move too). Every move is a
// button that goes to the position after it; the moves after the position shown stay listed, greyed,
// until another move is played there; a review's judgements mark the moves ("??" a blunder). And the game as
// FEN and PGN, where the rules give a FEN (chess).
import { moveLabels } from "./notation.js";
import { html, moveText } from "./svg.js";

/** The text of each move of `line` (entries {state, info, move}; the first is the start). */
function playedTexts(line) {
  return line.slice(1).map((entry, i) => {
    const before = line[i].info;
    const index = before.legal_moves.findIndex((m) => JSON.stringify(m) === JSON.stringify(entry.move));
    return index >= 0 ? moveLabels(before)[index] : moveText(entry.move);
  });
}

/** Whether the line's moves alternate between the game's two players (no chance, no passes skipped). */
function alternates(line, players) {
  if (players.length !== 2) return false;
  return line.slice(1).every((_, i) => players.includes(line[i].info.to_move)
                                       && (i === 0 || line[i].info.to_move !== line[i - 1].info.to_move));
}

// The signs players annotate moves with, for the review's classes that are worth a sign.
const SIGNS = { inaccuracy: "?!", mistake: "?", blunder: "??" };

/**
 * Fill the <ol> `list` with the moves of `line`, of which the first `shown` positions are the game as it
 * stands (the later ones greyed); `onGo(ply)` goes to the position after ply `ply` (1 = the first move);
 * `classOf(ply)` is the review's class of that move, if it was reviewed.
 */
export function drawMoveList(list, line, shown, players, onGo, classOf = () => undefined) {
  const texts = playedTexts(line);
  const paired = alternates(line, players);
  list.classList.toggle("paired", paired);
  const firstIsSecond = paired && line.length > 1 && line[0].info.to_move === players[1];
  const first = fullmoveOf(line[0].info);
  list.replaceChildren(...texts.map((text, i) => {
    const mover = line[i].info.to_move;
    const item = html("li", { "data-mover": mover, "data-ply": String(i + 1) });
    if (paired) {
      const n = Math.floor((i + (firstIsSecond ? 1 : 0)) / 2) + first;
      if (mover === players[0]) item.append(html("span", { class: "num" }, `${n}.`));
      else if (i === 0) {
        item.append(html("span", { class: "num" }, `${n}…`));
        item.classList.add("second");  // in the second column, as the first player's moves are in the first
      }
    } else {
      item.append(html("span", { class: "mover" }, mover === "chance" ? "chance" : mover));
    }
    const judged = classOf(i + 1);
    const button = html("button", { class: "move-text", type: "button" }, text);
    if (judged) {
      item.dataset.class = judged;
      button.setAttribute("aria-label", `${text}: ${judged}`);
      button.title = judged;
      if (SIGNS[judged]) button.append(html("span", { class: "judgement", "aria-hidden": "true" }, SIGNS[judged]));
    }
    button.addEventListener("click", () => onGo(i + 1));
    item.append(button);
    if (i + 1 === shown - 1) item.classList.add("current");
    if (i + 1 >= shown) item.classList.add("after");
    return item;
  }));
  const current = list.querySelector(".current");
  list.scrollTop = current ? current.offsetTop - list.offsetTop - list.clientHeight / 2 : list.scrollHeight;
}

/** The number of the first move from the position `info`: its FEN's fullmove number (chess), else 1. */
function fullmoveOf(info) {
  return (info.fen && Number(info.fen.split(" ")[5])) || 1;
}

/** The game as PGN (chess: `line` from a FEN, its moves in SAN), the players' names in `names`. */
export function pgnOf(line, names, result) {
  const start = line[0].info.fen;
  const headers = [["Event", "Tactician playground"], ["Site", location.origin],
                   ["Date", new Date().toISOString().slice(0, 10).replaceAll("-", ".")],
                   ["White", names.white], ["Black", names.black], ["Result", result]];
  if (start && start !== STANDARD_START) headers.push(["SetUp", "1"], ["FEN", start]);
  const [fullmove, side] = [fullmoveOf(line[0].info), start ? start.split(" ")[1] : "w"];
  const words = [];
  playedTexts(line).forEach((san, i) => {
    const ply = i + (side === "b" ? 1 : 0);
    const n = fullmove + Math.floor(ply / 2);
    if (ply % 2 === 0) words.push(`${n}.`);
    else if (i === 0) words.push(`${n}...`);
    words.push(san);
  });
  words.push(result);
  return `${headers.map(([k, v]) => `[${k} "${v}"]`).join("\n")}\n\n${wrap(words.join(" "))}\n`;
}

const STANDARD_START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

/** Lines of at most 80 characters, as PGN's export format has them. */
function wrap(text) {
  const lines = [""];
  for (const word of text.split(" ")) {
    const last = lines.length - 1;
    if (lines[last] && lines[last].length + 1 + word.length > 80) lines.push(word);
    else lines[last] = lines[last] ? `${lines[last]} ${word}` : word;
  }
  return lines.join("\n");
}
