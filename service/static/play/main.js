// The playground page: two panels (tabs), built from GET /v1/games.
import { describeError, getJSON } from "./api.js";
import { PlayPanel } from "./play.js";
import { WatchPanel } from "./watch.js";

function tabs() {
  const buttons = [...document.querySelectorAll('[role="tab"]')];
  const select = (chosen) => {
    for (const button of buttons) {
      const selected = button === chosen;
      button.setAttribute("aria-selected", String(selected));
      button.tabIndex = selected ? 0 : -1;
      document.getElementById(button.getAttribute("aria-controls")).hidden = !selected;
    }
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
  select(location.hash === "#watch" ? buttons[1] : buttons[0]);
  window.scrollTo(0, 0);  // a #watch link selects the panel; it need not scroll to it
}

async function start() {
  tabs();
  new WatchPanel();
  try {
    const games = await getJSON("/v1/games");
    new PlayPanel(games.games || games);
  } catch (error) {
    const box = document.getElementById("play-error");
    box.textContent = describeError(error);
    box.hidden = false;
  }
  document.body.dataset.ready = "true";
}

start();
