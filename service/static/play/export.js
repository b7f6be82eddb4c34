// The game to take away, where the rules give a FEN (chess): the position's FEN and the game's PGN, to
// copy or download.
import { pgnOf } from "./history.js";
import { pgnResult } from "./outcome.js";

const $ = (id) => document.getElementById(id);

/** Fill the export box for `history` (the positions played); `names(player)` is who plays that side. */
export function showExport(history, game, names) {
  const position = history[history.length - 1];
  const fen = position.info.fen;
  $("export").hidden = !fen;
  if (!fen) return;
  $("fen").value = fen;
  const pgn = pgnOf(history, Object.fromEntries(game.players.map((p) => [p, names(p)])),
                    pgnResult(game, position.info));
  $("pgn").value = pgn;
  const link = $("download-pgn");
  if (link.href.startsWith("blob:")) URL.revokeObjectURL(link.href);
  link.href = URL.createObjectURL(new Blob([pgn], { type: "application/x-chess-pgn" }));
}

/** The copy buttons: to the clipboard, or, where the page may not write it, the text selected to copy. */
export function wireExport() {
  for (const [button, field] of [["copy-fen", "fen"], ["copy-pgn", "pgn"]]) {
    const label = $(button).textContent;
    $(button).addEventListener("click", async () => {
      try {
        await navigator.clipboard.writeText($(field).value);
        $(button).textContent = "Copied";
      } catch {
        $(field).select();
        $(button).textContent = "Selected: copy it with Ctrl+C";
      }
      setTimeout(() => { $(button).textContent = label; }, 2000);
    });
  }
}
