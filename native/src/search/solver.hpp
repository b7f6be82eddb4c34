// The exact solver of win/draw/loss games, as engine/search/solver.py after Pascal Pons' Connect Four
// solver: a binary search of null-window probes over the possible results, each a fail-soft negamax to
// the end of the game with a table of proven bounds.
//
// Scores are ints here (every score of a solve is a proven result: WIN - p, 0 or -(WIN - p), all exact in
// a double); the table is Pons' compact one (SolverTable), so the values, outcomes, distances and best
// move are Python's, and the node counts differ (the table keeps fewer entries).
#pragma once

#include <algorithm>
#include <optional>
#include <vector>

#include "search/common.hpp"
#include "search/table.hpp"

namespace tactician {

template <class G>
class ExactSolver {
  using State = typename G::State;
  using Child = typename child_type<G>::type;
  static constexpr int NONE = 2 * int(WIN);  // no bound: an infinity among the ints
  static constexpr int IWIN = int(WIN);
  static constexpr bool WIN_TEST = has_immediate_win<G>::value;
  static constexpr bool SAFE = has_safe_children<G>::value && has_has_safe_move<G>::value;
  static constexpr bool BOUNDS = has_outcome_bounds<G>::value;

  // A table entry: the proven bounds (int16 codes, see code()) and the move that set the better one.
  struct Entry {
    int16_t low, high, move;
  };

 public:
  ExactSolver(const G& game, const State& root, const Budget& budget, bool ordering, int64_t tt_capacity)
      : game_(game), root_(root), budget_(budget), ordering_(ordering), safe_(SAFE && ordering),
        end_(ply_room(game, root)), table_(tt_capacity), use_table_(tt_capacity > 0) {
    const int next_win = WIN_TEST ? 3 : 1;
    for (int p = 0; p <= end_; ++p) {
      ceiling_at_.push_back(p + next_win <= end_ ? IWIN - p - next_win : 0);
      floor_at_.push_back(p + 2 <= end_ ? p + 2 - IWIN : 0);
      safe_floor_at_.push_back(p + 4 <= end_ ? p + 4 - IWIN : 0);
    }
  }

  // The exact result, or nothing when the budget ran out first; `stats` holds what came before and gets
  // what the solve visited either way. `ranking`: the root's moves in the order to try them first.
  std::optional<Result> solve(std::vector<int> ranking, Stats& stats) {
    stats_ = stats;
    if constexpr (WIN_TEST) {
      int win = game_.immediate_win(root_);
      if (win >= 0) move_to_front(ranking, win);
    }
    // The possible results for the player to move, worst first: losses on even plies (the latest last),
    // a draw, then wins on odd plies (the soonest last).
    std::vector<int> results;
    for (int k = 2; k <= end_; k += 2) results.push_back(-(IWIN - k));
    results.push_back(0);
    for (int k = end_ - (1 - end_ % 2); k > 0; k -= 2) results.push_back(IWIN - k);
    const int draw = int(results.size()) - 1 - (end_ + 1) / 2;
    // Each root move's proven bounds, rounded to possible results.
    std::vector<int> lower(G::MAX_MOVES, results[0]), upper(G::MAX_MOVES, NONE);
    auto rank_of = [&](int score, bool is_upper) {
      return int(is_upper ? std::upper_bound(results.begin(), results.end(), score) - results.begin() - 1
                          : std::lower_bound(results.begin(), results.end(), score) - results.begin());
    };
    // The root moves with the window (alpha, beta) until one fails high (it goes first); the best score.
    auto root_probe = [&](int alpha, int beta) {
      ++stats_.nodes;
      int best = -NONE;
      for (int a : ranking) {
        int v = -probe(game_.result(root_, a), -beta, -alpha, 1, true);
        best = std::max(best, v);
        if (v >= beta) {
          lower[a] = std::max(lower[a], results[rank_of(v, false)]);
          move_to_front(ranking, a);
          return best;
        }
        upper[a] = std::min(upper[a], results[rank_of(v, true)]);
      }
      return best;
    };
    // Bisect, nearer the extremes first (Pons), then the draw boundary (solver.py's next_probe).
    auto next_probe = [&](int low, int high, int probes) {
      if (probes >= 2 && low < draw && draw <= high) return high > draw ? draw : draw - 1;
      int med = low + (high - low) / 2;
      if (med <= draw && draw - (draw - low) / 2 < med) return draw - (draw - low) / 2;
      if (med >= draw && draw + (high - draw) / 2 > med) return draw + (high - draw) / 2;
      return med;
    };
    int low = 0, high = int(results.size()) - 1, probes = 0;
    try {
      while (low < high) {
        int alpha = results[next_probe(low, high, probes++)];
        int v = root_probe(alpha, alpha + 1);
        if (v <= alpha)
          high = rank_of(v, true);
        else
          low = rank_of(v, false);
      }
    } catch (Timeout&) {
      stats = stats_;
      return std::nullopt;
    }
    stats = stats_;
    const int root_score = results[low], best = ranking[0];
    Result r;
    r.stats = stats_;
    r.stats.depth_completed = end_;
    r.stats.stop_reason = SOLVED;
    r.move = best;
    r.value = as_value(root_score);
    int actions[G::MAX_MOVES], n = game_.actions(root_, actions);
    for (int i = 0; i < n; ++i) {
      int a = actions[i];
      if (lower[a] == upper[a] || a == best)
        r.moves.push_back({a, as_value(a == best ? root_score : lower[a]), Bound::Exact});
      else if (upper[a] < NONE)
        r.moves.push_back({a, as_value(upper[a]), Bound::Upper});
    }
    r.outcome = outcome_of(root_score);
    r.plies_to_end = root_score == 0 ? end_ : IWIN - std::abs(root_score);
    return finish(r, false);
  }

