// The game and its settings kept across reloads and shared as links: the settings and the position in
// the URL's hash ("#play?game=chess&side=white&...&state={...}"), and the whole game (for the move list,
// undo and going back) in localStorage. A link opened elsewhere starts from its position.
const KEY = "tactician.play";
const SETTINGS = ["game", "side", "algorithm", "level", "depth", "time-limit", "ai-delay", "extra"];
const PREFIX = "#play?";

/** The settings form's values, by the ids of SETTINGS. */
export function readSettings() {
  return Object.fromEntries(SETTINGS.map((id) => [id, document.getElementById(id).value]));
}

/** The URL (hash) of this game: its settings and the position `state`. */
function linkOf(settings, state) {
  const params = new URLSearchParams(settings);
  params.set("state", JSON.stringify(state));
  return `${PREFIX}${params}`;
}

/** Keep the game: its settings, and `line` (entries {state, info, move}) of which `shown` are played. */
export function save(settings, line, shown, writeLink) {
  const state = line[shown - 1].state;
  if (writeLink) history.replaceState(null, "", linkOf(settings, state));
  try {
    localStorage.setItem(KEY, JSON.stringify({ settings, line, shown }));
  } catch {
    // storage full or refused: the link still holds the position
  }
}

/**
 * What the page opens with: {settings, line, shown} (the game kept here, when the link, if any, is its
 * position), or {settings, state} (a link from elsewhere), or null.
 */
export function restore() {
  let kept = null;
  try {
    kept = JSON.parse(localStorage.getItem(KEY) || "null");
  } catch {
    kept = null;
  }
  if (!location.hash.startsWith(PREFIX)) return kept && kept.line && kept.line.length ? kept : null;
  const params = new URLSearchParams(location.hash.slice(PREFIX.length));
  const settings = Object.fromEntries(SETTINGS.filter((id) => params.has(id)).map((id) => [id, params.get(id)]));
  let state;
  try {
    state = JSON.parse(params.get("state"));
  } catch {
    state = undefined;
  }
  const same = kept && kept.settings && kept.settings.game === settings.game && kept.line
               && JSON.stringify(kept.line[kept.shown - 1]?.state) === JSON.stringify(state);
  return same ? { ...kept, settings } : { settings, state };
}
