// The textbook alpha-beta search (AIMA fig. 5.7), as engine/search/alphabeta.py's textbook(): children
// in natural order, one pass to the depth limit; with strict_cutoffs a node cuts only beyond the bound.
#pragma once

#include "search/common.hpp"

namespace tactician {

template <class G>
class TextbookAlphaBeta {
  using State = typename G::State;

 public:
  TextbookAlphaBeta(const G& game, const Budget& budget, int depth, bool strict, int plies)
      : game_(game), budget_(budget), limit_(depth < 0 ? MAX_ID_DEPTH : depth), strict_(strict), pv_(plies) {}

  // The root is MAX-VALUE that remembers each move's value: the first multi_pv exact, a later one exact
  // when it improves on the multi_pv-th best so far (the best, by default) and an upper bound when not;
  // the root's moves are those the request allows (allowed_root), request.depth plies deep.
  Result run(const State& root, const Request& request) {
    const int multi_pv = request.multi_pv;
    std::vector<MoveValue> moves;
    std::vector<std::vector<int>> lines;
    std::vector<double> exact;
    bool timed_out = false;
    try {
      ++stats_.nodes;
      int actions[G::MAX_MOVES], n = allowed_root(game_, root, request, actions, game_.actions(root, actions));
      for (int i = 0; i < n; ++i) {
        const double alpha = threshold(exact, multi_pv);
        double v = -value(game_.result(root, actions[i]), -INF, -alpha, 1);
        const bool improved = v > alpha || int(exact.size()) < multi_pv;
        moves.push_back({actions[i], v + 0.0, improved ? Bound::Exact : Bound::Upper});
        if (improved) exact.push_back(v);
        lines.push_back(pv_.root_line(actions[i]));
      }
    } catch (Timeout&) {
      timed_out = true;
    }
    return pass_answer(game_, root, request, moves, lines, stats_, timed_out, false);
  }

 private:
  // The value of `s` for its player to move when it lies in (alpha, beta), else a bound on the same
  // side (<= alpha or >= beta); alpha is what the mover is already assured of on the path, beta what the
  // opponent is. Negamax form of AIMA's MAX-VALUE/MIN-VALUE: the same nodes, cuts and values (negated).
  double value(const State& s, double alpha, double beta, int ply) {
    budget_.poll(++stats_.nodes);
    if (ply > stats_.max_depth) stats_.max_depth = ply;
    pv_.clear(ply);
    int player = game_.to_move(s);
    if (game_.is_terminal(s)) {
      ++stats_.leaves;
      return game_.utility(s, player);
    }
    if (ply >= limit_) {
      ++stats_.leaves;
      return game_.evaluate(s, player);
    }
    double v = -INF;
    int actions[G::MAX_MOVES], n = game_.actions(s, actions);
    for (int i = 0; i < n; ++i) {
      double child = -value(game_.result(s, actions[i]), -beta, -alpha, ply + 1);
      if (child > v) {
        v = child;
        pv_.extend(ply, actions[i]);
      }
      if (v > beta || (v == beta && !strict_)) {
        if (i + 1 < n) ++stats_.cutoffs;  // a cut after the last child prunes nothing
        break;
      }
      if (v > alpha) alpha = v;
    }
    return v;
  }

  const G& game_;
  const Budget& budget_;
  int limit_;
  bool strict_;
  PvTable pv_;
  Stats stats_;
};

template <class G>
Result textbook_alphabeta(const G& game, const typename G::State& s, const Request& request, const Budget& budget) {
  return TextbookAlphaBeta<G>(game, budget, request.depth, request.strict_cutoffs, ply_room(game, s))
      .run(s, request);
}

}  // namespace tactician
