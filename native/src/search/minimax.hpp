// Minimax (AIMA fig. 5.3) to a depth limit, as engine/search/minimax.py: one pass over every root move,
// ties between root moves to the first in natural order; in outcome games, among children of equal value
// the mover prefers the shorter line when it wins and the longer when it loses.
#pragma once

#include "search/common.hpp"

namespace tactician {

template <class G>
class Minimax {
  using State = typename G::State;

 public:
  Minimax(const G& game, const Budget& budget, int depth, int plies)
      : game_(game), budget_(budget), limit_(depth < 0 ? MAX_ID_DEPTH : depth), pv_(plies) {}

  // The root's moves (those the request allows: allowed_root) valued request.depth plies deep.
  Result run(const State& root, const Request& request) {
    std::vector<MoveValue> moves;
    std::vector<std::vector<int>> lines;
    bool timed_out = false;
    try {
      ++stats_.nodes;
      int actions[G::MAX_MOVES], n = allowed_root(game_, root, request, actions, game_.actions(root, actions));
      for (int i = 0; i < n; ++i) {
        double v = -value(game_.result(root, actions[i]), 1);
        moves.push_back({actions[i], v + 0.0});
        lines.push_back(pv_.root_line(actions[i]));
      }
    } catch (Timeout&) {
      timed_out = true;
    }
    return pass_answer(game_, root, request, moves, lines, stats_, timed_out, true);
  }

 private:
  // The minimax value of `s` for its player to move (negamax form: the Python search's value for the
  // perspective player, negated at its MIN nodes, which is exact); sets the line below `ply` and
  // length_, that line's plies.
  double value(const State& s, int ply) {
    budget_.poll(++stats_.nodes);
    pv_.clear(ply);
    bool terminal = game_.is_terminal(s);
    if (terminal || ply >= limit_) {
      ++stats_.leaves;
      if (ply > stats_.max_depth) stats_.max_depth = ply;
      length_ = 0;
      int player = game_.to_move(s);
      return terminal ? game_.utility(s, player) : game_.evaluate(s, player);
    }
    double v = -INF;
    int best = 0;
    int actions[G::MAX_MOVES], n = game_.actions(s, actions);
    for (int i = 0; i < n; ++i) {
      double child = -value(game_.result(s, actions[i]), ply + 1);
      if (child > v || (child == v && G::OUTCOME_GAME && ((v > 0 && length_ < best) || (v < 0 && length_ > best)))) {
        v = child, best = length_;
        pv_.extend(ply, actions[i]);
      }
    }
    length_ = best + 1;
    return v;
  }

  const G& game_;
  const Budget& budget_;
  int limit_;
  PvTable pv_;
  Stats stats_;
  int length_ = 0;
};

template <class G>
Result minimax(const G& game, const typename G::State& s, const Request& request, const Budget& budget) {
  return Minimax<G>(game, budget, request.depth, ply_room(game, s)).run(s, request);
}

}  // namespace tactician
