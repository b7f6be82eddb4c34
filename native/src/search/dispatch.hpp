// The native searches by request.algorithm, as the Python engine chooses them (engine/search/*.py).
#pragma once

#include <stdexcept>

#include "search/alphabeta.hpp"
#include "search/endgame.hpp"
#include "search/mcts.hpp"
#include "search/minimax.hpp"
#include "search/pvs.hpp"

namespace tactician {

// The answer of request.algorithm for `s` (not terminal): "minimax"; "alphabeta", the textbook search
// when move_ordering and transposition_table are both off, else the enhanced one (pvs.hpp, with the exact
// solve: request.solve gives it the whole budget); "mcts" (mcts.hpp). Values from the point of view of the player to move.
// In a game with an endgame solver of its own, a proven result is scored by it (search/endgame.hpp).
template <class G>
Result run_search(const G& game, const typename G::State& s, const Request& request, const Budget& budget) {
  if (game.is_terminal(s)) throw std::invalid_argument("the game is over: no move to search");
  auto scored = [&](Result r) {
    return scored_outcome(game, s, std::move(r), budget, true, request.tt_max_entries, !request.root_moves.empty());
  };
  if (request.algorithm == "minimax") return scored(minimax(game, s, request, budget));
  if (request.algorithm == "alphabeta")
    return request.textbook() ? scored(textbook_alphabeta(game, s, request, budget)) : pvs(game, s, request, budget);
  if (request.algorithm == "mcts") return scored(mcts(game, s, request, budget));
  throw std::invalid_argument("no native search " + request.algorithm);
}

}  // namespace tactician
