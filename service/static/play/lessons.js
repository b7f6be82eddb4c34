// The lessons of the watch view (issue 54 #4): a short guided exercise per algorithm, after the course's
// own examples. Each is a preset tree and a search, a question to answer before stepping through, and
// the answer, which tells the reasoning (no code). A lesson is linkable: /play#watch/lesson/<key>.

export const LESSONS = {
  minimax: {
    title: "1. Minimax: back the leaves up (AIMA figure 5.2)", preset: "figure-5-2", algorithm: "minimax",
    question: "MIN moves at B, C and D, MAX at A. What is each node worth, and which move does MAX choose?",
    answer: "Each MIN node takes its smallest leaf: B = min(3, 12, 8) = 3, C = min(2, 4, 6) = 2, " +
            "D = min(14, 5, 2) = 2. MAX takes the largest of those: A = max(3, 2, 2) = 3, by moving to B.",
  },
  alphabeta: {
    title: "2. Alpha-beta: what is never looked at (AIMA figure 5.5)", preset: "figure-5-2",
    algorithm: "alphabeta-textbook",
    question: "Alpha-beta visits the children in order, left to right. Which leaves will it never look at?",
    answer: "C's second and third leaves, 4 and 6. Once B is worth 3, MAX is sure of 3 (α = 3). C's first " +
            "leaf is 2, so C is worth at most 2 whatever follows: MAX will never move there, and C's other " +
            "leaves cannot change that. D's leaves are all looked at: 14 and 5 keep D above 3 until its last " +
            "leaf, 2. The search visits 11 nodes instead of 13, and A is still 3.",
  },
  depth: {
    title: "3. A depth limit trusts the evaluation", preset: "figure-5-2-eval", algorithm: "alphabeta-textbook",
    depth: 1,
    question: "At depth 1 the search stops at B, C and D and takes their evaluations (4, 6 and 5) as their " +
              "values. Which move does it choose? Does the whole search (no depth) agree?",
    answer: "It chooses C, whose evaluation, 6, is the highest. The whole search chooses B (worth 3): C's " +
            "first leaf, 2, shows that the evaluation of C was too hopeful. A deeper search, or a better " +
            "evaluation, changes the choice.",
  },
  expectimax: {
    title: "4. Expectimax: average the chance nodes (after AIMA figure 5.11)", preset: "chance",
    algorithm: "expectimax-full",
    question: "Chance picks one of two MIN nodes (probabilities 0.9 and 0.1) below a1 and below a2. What is " +
              "each move worth to MAX, and which does it choose?",
    answer: "Each MIN node takes its smaller leaf; each chance node is the probability-weighted mean of " +
            "them: a1 = 0.9 × 2 + 0.1 × 1 = 1.9 and a2 = 0.9 × 1 + 0.1 × 30 = 3.9. MAX chooses a2: its rare " +
            "outcome is worth so much that it outweighs its worse common one.",
  },
  star1: {
    title: "5. Star1: pruning chance nodes with bounded utilities", preset: "star1", algorithm: "expectimax",
    question: "Every utility lies between 1 and 10, and a1 is worth 3.5. Which nodes below a2 will Star1 " +
              "never look at?",
    answer: "a2's first MIN node is searched knowing that a2 needs it above 1.875 to beat 3.5 (even if the " +
            "rest were 10: 0.8 × 1.875 + 0.2 × 10 = 3.5). Its first leaf, 1, cuts it (its 2 is pruned). Then " +
            "a2 is at most 0.8 × 1 + 0.2 × 10 = 2.8 < 3.5, so its second MIN node and both its leaves are " +
            "pruned: 11 nodes instead of 15.",
  },
  maxn: {
    title: "6. Max^n: three players, each for itself (AIMA figure 5.4)", preset: "three-players",
    algorithm: "maxn",
    question: "Players 0, 1 and 2 move in turn; each picks the child whose vector is best in its own entry. " +
              "Which vector reaches the root?",
    answer: "Player 2 picks by the third entry: C1 (1, 2, 6), C2 (6, 1, 2), C3 (1, 5, 2), C4 (5, 4, 5). " +
            "Player 1 by the second: B1 (1, 2, 6) (2 > 1), B2 (1, 5, 2) (5 > 4). Player 0 gets 1 either way " +
            "and takes the first: the root is worth (1, 2, 6).",
  },
  mcts: {
    title: "7. MCTS: the UCB formula picks a child", preset: "figure-5-2", algorithm: "mcts",
    question: "After three iterations, B, C and D have each been tried once (their rewards, on the [0, 1] " +
              "scale: 0.61, 0.71 and 0.57). Which child does UCB(n) = U(n)/N(n) + C·sqrt(ln N(parent) / " +
              "N(n)) pick at iteration 4, and why?",
    answer: "C: 0.71 + 1.41·sqrt(ln 3 / 1) = 2.20, against B's 2.09 and D's 2.05. Each has been tried once, " +
            "so the exploration term (1.48) is the same for all three and the best mean wins. As a child is " +
            "tried more, its term shrinks and the others get their turn.",
  },
  // A real game (issue 54 #3): the tree is built from the trace, each node with its maze.
  "pacman-depth": {
    title: "8. A depth limit in a real game: Pacman and one ghost", preset: "pacman-maze",
    algorithm: "alphabeta-textbook", depth: 3,
    question: "The evaluation is the score: +10 a food, −1 a move. At depth 1 Pacman looks at its own move " +
              "alone and takes the food to the East (9). At depth 3 it also sees the ghost's reply and its " +
              "own next move. Which move does it choose then, and why? (Run at depth 1, then at 3.)",
    answer: "It chooses South, worth 18: two foods down the left corridor, out of the ghost's reach. After " +
            "East the ghost steps West, next to Pacman, and Pacman's next move eats nothing (8 at best): the " +
            "food that looked best one move ahead leads nowhere two moves later.",
  },
};
