// The trees the "Watch the search" panel can load: the textbook's (AIMA 4th edition, chapter 5), and real
// game positions.

export const PRESETS = {
  "figure-5-2": {
    title: "AIMA figure 5.2: a two-ply game tree",
    algorithm: "alphabeta-textbook",
    state: { root: { id: "A", type: "max", children: [
      { id: "B", type: "min", children: [{ value: 3 }, { value: 12 }, { value: 8 }] },
      { id: "C", type: "min", children: [{ value: 2 }, { value: 4 }, { value: 6 }] },
      { id: "D", type: "min", children: [{ value: 14 }, { value: 5 }, { value: 2 }] },
    ] } },
  },
  // The same tree with an evaluation at B, C and D, for a depth limit: at Depth 1 the search stops at
  // them and trusts the evaluation, which rates C best (6), where the whole search finds B (3).
  "figure-5-2-eval": {
    title: "AIMA figure 5.2 with evaluations at B, C, D (try Depth 1)",
    algorithm: "alphabeta-textbook",
    state: { root: { id: "A", type: "max", children: [
      { id: "B", type: "min", eval: 4, children: [{ value: 3 }, { value: 12 }, { value: 8 }] },
      { id: "C", type: "min", eval: 6, children: [{ value: 2 }, { value: 4 }, { value: 6 }] },
      { id: "D", type: "min", eval: 5, children: [{ value: 14 }, { value: 5 }, { value: 2 }] },
    ] } },
  },
  // A real position (issue 54 #3): O to move, four empty cells; O wins at once at 7 (the middle column).
  "tictactoe-win": {
    title: "Tic-tac-toe: O to move, a win on the board",
    game: "tictactoe", algorithm: "alphabeta-textbook",
    state: { board: ["XOX", "XO.", "..."] },
  },
  // Real positions beyond tic-tac-toe (issue 54 #3), small enough to draw: each tree is built from the
  // search's trace (gametree.js), so each preset's depth keeps the trace to tens of visits. `algorithms`:
  // the searches that fit the game (the others are disabled while it is loaded).
  // X to move, 16 empty cells, three columns nearly full: a win for X that the whole search proves (46
  // visits with the textbook alpha-beta, 13 cutoffs).
  "connect4-ending": {
    title: "Connect Four: an ending, X to move and win",
    game: "connect4", algorithm: "alphabeta-textbook", depth: "", algorithms: ["alphabeta-textbook", "minimax", "mcts"],
    state: { board: ["..O..OO", "..X..OO", "XXX..XX", "XXO..XX", "OXOOXOO", "OOXOOXX"] },
  },
  // Pacman at the top left, one ghost two cells away: at depth 1 (Pacman's move alone) the food East is
  // best (9); at depth 3 (Pacman, the ghost, Pacman) the ghost's reply makes South better (18).
  "pacman-maze": {
    title: "Pacman: a tiny maze, one ghost (try depth 1, then 3)",
    game: "pacman", algorithm: "alphabeta-textbook", depth: 3,
    algorithms: ["alphabeta-textbook", "minimax", "expectimax", "expectimax-full", "mcts"],
    state: { layout: ["%%%%%%%", "%P..G%%", "%.%%.%%", "%.o...%", "%%%%%%%"] },
  },
  // One empty cell: after each slide, a 2 or a 4 appears in one of the cells left free; at depth 2
  // (a slide, then the new tile) expectimax sees that left risks the end of the game (0.914).
  "2048-end": {
    title: "2048: a board near its end, expectimax at depth 2",
    game: "2048", algorithm: "expectimax", depth: 2, algorithms: ["expectimax", "expectimax-full", "mcts"],
    state: { board: [[2, 4, 2, 4], [4, 2, 4, 8], [8, 16, 8, 2], [2, 4, 0, 2]] },
  },
  // Black to move, four empty squares (d1, g1, h1, h6): at depth 1 the evaluation prefers h1; at depth 3,
  // as to the end, d1 (Black loses by 14 discs at best).
  "othello-ending": {
    title: "Othello: an ending with four empty squares (try depth 1, then 3)",
    game: "othello", algorithm: "alphabeta-textbook", depth: 3, algorithms: ["alphabeta-textbook", "minimax", "mcts"],
    state: { board: ["BBB.BW..", "WWWWBBWW", "WWWWBWWW", "WWBBBWWW", "WBWWBWBB", "WBWWWWB.", "WWBWWWBB",
                     "WWWWWWWB"], to_move: "B" },
  },
  chance: {
    title: "Chance nodes, after AIMA figure 5.11: Star1 finds nothing to cut (a leaf of 40 keeps every outcome open)",
    algorithm: "expectimax",
    state: { root: { id: "A", type: "max", children: [
      { id: "a1", type: "chance", children: [
        { p: 0.9, type: "min", children: [{ value: 2 }, { value: 3 }] },
        { p: 0.1, type: "min", children: [{ value: 1 }, { value: 4 }] },
      ] },
      { id: "a2", type: "chance", children: [
        { p: 0.9, type: "min", children: [{ value: 1 }, { value: 2 }] },
        { p: 0.1, type: "min", children: [{ value: 40 }, { value: 30 }] },
      ] },
    ] } },
  },
  // a1 = .5 min(3, 5) + .5 min(4, 6) = 3.5; a2's first MIN node is worth at most 1, so a2 is at most
  // .8 * 1 + .2 * 10 = 2.8 < 3.5 whatever its second outcome: Star1 cuts it (11 nodes instead of 15;
  // tests/engine/test_expectimax.py checks the same tree by hand).
  star1: {
    title: "Star1 prunes: chance nodes whose utilities are bounded (1 to 10)",
    algorithm: "expectimax",
    state: { root: { id: "A", type: "max", children: [
      { id: "a1", type: "chance", children: [
        { p: 0.5, type: "min", children: [{ value: 3 }, { value: 5 }] },
        { p: 0.5, type: "min", children: [{ value: 4 }, { value: 6 }] },
      ] },
      { id: "a2", type: "chance", children: [
        { p: 0.8, type: "min", children: [{ value: 1 }, { value: 2 }] },
        { p: 0.2, type: "min", children: [{ value: 10 }, { value: 9 }] },
      ] },
    ] } },
  },
  "three-players": {
    title: "AIMA figure 5.4: three players, max^n",
    algorithm: "maxn",
    state: { root: { id: "A", player: 0, children: [
      { id: "B1", player: 1, children: [
        { id: "C1", player: 2, children: [{ value: [1, 2, 6] }, { value: [4, 2, 3] }] },
        { id: "C2", player: 2, children: [{ value: [6, 1, 2] }, { value: [7, 4, 1] }] },
      ] },
      { id: "B2", player: 1, children: [
        { id: "C3", player: 2, children: [{ value: [5, 1, 1] }, { value: [1, 5, 2] }] },
        { id: "C4", player: 2, children: [{ value: [7, 7, 1] }, { value: [5, 4, 5] }] },
      ] },
    ] } },
  },
};

