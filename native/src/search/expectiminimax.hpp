// Expectiminimax for two zero-sum sides with chance nodes of the game's own (backgammon): the tree walk of
// engine/search/expectimax.py (Walk) with its default opponent model, minimax, node for node. MAX nodes are
// the searcher's (the root mover's), MIN nodes the opponent's, chance nodes the probability-weighted mean of
// their outcomes. With pruning, MAX and MIN nodes cut as alpha-beta does and chance nodes as Star1 does
// (Ballard 1983), in the game's bounds of the values; Star2 probes the successors' first moves where two or
// more plies are left. At MAX and MIN nodes with two or more plies left below them the moves are searched
// best first by the game's ordering, only the first `forward_pruning` of them (0: all; the root too).
// Python's search is the reference: the same values (bit for bit), moves, bounds and counts.
//
// The game interface (G):
//   State; static constexpr int CHANCE; static constexpr int ROLLS;   the chance outcomes' number
//   struct Outcome { State state; double probability; };
//   int to_move(const State&) const;           CHANCE, or the player 0 or 1
//   bool is_terminal(const State&) const;
//   double utility(const State&, int player) const;
//   double evaluate(const State&, int player) const;
//   void children(const State&, std::vector<State>&) const;   the moves' results in natural order (move i: i)
//   void order(const State&, const std::vector<State>& children, std::vector<int>&) const;
//       the indices of the children best first (the game's ordered_actions)
//   void outcomes(const State&, Outcome* out) const;           ROLLS outcomes
//   static constexpr double LOWEST, HIGHEST;   the bounds of every utility and evaluation (zero-sum: either
//                                              player's), which Star1 and Star2 rest on
#pragma once

#include <deque>
#include <vector>

#include "search/common.hpp"

namespace tactician {

template <class G>
class Expectiminimax {
  using State = typename G::State;
  using Outcome = typename G::Outcome;

  // A chance node's successor in Star2: its state and probability, the bounds known of its value, and its
  // moves (the children to search, in order) once a probe has listed them.
  struct Successor {
    State state;
    double p, lower, upper;
    bool listed;
    std::vector<State> moves;
  };

 public:
  // The request's settings: forward_pruning < 0 is the default, DEFAULT_KEEP.
  static constexpr int DEFAULT_KEEP = 8;
  static constexpr uint64_t MASK = Budget::CHECK_EVERY - 1;

  Expectiminimax(const G& game, const Budget& budget, const Request& request)
      : game_(game), budget_(budget), pruning_(request.pruning), cutoff_(request.probability_cutoff),
        keep_(request.forward_pruning < 0 ? DEFAULT_KEEP : request.forward_pruning),
        lo_(request.pruning ? G::LOWEST : -INF), hi_(request.pruning ? G::HIGHEST : INF) {}

  // Every root move's value `depth` plies deep (< 0: passes of 1, 2, 3, ... plies until one is cut nowhere
  // by the depth or the budget runs out); the answer is the last complete pass's, or the root moves the
  // first pass finished (none: the first ordered move, valued by the root's evaluation, an estimate).
  Result run(const State& root, int depth) {
    searcher_ = game_.to_move(root);
    std::vector<MoveValue> completed, moves;
    int completed_depth = 0;
    bool timed_out = false, any = false;
    for (int d = depth < 0 ? 1 : depth;; ++d) {
      moves.clear();
      try {
        bool exhausted = root_pass(root, d, moves);
        completed = moves, completed_depth = d, any = true;
        if (depth >= 0 || exhausted) break;
      } catch (Timeout&) {
        timed_out = true;
        if (!any) completed = moves;
        break;
      }
    }
    Result r;
    stats_.depth_completed = completed_depth;
    stats_.max_depth = max_ply_;
    r.stats = stats_;
    if (completed.empty()) {
      std::vector<State> children;
      std::vector<int> order;
      game_.children(root, children);
      game_.order(root, children, order);
      r.move = order[0], r.value = game_.evaluate(root, searcher_);
      return finish(r, timed_out);
    }
    const MoveValue& best = best_of(completed);
    r.move = best.move, r.value = best.value;
    r.moves = completed;
    return finish(r, timed_out);
  }

