// The settings of one native search, as the Python engine's Settings dataclasses name them
// (engine/search/*.py) and the bridge (engine/search/native.py) passes them.
#pragma once

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

namespace tactician {

struct Request {
  std::string algorithm;          // "minimax", "alphabeta", "mcts" or "expectimax"
  int depth = -1;                 // plies; -1: no depth limit
  // alphabeta
  bool move_ordering = true;
  bool transposition_table = true;
  bool strict_cutoffs = false;
  bool solve = false;             // spend the whole budget proving the result (no heuristic deepening)
  // mcts
  int64_t iterations = -1;        // -1: the time limit alone
  double exploration = std::sqrt(2.0);
  bool seeded = false;
  uint64_t seed = 0;
  std::string rollout = "random"; // "random" or "heuristic"
  bool rave = false;              // RAVE (AMAF values blended into UCT), for games whose playouts tell their moves
  double rave_equivalence = 1000; // the visits at which the AMAF and the mean weigh the same (RAVE's k)
  std::string playout;            // go's playout policy, "light" or "guided" ("": go's default)
  // expectimax
  double probability_cutoff = 0.0;
  bool pruning = true;             // Star1 and Star2 where the game bounds its values
  int forward_pruning = -1;        // moves kept at deep decision nodes (0: all); -1: the game's default
  std::string utility = "linear";  // the kind of the utility transform
  bool opponent_model = false;     // opponent_model or epsilon given
  int multi_pv = 1;               // alphabeta: the best root moves valued exactly and listed in lines
  int64_t nodes = 0;                // the node budget (algorithm.nodes, rounded up: engine/deadline.py); 0: none
  // The root moves the search may play (engine/root.py), as their places in the root's natural order
  // (G::actions); empty: all of them.
  std::vector<int> root_moves;
  // limits
  int64_t tt_max_entries = 1000000;  // the transposition table's (and MCTS tree's) capacity

  bool textbook() const { return !move_ordering && !transposition_table; }
};

}  // namespace tactician
