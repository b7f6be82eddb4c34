// The playground page: two panels (tabs), built from GET /v1/games.
import { describeError, getJSON } from "./api.js";
import { restore } from "./persist.js";
import { PlayPanel } from "./play.js";
import { WatchPanel } from "./watch.js";

let play = null;  // the Play panel, once the games are loaded

// The panels follow the hash: "#watch" is the Watch panel ("#watch/lesson/<key>": with a lesson), anything else Play ("#play?...": a game shared
// as a link, which the Play panel opens). A tab chosen writes its panel's hash.
function tabs() {
  const buttons = [...document.querySelectorAll('[role="tab"]')];
  const select = (chosen, writeHash = true) => {
    for (const button of buttons) {
      const selected = button === chosen;
      button.setAttribute("aria-selected", String(selected));
      button.tabIndex = selected ? 0 : -1;
      document.getElementById(button.getAttribute("aria-controls")).hidden = !selected;
    }
    if (!writeHash) return;
    if (chosen === buttons[1]) history.replaceState(null, "", "#watch");
    else if (play) play.save();
    else history.replaceState(null, "", location.pathname);
  };
  buttons.forEach((button, i) => {
    button.addEventListener("click", () => select(button));
    button.addEventListener("keydown", (event) => {
      const step = { ArrowRight: 1, ArrowLeft: -1 }[event.key];
      if (!step) return;
      const next = buttons[(i + step + buttons.length) % buttons.length];
      next.focus();
      select(next);
    });
  });
  const fromHash = () => select(location.hash.startsWith("#watch") ? buttons[1] : buttons[0], false);
  window.addEventListener("hashchange", () => {
    fromHash();
    if (play && location.hash.startsWith("#play?")) play.open(restore());
  });
  fromHash();
  window.scrollTo(0, 0);  // a #watch link selects the panel; it need not scroll to it
}

async function start() {
  tabs();
  new WatchPanel();
  try {
    const games = await getJSON("/v1/games");
    play = new PlayPanel(games.games || games);
  } catch (error) {
    const box = document.getElementById("play-error");
    box.textContent = describeError(error);
    box.hidden = false;
  }
  document.body.dataset.ready = "true";
}

start();