 private:
  static const MoveValue& best_of(const std::vector<MoveValue>& moves) {
    size_t best = 0;
    for (size_t i = 1; i < moves.size(); ++i)
      if (moves[i].value > moves[best].value) best = i;
    return moves[best];
  }

  // One pass `limit` plies deep (Walk.root_pass): each root move's value, appended as it is finished,
  // exact for the first and for one that beats the best so far, otherwise (pruning) an upper bound.
  bool root_pass(const State& root, int limit, std::vector<MoveValue>& moves) {
    limit_ = limit, cut_ = false;
    ++stats_.nodes;
    std::vector<State> children;
    std::vector<int> codes;
    game_.children(root, children);
    if (keep_) {
      decision_order(root, children, 0, codes);
    } else {
      codes.resize(children.size());
      for (size_t i = 0; i < codes.size(); ++i) codes[i] = int(i);
    }
    double alpha = -INF;
    for (int code : codes) {
      double v = value(children[code], alpha, INF, 1, 1.0, nullptr);
      bool exact = !pruning_ || moves.empty() || v > alpha;
      moves.push_back({code, v, exact ? Bound::Exact : Bound::Upper});
      if (pruning_ && v > alpha) alpha = v;
    }
    const MoveValue& best = best_of(moves);
    Progress progress;
    progress.depth = limit, progress.value = best.value + 0.0, progress.move = best.move, progress.pv = {best.move};
    progress.nodes = stats_.nodes, progress.seldepth = max_ply_;
    budget_.report(progress);
    return !cut_;
  }

  // The node's value (Walk.value): a leaf's utility or evaluation, an inner node's by its kind; `listed`:
  // a decision node's moves when a Star2 probe has listed them already.
  double value(const State& s, double alpha, double beta, int ply, double reach, const std::vector<State>* listed) {
    if (!(++stats_.nodes & MASK)) {
      budget_.count(stats_.nodes);
      budget_.check();
    }
    if (ply > max_ply_) max_ply_ = ply;
    if (game_.is_terminal(s)) {
      ++stats_.leaves;
      return game_.utility(s, searcher_);
    }
    if (ply >= limit_ || reach < cutoff_) {
      ++stats_.leaves;
      cut_ = cut_ || ply >= limit_;
      return game_.evaluate(s, searcher_);
    }
    int mover = game_.to_move(s);
    if (mover == G::CHANCE) {
      if (pruning_ && limit_ - ply - 1 >= PROBE_PLIES) return probed_value(s, alpha, beta, ply, reach);
      return expected_value(s, alpha, beta, ply, reach);
    }
    const std::vector<State>* moves = listed;
    if (moves == nullptr) {
      std::vector<State>& frame = frame_at(decisions_, ply);
      decision_moves(s, ply, frame);
      moves = &frame;
    }
    return mover == searcher_ ? max_value(*moves, alpha, beta, ply, reach) : min_value(*moves, alpha, beta, ply, reach);
  }

  double max_value(const std::vector<State>& moves, double alpha, double beta, int ply, double reach) {
    double v = -INF;
    for (const State& child : moves) {
      double c = value(child, alpha, beta, ply + 1, reach, nullptr);
      if (c > v) {
        v = c;
        if (v >= beta) {
          if (&child != &moves.back()) ++stats_.cutoffs;  // a cut after the last child prunes nothing
          break;
        }
        if (pruning_ && v > alpha) alpha = v;
      }
    }
    return v;
  }

  double min_value(const std::vector<State>& moves, double alpha, double beta, int ply, double reach) {
    double v = INF;
    for (const State& child : moves) {
      double c = value(child, alpha, beta, ply + 1, reach, nullptr);
      if (c < v) {
        v = c;
        if (v <= alpha) {
          if (&child != &moves.back()) ++stats_.cutoffs;
          break;
        }
        if (pruning_ && v < beta) beta = v;
      }
    }
    return v;
  }

