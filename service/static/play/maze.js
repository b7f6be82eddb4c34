// A Pacman maze drawn from the state: the layout's walls, and the food, capsules, Pacman and ghosts where
// the state puts them (where a game in progress says nothing, the layout's own letters). Positions are
// [x, y], x from the left and y from the bottom, as the API has them; a scared ghost moves at half speed,
// so its position may be halfway between cells.
import { html, svg } from "./svg.js";

const CELL = 28;
const GHOST_COLOURS = ["#e53935", "#ec80b4", "#26c6da", "#ffa726"];
const MOUTH = { West: 180, East: 0, North: 270, South: 90, Stop: 0 };

/** Whether the state is a maze. */
export function isMaze(state) {
  return Boolean(state) && Array.isArray(state.layout) && state.layout.every((row) => typeof row === "string");
}

function fromLayout(layout, letter) {
  const found = [];
  layout.forEach((row, r) => [...row].forEach((ch, x) => {
    if (ch === letter) found.push([x, layout.length - 1 - r]);
  }));
  return found;
}

/** The ghosts of the maze: the state's, else the layout's letters (ordered as the rules number them). */
function ghostsOf(state) {
  return state.ghosts || fromLayout(state.layout, "G").sort((a, b) => a[0] - b[0] || a[1] - b[1])
    .map((position) => ({ position, scared: 0 }));
}

/** The players of a position: in a maze, Pacman and as many ghosts as it has; elsewhere all of them. */
export function playersOf(state, players) {
  return isMaze(state) ? players.slice(0, 1 + ghostsOf(state).length) : players;
}

export function drawMaze(container, state) {
  const layout = state.layout, height = layout.length, width = Math.max(...layout.map((row) => row.length));
  const at = ([x, y]) => ({ cx: (x + 0.5) * CELL, cy: (height - 1 - y + 0.5) * CELL });
  const root = svg("svg", { viewBox: `0 0 ${width * CELL} ${height * CELL}`, class: "maze", "data-testid": "maze",
                            role: "img", "aria-label": `maze, score ${state.score ?? 0}` });
  root.append(svg("rect", { width: width * CELL, height: height * CELL, class: "maze-floor" }));
  for (const [x, y] of fromLayout(layout, "%")) {
    const { cx, cy } = at([x, y]);
    root.append(svg("rect", { x: cx - CELL / 2 + 2, y: cy - CELL / 2 + 2, width: CELL - 4, height: CELL - 4,
                              rx: 5, class: "wall" }));
  }
  for (const position of state.food || fromLayout(layout, ".")) {
    root.append(svg("circle", { ...at(position), r: 3, class: "food", "data-food": JSON.stringify(position) }));
  }
  for (const position of state.capsules || fromLayout(layout, "o")) {
    root.append(svg("circle", { ...at(position), r: 7, class: "capsule" }));
  }
  ghostsOf(state).forEach((ghost, i) => {
    const { cx, cy } = at(ghost.position);
    const r = CELL * 0.42;
    const g = svg("g", { transform: `translate(${cx},${cy})`, class: ghost.scared ? "ghost scared" : "ghost",
                         "data-ghost": i + 1, "data-position": JSON.stringify(ghost.position) });
    g.append(svg("path", { d: `M${-r},${r} V0 A${r},${r} 0 0 1 ${r},0 V${r} l${-r / 2},${-r / 3} l${-r / 2},${r / 3}`
                              + ` l${-r / 2},${-r / 3} Z`, fill: ghost.scared ? "#3949ab" : GHOST_COLOURS[i % 4] }));
    g.append(svg("circle", { cx: -r / 3, cy: -r / 5, r: r / 4, fill: "#fff" }));
    g.append(svg("circle", { cx: r / 3, cy: -r / 5, r: r / 4, fill: "#fff" }));
    root.append(g);
  });
  const pacman = state.pacman ? state.pacman : { position: fromLayout(layout, "P")[0], direction: "Stop" };
  if (pacman.position) {
    const { cx, cy } = at(pacman.position);
    const r = CELL * 0.42, open = 35 * Math.PI / 180;
    const g = svg("g", { transform: `translate(${cx},${cy}) rotate(${MOUTH[pacman.direction] ?? 0})`,
                         class: "pacman", "data-position": JSON.stringify(pacman.position) });
    g.append(svg("path", { d: `M0,0 L${r * Math.cos(open)},${-r * Math.sin(open)} A${r},${r} 0 1 0 `
                              + `${r * Math.cos(open)},${r * Math.sin(open)} Z` }));
    root.append(g);
  }
  const score = html("p", { class: "maze-score", "data-testid": "maze-score" }, `Score ${state.score ?? 0}`);
  container.replaceChildren(score, root);
  return root;
}
