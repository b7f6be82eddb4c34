// Expectimax for games with chance nodes (AIMA 5.5), as engine/search/expectimax.py runs it on a game's
// own valuation (2048's kernel, engine/games/twenty48/kernel.py): no pruning, a transposition table at
// the chance nodes, an optional probability cut-off, iterative deepening.
//
// The game interface (G), beside game.hpp's State and MAX_MOVES:
//   static constexpr int CHANCE;          to_move() at a chance node
//   static constexpr int DEPTH_STEP;      iterative deepening's passes are 1, 1 + step, 1 + 2 step, ... plies
//   struct Outcome { State state; double probability; };
//   int to_move(const State&) const;      CHANCE, or the player (this search: one player, 0)
//   bool is_terminal(const State&) const;
//   int children(const State&, int* moves, State* children) const;   the player's moves and their results
//   int outcomes(const State&, Outcome* out) const;  a chance node's outcomes with their probabilities
//   size_t max_outcomes() const;          room enough for outcomes()
//   double utility(const State&) const;   a finished state's value
//   double evaluate(const State&) const;  a state's estimate (a chance node's included), in the same units
//   uint64_t key(const State&) const;     a chance node's key: one state, one key (no two share it)
// A two-player game with chance (backgammon's MIN nodes) has its own walk: search/expectiminimax.hpp.
#pragma once

#include <deque>
#include <vector>

#include "search/common.hpp"
#include "search/table.hpp"

namespace tactician {

// A chance node's table key: the state's key and the plies left below it.
struct ChanceKey {
  uint64_t key;
  int left;
  bool operator==(const ChanceKey& other) const { return key == other.key && left == other.left; }
};
inline uint64_t mix(const ChanceKey& k) { return mix(k.key ^ (uint64_t(k.left) << 58 | uint64_t(k.left) >> 6)); }

template <class G>
class Expectimax {
  using State = typename G::State;
  using Outcome = typename G::Outcome;

 public:
  Expectimax(const G& game, const Budget& budget, const Request& request)
      : game_(game), budget_(budget), cutoff_(request.probability_cutoff), capacity_(request.tt_max_entries),
        multi_pv_(request.multi_pv) {}

  // Every root move's value `depth` plies deep (< 0: passes of 1, 1 + step, ... plies until one is cut
  // nowhere by the depth or the budget runs out); the answer is the last complete pass's, or the root moves
  // the first pass finished.
  Result run(const State& root, int depth) {
    std::vector<MoveValue> completed, moves;
    int completed_depth = 0;
    bool timed_out = false;
    for (int d = depth < 0 ? 1 : depth;; d += G::DEPTH_STEP) {
      moves.clear();
      try {
        bool exhausted = root_pass(root, d, moves);
        completed = moves, completed_depth = d;
        if (depth >= 0 || exhausted) break;
      } catch (Timeout&) {
        timed_out = true;
        if (completed_depth == 0) completed = moves;
        break;
      }
    }
    Result r;
    stats_.depth_completed = completed_depth;
    r.stats = stats_;
    if (completed.empty()) {  // the anytime fallback: the first move, valued by the root's evaluation
      int first[G::MAX_MOVES];
      State unused[G::MAX_MOVES];
      game_.children(root, first, unused);
      r.move = first[0], r.value = game_.evaluate(root);
      return finish(r, timed_out);
    }
    const MoveValue& best = best_of(completed);
    r.move = best.move, r.value = best.value;
    r.moves = completed;
    if (multi_pv_ > 1) r.lines = lines_of(completed);
    return finish(r, timed_out);
  }

 private:
  // One pass `limit` plies deep: appends each root move's value as it is finished; whether no depth cut-off
  // happened (a deeper pass would see the same tree: the probability cut-offs do not depend on the depth).
  bool root_pass(const State& root, int limit, std::vector<MoveValue>& moves) {
    limit_ = limit;
    ++stats_.nodes;
    clear_table();
    uint64_t horizon = horizon_;
    int actions[G::MAX_MOVES];
    State children[G::MAX_MOVES];
    int n = game_.children(root, actions, children);
    for (int i = 0; i < n; ++i) moves.push_back({actions[i], value(children[i], 1, 1.0) + 0.0});
    const MoveValue& best = best_of(moves);
    Progress report{limit, best.value, best.move, {best.move}, stats_.nodes, stats_.max_depth, -1, {}};
    if (multi_pv_ > 1) report.lines = lines_of(moves);
    budget_.report(report);
    return horizon_ == horizon;
  }