  // A chance node (Walk.expected_value): the probability-weighted mean; with bounds, Star1's windows.
  double expected_value(const State& s, double alpha, double beta, int ply, double reach) {
    Outcome outcomes[G::ROLLS];
    game_.outcomes(s, outcomes);
    double total = 0.0, rest = 1.0;
    int last = G::ROLLS - 1;  // the last outcome searched: a cut after it prunes nothing
    while (last > 0 && outcomes[last].probability <= 0.0) --last;
    for (const Outcome& o : outcomes) {
      double p = o.probability;
      if (p <= 0.0) continue;
      const bool pruned = &o - outcomes < last;
      if (!pruning_) {
        total += p * value(o.state, -INF, INF, ply + 1, reach * p, nullptr);
        continue;
      }
      rest -= p;
      double low = (alpha - total - rest * hi_) / p, high = (beta - total - rest * lo_) / p;
      double v = value(o.state, std::max(low, lo_), std::min(high, hi_), ply + 1, reach * p, nullptr);
      total += p * v;
      if (v <= low) {
        if (pruned) ++stats_.cutoffs;
        return std::min(total + rest * hi_, alpha);
      }
      if (v >= high) {
        if (pruned) ++stats_.cutoffs;
        return std::max(total + rest * lo_, beta);
      }
    }
    return total;
  }

  // Star2 at a chance node (Walk.probed_value): the probe bounds each successor and may settle the node;
  // otherwise Star1 with each successor's own bounds, the probe's move lists handed on.
  double probed_value(const State& s, double alpha, double beta, int ply, double reach) {
    std::vector<Successor>& kids = frame_at(successors_, ply);
    Outcome outcomes[G::ROLLS];
    game_.outcomes(s, outcomes);
    kids.resize(G::ROLLS);
    int n = 0;
    for (const Outcome& o : outcomes) {
      if (o.probability <= 0.0) continue;
      Successor& kid = kids[n++];
      kid.state = o.state, kid.p = o.probability, kid.lower = lo_, kid.upper = hi_, kid.listed = false;
    }
    double rest_up, rest_low, settled;
    if (probe(kids, n, alpha, beta, ply, reach, settled, rest_up, rest_low)) return settled;
    double total = 0.0;
    for (int i = 0; i < n; ++i) {
      Successor& kid = kids[i];
      double p = kid.p, lower = kid.lower, upper = kid.upper;
      rest_up -= p * upper;
      rest_low -= p * lower;
      double low = (alpha - total - rest_up) / p, high = (beta - total - rest_low) / p;
      if (upper <= low) {
        ++stats_.cutoffs;
        return std::min(total + p * upper + rest_up, alpha);
      }
      if (lower >= high) {
        ++stats_.cutoffs;
        return std::max(total + p * lower + rest_low, beta);
      }
      double v = value(kid.state, std::max(low, lower), std::min(high, upper), ply + 1, reach * p,
                       kid.listed ? &kid.moves : nullptr);
      total += p * v;
      if (v <= low) {
        if (i + 1 < n) ++stats_.cutoffs;  // a cut after the last successor prunes nothing
        return std::min(total + rest_up, alpha);
      }
      if (v >= high) {
        if (i + 1 < n) ++stats_.cutoffs;
        return std::max(total + rest_low, beta);
      }
    }
    return total;
  }

