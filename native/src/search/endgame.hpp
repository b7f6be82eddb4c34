// A game's own endgame solver as a search answer, as engine/search/endgame.py: Othello scores its endgames
// by the final disc difference, not by win/draw/loss. A position the game's solver proves answers with
// that score as its value, the score's sign as its outcome and the perfect line's length as plies_to_end;
// a search that proves the winner on its own (on the utilities' scale) has the solver score the position
// in the time left (scored_outcome), and drops the outcome when it cannot.
#pragma once

#include <algorithm>
#include <optional>

#include "search/common.hpp"

namespace tactician {

// The answer of the game's endgame solver, or nothing when the game has none, the position is beyond its
// reach or the budget ran out first (`stats` then holds what the attempt visited). Values are for the
// player to move.
template <class G>
std::optional<Result> endgame_solve(const G& game, const typename G::State& s, const Budget& budget, bool ordering,
                                    int64_t tt_capacity, Stats& stats) {
  if constexpr (has_solve_endgame<G>::value) {
    std::optional<Solution> solution;
    try {
      solution = game.solve_endgame(s, budget, ordering, tt_capacity, stats);
    } catch (Timeout&) {
    }
    if (!solution) return std::nullopt;
    Result r;
    r.stats = stats;
    r.stats.depth_completed = int(solution->pv.size());
    r.stats.stop_reason = SOLVED;
    r.move = solution->pv[0];
    r.value = double(solution->score);
    r.moves = solution->moves;
    r.pv = solution->pv;
    r.outcome = outcome_of(solution->score);
    r.plies_to_end = int(solution->pv.size());
    return finish(r, false);
  } else {
    return std::nullopt;
  }
}

// `r` as it is, unless it reports an outcome in a game with an endgame solver: then the solver's answer
// (the nodes of both searches counted), or, when the solver cannot answer within `budget` or the root is
// `restricted` (engine/root.py: the solver plays every root move), `r` without outcome and plies_to_end
// (the winner proven, the score not). A multi-PV answer (`r.lines`) keeps its
// lines and drops every outcome and plies_to_end instead, as endgame.py's scored_lines: the solver scores
// one line, not several.
template <class G>
Result scored_outcome(const G& game, const typename G::State& s, Result r, const Budget& budget, bool ordering,
                      int64_t tt_capacity, bool restricted = false) {
  if (!has_solve_endgame<G>::value || r.outcome.empty()) return r;
  if (!r.lines.empty()) {
    r.outcome.clear(), r.plies_to_end = -1;
    for (Line& l : r.lines) l.outcome.clear(), l.plies_to_end = -1;
    return r;
  }
  Stats stats;
  std::optional<Result> solved =
      restricted ? std::nullopt : endgame_solve(game, s, budget, ordering, tt_capacity, stats);
  if (!solved) {
    r.outcome.clear();
    r.plies_to_end = -1;
    return r;
  }
  Stats& both = solved->stats;
  both.nodes += r.stats.nodes;
  both.leaves += r.stats.leaves;
  both.cutoffs += r.stats.cutoffs;
  both.tt_hits += r.stats.tt_hits;
  both.max_depth = std::max(both.max_depth, r.stats.max_depth);
  both.iterations = r.stats.iterations;
  return *solved;
}

}  // namespace tactician