// The searches of the panel: the request's algorithm object, and the one to compare node counts with
// (the same search with pruning off, or on).
export const WATCH_ALGORITHMS = {
  minimax: { label: "minimax", algorithm: { name: "minimax" },
             compare: { label: "alpha-beta (textbook)", algorithm: { name: "alphabeta", move_ordering: false,
                                                                      transposition_table: false } } },
  "alphabeta-textbook": { label: "alpha-beta, textbook (AIMA fig. 5.7)",
                          algorithm: { name: "alphabeta", move_ordering: false, transposition_table: false },
                          compare: { label: "minimax (no pruning)", algorithm: { name: "minimax" } } },
  "alphabeta-enhanced": { label: "alpha-beta, enhanced (PVS, ordering, table)",
                          algorithm: { name: "alphabeta" },
                          compare: { label: "minimax (no pruning)", algorithm: { name: "minimax" } } },
  expectimax: { label: "expectimax (Star1 pruning)", algorithm: { name: "expectimax" },
                compare: { label: "expectimax without pruning", algorithm: { name: "expectimax", pruning: false } } },
  "expectimax-full": { label: "expectimax without pruning", algorithm: { name: "expectimax", pruning: false },
                       compare: { label: "expectimax (Star1 pruning)", algorithm: { name: "expectimax" } } },
  maxn: { label: "max^n", algorithm: { name: "maxn" }, compare: null },
  // Seeded and capped: the same iterations at every run, few enough to step through.
  mcts: { label: "MCTS (UCT, 12 iterations, seed 1)", algorithm: { name: "mcts", iterations: 12, seed: 1 },
          compare: null },
};