  // Star2's probing phase (Walk.probe): the first move of every decision successor, a lower bound of a MAX
  // successor and an upper bound of a MIN one. True, with the node's fail-soft bound in `settled`, as soon
  // as the bounds settle the node; `up_total` and `low_total`: the weighted sums of the bounds.
  bool probe(std::vector<Successor>& kids, int n, double alpha, double beta, int ply, double reach, double& settled,
             double& up_total, double& low_total) {
    up_total = low_total = 0.0;
    for (int i = 0; i < n; ++i) up_total += kids[i].p * kids[i].upper, low_total += kids[i].p * kids[i].lower;
    bool whole = true;  // every successor so far searched in full by its probe (a cut then may prune nothing)
    for (int i = 0; i < n; ++i) {
      Successor& kid = kids[i];
      const State& c = kid.state;
      double p = kid.p;
      if (game_.is_terminal(c)) continue;
      bool maximizing = game_.to_move(c) == searcher_;
      decision_moves(c, ply + 1, kid.moves);
      kid.listed = true;
      whole = whole && kid.moves.size() == 1;
      const bool pruned = !whole || i + 1 < n;
      const State& first = kid.moves[0];
      if (maximizing) {
        double high = (beta - (low_total - p * kid.lower)) / p;
        double v = std::max(value(first, lo_, std::min(high, hi_), ply + 2, reach * p, nullptr), lo_);
        low_total += p * (v - kid.lower);
        kid.lower = v;
        if (low_total >= beta) {
          if (pruned) ++stats_.cutoffs;
          settled = std::max(low_total, beta);
          return true;
        }
      } else {
        double low = (alpha - (up_total - p * kid.upper)) / p;
        double v = std::min(value(first, std::max(low, lo_), hi_, ply + 2, reach * p, nullptr), hi_);
        up_total += p * (v - kid.upper);
        kid.upper = v;
        if (up_total <= alpha) {
          if (pruned) ++stats_.cutoffs;
          settled = std::min(up_total, alpha);
          return true;
        }
      }
    }
    return false;
  }

  // A decision node's children to search (Walk.decision_moves): best first and at most keep_ of them where
  // two or more plies are left below the node; else all, in natural order.
  void decision_moves(const State& s, int ply, std::vector<State>& out) {
    game_.children(s, out);
    if (limit_ - ply < 2) return;
    budget_.check();
    std::vector<int>& order = frame_at(orders_, ply);
    game_.order(s, out, order);
    size_t kept = keep_ ? std::min(order.size(), size_t(keep_)) : order.size();
    std::vector<State>& sorted = frame_at(sorted_, ply);
    sorted.clear();
    for (size_t i = 0; i < kept; ++i) sorted.push_back(out[order[i]]);
    out.swap(sorted);
  }
  // The root's move codes in the order decision_moves gives.
  void decision_order(const State& s, const std::vector<State>& children, int ply, std::vector<int>& codes) {
    codes.resize(children.size());
    for (size_t i = 0; i < codes.size(); ++i) codes[i] = int(i);
    if (limit_ - ply < 2) return;
    budget_.check();
    game_.order(s, children, codes);
    if (keep_ && codes.size() > size_t(keep_)) codes.resize(keep_);
  }

  // Scratch room for ply `ply` (a deque: growing it moves no frame in use).
  template <class T>
  static T& frame_at(std::deque<T>& frames, int ply) {
    if (frames.size() <= size_t(ply)) frames.resize(ply + 1);
    return frames[ply];
  }

  static constexpr int PROBE_PLIES = 1;  // Star2 probes successors with at least this many plies below them

  const G& game_;
  const Budget& budget_;
  bool pruning_;
  double cutoff_;
  int keep_;
  double lo_, hi_;
  int searcher_ = 0;
  int limit_ = 0;
  bool cut_ = false;
  int max_ply_ = 0;
  std::deque<std::vector<State>> decisions_, sorted_;
  std::deque<std::vector<int>> orders_;
  std::deque<std::vector<Successor>> successors_;
  Stats stats_;
};

// The expectiminimax answer for `s` (a player's state, not finished) to request.depth plies (< 0: iterative
// deepening, one ply a pass). Contract: values are the root mover's; a
// finished state's utility, or its evaluation where the depth or the probability cut-off stops the search;
// a MAX node is worth its best child, a MIN node its worst, a chance node the probability-weighted mean;
// with pruning, a root move after the first that is no better than the best so far gets an upper bound
// (Bound::Upper), the others are exact for their depth (forward pruning aside). No outcome is proven.
template <class G>
Result expectiminimax(const G& game, const typename G::State& s, const Request& request, const Budget& budget) {
  return Expectiminimax<G>(game, budget, request).run(s, request.depth);
}

}  // namespace tactician
