// What the native searches share, as engine/search/common.py and scores.py define it: the scores of the
// enhanced searches, the principal-variation table, and assembling the result.
#pragma once

#include <cmath>
#include <limits>
#include <algorithm>
#include <vector>

#include "core/budget.hpp"
#include "core/request.hpp"
#include "core/result.hpp"
#include "search/game.hpp"

namespace tactician {

constexpr double INF = std::numeric_limits<double>::infinity();
// A win at ply p scores WIN - p for the winner (scores.py); beyond PROVEN a score is a proven result.
constexpr double WIN = 1000000, PROVEN = WIN - 100000;
constexpr int MAX_ID_DEPTH = 10000;

// A score as the API reports values: proven wins and losses as +1 and -1 (and no negative zero).
inline double as_value(double score, bool outcome_game = true) {
  if (outcome_game && std::fabs(score) >= PROVEN && !std::isinf(score)) return std::copysign(1.0, score);
  return score + 0.0;
}
// A proven score made relative to the node at `ply` (a win counted from the node), and back.
inline double to_table(double score, int ply) {
  return score >= PROVEN ? score + ply : score <= -PROVEN ? score - ply : score;
}
inline double from_table(double score, int ply) {
  return score >= PROVEN ? score - ply : score <= -PROVEN ? score + ply : score;
}

inline const char* outcome_of(double value) { return value > 0 ? "win" : value < 0 ? "loss" : "draw"; }

// Multi-PV (engine/search/multipv.py): the value a root move must beat to be among the n best, given the
// exact values of the moves searched so far: the n-th highest, or -INF while fewer than n.
inline double threshold(std::vector<double> values, int n) {
  if (int(values.size()) < n) return -INF;
  std::nth_element(values.begin(), values.begin() + (n - 1), values.end(), std::greater<double>());
  return values[size_t(n - 1)];
}

// The indices of the n best of `moves` by value, the highest first, ties to the first in list order; only
// exact values (or estimates) qualify, not bounds (multipv.py's ranked).
inline std::vector<size_t> ranked(const std::vector<MoveValue>& moves, int n) {
  std::vector<size_t> order;
  for (size_t i = 0; i < moves.size(); ++i)
    if (moves[i].bound == Bound::Exact || moves[i].bound == Bound::Estimate) order.push_back(i);
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return moves[a].value > moves[b].value; });
  if (int(order.size()) > n) order.resize(size_t(n));
  return order;
}

// Whether a complete search `depth` plies deep (< 0: unlimited) sees every terminal state.
template <class G>
bool reaches_end(const G& game, const typename G::State& s, int depth) {
  if (depth < 0) return true;
  int bound = game.plies_bound(s);
  return bound >= 0 && depth >= bound;
}

// The principal variation below each ply: line(ply) is the line of the node last valued at that ply, set
// to `move` then the line below it by `extend`. Rows are added as the search goes deeper (`plies`: the
// rows made at once), so a game without a bound on its length (chess: MAX_ID_DEPTH) costs only the plies
// it reaches.
class PvTable {
 public:
  explicit PvTable(int plies) : rows_(size_t(std::min(plies, 256)) + 2) {}
  void clear(int ply) {
    reach(ply);
    rows_[ply].clear();
  }
  void extend(int ply, int move) {
    reach(ply);
    std::vector<int>& row = rows_[ply];
    const std::vector<int>& below = rows_[ply + 1];
    row.clear();
    row.push_back(move);
    row.insert(row.end(), below.begin(), below.end());
  }
  // [move] followed by the line below ply 0's child (ply 1), as the root's lines are kept.
  std::vector<int> root_line(int move) const {
    std::vector<int> line{move};
    line.insert(line.end(), rows_[1].begin(), rows_[1].end());
    return line;
  }

 private:
  void reach(int ply) {
    if (size_t(ply) + 2 > rows_.size()) rows_.resize(size_t(ply) + 2);
  }
  std::vector<std::vector<int>> rows_;
};

// The plies a search may go below its root: the game's bound, else MAX_ID_DEPTH.
template <class G>
int ply_room(const G& game, const typename G::State& s) {
  int bound = game.plies_bound(s);
  return bound >= 0 ? bound : MAX_ID_DEPTH;
}

// The root's moves a search plays (engine/root.py): the n of `moves`, in the order the search put them,
// less those the request's root_moves leave out (none when it has none). Returns how many are kept, first
// in `moves`.
template <class G>
int allowed_root(const G& game, const typename G::State& root, const Request& request, int* moves, int n) {
  if (request.root_moves.empty()) return n;
  int natural[G::MAX_MOVES];
  const int all = game.actions(root, natural);
  int kept = 0;
  for (int i = 0; i < n; ++i)
    if (std::any_of(request.root_moves.begin(), request.root_moves.end(),
                    [&](int k) { return k < all && natural[k] == moves[i]; }))
      moves[kept++] = moves[i];
  return kept;
}

// The anytime answer when no root move was searched: the first ordered move (of those allowed_root keeps),
// valued by the root's evaluation, an estimate (common.py's first_move_fallback).
template <class G>
MoveValue first_move_fallback(const G& game, const typename G::State& s, const Request& request) {
  int moves[G::MAX_MOVES];
  allowed_root(game, s, request, moves, game.ordered_actions(s, moves));
  return {moves[0], game.evaluate(s, game.to_move(s)) + 0.0, Bound::Estimate};
}

// Stamp the stop reason of a search that ran out of time (common.py's finish).
inline Result& finish(Result& r, bool timed_out) {
  r.stats.timed_out = timed_out;
  if (timed_out) r.stats.stop_reason = TIME_LIMIT;
  if (r.pv.empty()) r.pv.push_back(r.move);
  r.value += 0.0;
  return r;
}

}  // namespace tactician

namespace tactician {

// The answer of a single-pass search that values every root move (minimax, textbook alpha-beta): the
// best root move (a tie to the first in natural order) of the pass, or of the moves it finished before
// the budget ran out (none: the fallback); a proven outcome when the pass saw every terminal state, with
// its line's length as plies_to_end when `distance` (minimax's tie-breaks make it the game's length), for
// the pass to request.depth. With request.multi_pv > 1, also the multi_pv best moves as lines, each with its outcome when the pass was solved.
template <class G>
Result pass_answer(const G& game, const typename G::State& s, const Request& request, std::vector<MoveValue>& moves,
                   std::vector<std::vector<int>>& lines, Stats stats, bool timed_out, bool distance) {
  const int depth = request.depth, multi_pv = request.multi_pv;
  Result r;
  r.stats = stats;
  r.stats.depth_completed = timed_out ? 0 : depth >= 0 ? depth : stats.max_depth;
  if (moves.empty()) {
    MoveValue fallback = first_move_fallback(game, s, request);
    r.move = fallback.move, r.value = fallback.value;
    return finish(r, timed_out);
  }
  size_t best = 0;
  for (size_t i = 1; i < moves.size(); ++i)
    if (moves[i].value > moves[best].value) best = i;
  r.move = moves[best].move, r.value = moves[best].value;
  r.pv = lines[best];
  r.moves = moves;
  const bool solved = G::OUTCOME_GAME && !timed_out && reaches_end(game, s, depth);
  if (solved) {
    r.outcome = outcome_of(r.value);
    if (distance) r.plies_to_end = int(r.pv.size());
  }
  if (multi_pv > 1)
    for (size_t i : ranked(moves, multi_pv))
      r.lines.push_back({moves[i].move, moves[i].value, moves[i].bound, lines[i],
                         solved ? outcome_of(moves[i].value) : "", -1});
  return finish(r, timed_out);
}

}  // namespace tactician