  // Multi-PV (expectimax.py's Walk.lines): the multi_pv best root moves, each exact (no pruning) and its
  // move alone as its line (chance moves next).
  std::vector<Line> lines_of(const std::vector<MoveValue>& moves) const {
    std::vector<Line> out;
    for (size_t i : ranked(moves, multi_pv_))
      out.push_back({moves[i].move, moves[i].value, Bound::Exact, {moves[i].move}, "", -1});
    return out;
  }

  // The root move of the highest value, a tie to the first in the game's move order.
  static const MoveValue& best_of(const std::vector<MoveValue>& moves) {
    size_t best = 0;
    for (size_t i = 1; i < moves.size(); ++i)
      if (moves[i].value > moves[best].value) best = i;
    return moves[best];
  }

  // The value of `s` at `ply`, reached with probability `reach`: a leaf's utility (finished) or
  // evaluation (cut by the depth or the probability); a player's best child; a chance node's
  // probability-weighted mean of its outcomes, kept in the table for the pass.
  double value(const State& s, int ply, double reach) {
    ++stats_.nodes;
    if (ply > stats_.max_depth) stats_.max_depth = ply;
    bool chance = game_.to_move(s) == G::CHANCE;
    if (!chance) budget_.spent(stats_.nodes);  // at every player's node, as the Python kernel tests it
    if (!chance && stats_.nodes >= next_poll_) {
      budget_.check();
      next_poll_ = stats_.nodes + Budget::CHECK_EVERY;
    }
    if (ply >= limit_ || reach < cutoff_) {
      ++stats_.leaves;
      if (game_.is_terminal(s)) return game_.utility(s);
      if (ply >= limit_) ++horizon_;
      return game_.evaluate(s);
    }
    return chance ? expected(s, ply, reach) : best(s, ply, reach);
  }

  double best(const State& s, int ply, double reach) {
    int actions[G::MAX_MOVES];
    State children[G::MAX_MOVES];
    int n = game_.children(s, actions, children);
    if (n == 0) {
      ++stats_.leaves;
      return game_.utility(s);
    }
    double v = -INF;
    for (int i = 0; i < n; ++i) {
      double child = value(children[i], ply + 1, reach);
      if (child > v) v = child;
    }
    return v;
  }

  double expected(const State& s, int ply, double reach) {
    ChanceKey key{game_.key(s), limit_ - ply};
    if (const double* known = table_.find(key)) {
      ++stats_.tt_hits;
      return *known;
    }
    if (frames_.size() <= size_t(ply)) frames_.resize(ply + 1);
    std::vector<Outcome>& outcomes = frames_[ply];  // this ply's room: the children below reuse their own
    outcomes.resize(game_.max_outcomes());
    int n = game_.outcomes(s, outcomes.data());
    double total = 0.0;
    for (int i = 0; i < n; ++i) {
      double p = outcomes[i].probability;
      total += p * value(outcomes[i].state, ply + 1, reach * p);
    }
    if (table_.size() >= size_t(capacity_ < 0 ? 0 : capacity_)) clear_table();
    else if (table_.grows_next()) budget_.check_room(double(table_.size()) * TABLE_GROW_SECONDS_PER_ENTRY);
    table_.store(key, total, &budget_);
    return total;
  }

  void clear_table() {
    if (table_.size() == 0) return;
    budget_.check_room(double(table_.slots()) * TABLE_CLEAR_SECONDS_PER_SLOT);
    table_.clear();
  }

  const G& game_;
  const Budget& budget_;
  double cutoff_;
  int64_t capacity_;
  int multi_pv_;  // the best root moves listed in lines (1: none)
  int limit_ = 0;
  uint64_t horizon_ = 0;  // leaves cut by the depth limit, over the whole search
  uint64_t next_poll_ = Budget::CHECK_EVERY;
  DictTable<double, ChanceKey> table_;
  // The outcomes of the chance node on each ply of the path (a deque: growing it moves no frame in use).
  std::deque<std::vector<Outcome>> frames_;
  Stats stats_;
};

// The expectimax answer for `s` (a player's state, not finished) to request.depth plies (< 0: iterative
// deepening), with request.probability_cutoff: the value of each root move and the best (a tie to the
// first in the game's move order). Contract: values are the player's (one player against chance), a
// finished state's utility or, where the depth or the probability cut-off stops the search, its
// evaluation; a player's node is worth its best child, a chance node the probability-weighted mean of its
// outcomes (exact: no pruning). Every root move's value is exact for its depth; no outcome is proven.
template <class G>
Result expectimax(const G& game, const typename G::State& s, const Request& request, const Budget& budget) {
  return Expectimax<G>(game, budget, request).run(s, request.depth);
}

}  // namespace tactician