 private:
  static void move_to_front(std::vector<int>& moves, int move) {
    std::rotate(moves.begin(), std::find(moves.begin(), moves.end(), move),
                std::find(moves.begin(), moves.end(), move) + 1);
  }
  // Table codes: a proven score as its distance from the end it names (an int16), NONE as the extremes.
  static int16_t code(int score) {
    if (score >= NONE) return INT16_MAX;
    if (score <= -NONE) return -INT16_MAX;
    return int16_t(score > 0 ? 30000 - (IWIN - score) : score < 0 ? -(30000 - (IWIN + score)) : 0);
  }
  static int decode(int16_t c) {
    if (c == INT16_MAX) return NONE;
    if (c == -INT16_MAX) return -NONE;
    return c > 0 ? IWIN - (30000 - c) : c < 0 ? -(IWIN - (30000 + c)) : 0;
  }

  // The score of `s` for its player to move, searched to the end of the game, fail-soft in (alpha, beta):
  // <= alpha an upper bound, >= beta a lower bound, between them exact. A win at ply p scores WIN - p.
  // `may_win`: the player to move might win at once (false below a safe move: the opponent cannot).
  int probe(const State& s, int alpha, int beta, int ply, bool may_win) {
    budget_.poll(++stats_.nodes);
    if (ply > stats_.max_depth) stats_.max_depth = ply;
    if (game_.is_terminal(s)) {
      ++stats_.leaves;
      return int(game_.utility(s, game_.to_move(s))) * (IWIN - ply);
    }
    if constexpr (WIN_TEST)
      if (may_win && game_.immediate_win(s) >= 0) {
        ++stats_.leaves;
        return IWIN - ply - 1;
      }
    int ceiling = ceiling_at_[ply], floor = floor_at_[ply], table_move = -1;
    const uint64_t key = game_.key(s);
    std::optional<Entry> hit;
    if (use_table_)
      if (const Entry* e = table_.find(key)) {
        hit = *e;
        ++stats_.tt_hits;
        floor = std::max(floor, decode(e->low));
        ceiling = std::min(ceiling, decode(e->high));
        table_move = e->move;
      }
    if (floor >= beta) return floor;
    if (ceiling <= alpha) return ceiling;
    alpha = std::max(alpha, floor);
    beta = std::min(beta, ceiling);
    if (alpha >= beta) return alpha;  // floor == ceiling: the exact score
    const int alpha0 = alpha;
    int best = -NONE, best_move = -1;
    if constexpr (SAFE)
      if (safe_) {
        if (!game_.has_safe_move(s)) {  // every move lets the opponent win next
          ++stats_.leaves;
          return -(IWIN - ply - 2);
        }
        floor = safe_floor_at_[ply];
        if (floor >= beta) return floor;
        alpha = std::max(alpha, floor);
      }
    if constexpr (BOUNDS)
      if (!hit) {  // once a position: then the table holds what they gave
        double lowest, highest;
        if (game_.outcome_bounds(s, lowest, highest)) {
          if (lowest >= 0) {
            floor = lowest == 0 ? 0 : IWIN - end_;
            if (floor >= beta) return floor;
            alpha = std::max(alpha, floor);
          }
          if (highest <= 0) {
            ceiling = highest == 0 ? 0 : -(IWIN - end_);
            if (ceiling <= alpha) return ceiling;
            beta = std::min(beta, ceiling);
          }
        }
      }
    const bool child_may_win = !safe_;
    if (table_move >= 0) {  // the table's move first, before ordering the rest
      best = -probe(game_.result(s, table_move), -beta, -alpha, ply + 1, child_may_win);
      best_move = table_move;
      alpha = std::max(alpha, best);
    }
    // A cut counts when it leaves at least one of the moves unsearched (solver.py's expand).
    Child children[G::MAX_MOVES];
    int n = children_of(s, children);
    if (best >= beta) {
      if (n > 1) ++stats_.cutoffs;
    } else {
      if (use_table_ && safe_ && n > 1) {
        // Enhanced transposition cut-off: a child whose entry already refutes the opponent's reply cuts
        // at once, counted as a visit (a table hit) of that child.
        uint64_t keys[G::MAX_MOVES];
        for (int i = 0; i < n; ++i) table_.prefetch(keys[i] = game_.key(children[i].state));
        for (int i = 0; i < n; ++i)
          if (const Entry* e = table_.find(keys[i]); e && -decode(e->high) >= beta) {
            ++stats_.nodes, ++stats_.tt_hits, ++stats_.cutoffs;
            best = -decode(e->high), best_move = children[i].move;
            break;
          }
      }
      for (int i = 0; i < n && best < beta; ++i) {
        if (children[i].move == table_move) continue;
        const State& child = safe_ ? children[i].state : game_.result(s, children[i].move);
        int v = -probe(child, -beta, -alpha, ply + 1, child_may_win);
        if (v > best) {
          best = v, best_move = children[i].move;
          alpha = std::max(alpha, v);
          if (best >= beta && std::any_of(children + i + 1, children + n,
                                          [&](const Child& c) { return c.move != table_move; }))
            ++stats_.cutoffs;
        }
      }
    }
    if (use_table_) {
      int low = hit ? decode(hit->low) : -NONE, high = hit ? decode(hit->high) : NONE;
      if (best > alpha0) low = best;
      if (best < beta) high = best;
      table_.store(key, {code(low), code(high), int16_t(best > alpha0 || !hit ? best_move : hit->move)});
    }
    return best;
  }

  // The moves a node searches: the safe children (built) when the game lists them, else every move.
  int children_of(const State& s, Child* out) const {
    if constexpr (SAFE)
      if (safe_) return game_.safe_children(s, out);
    int moves[G::MAX_MOVES], n = ordering_ ? game_.ordered_actions(s, moves) : game_.actions(s, moves);
    for (int i = 0; i < n; ++i) out[i].move = moves[i];
    return n;
  }

  const G& game_;
  const State root_;
  const Budget& budget_;
  const bool ordering_, safe_;
  const int end_;
  SolverTable<Entry> table_;
  const bool use_table_;
  std::vector<int> ceiling_at_, floor_at_, safe_floor_at_;
  Stats stats_;
};

template <class G>
std::optional<Result> exact_solve(const G& game, const typename G::State& s, const Budget& budget, bool ordering,
                                  int64_t tt_capacity, const std::vector<int>& ranking, Stats& stats) {
  return ExactSolver<G>(game, s, budget, ordering, tt_capacity).solve(ranking, stats);
}

}  // namespace tactician
