// The enhanced alpha-beta: iteratively deepened principal-variation search in negamax form, as
// engine/search/pvs.py does it for games like Connect Four and m,n,k (alternating, no quiescence, null
// moves, reductions or aspiration: none of those games lists them). Null-window scouts and re-searches, a
// transposition table (DictTable: Python's dict, so the same nodes), move ordering (table move, killers,
// history, the game's own ordering; below the root, the safe children where the game has them) and, in
// outcome games, wins scored WIN - ply. Without a depth limit, the exact solver first takes a share of the
// time (SOLVE_SHARE) when the plies left fit the time (solve_max_plies), or the whole budget with
// request.solve; a game with an endgame solver of its own (search/endgame.hpp) gives that solver the turn
// instead, and has it score any result the deepening proves.
//
// The knowledge a game lists (game.hpp; m,n,k on boards of 81+ cells) adds pvs.py's enhancements: forward
// pruning to the candidate moves (CANDIDATES, with ordering), where a node whose candidates all lose while
// moves left out might not scores LIKELY_LOSS; one more ply at forcing states (EXTENSIONS, up to twice the
// iteration's depth); and, in outcome games, the threat phase at the root (THREATS) within its shares of
// the time (WIN_SHARE, DEFENCE_SHARE): the mover's forced win is played, the opponent's restricts the root
// to the moves that may stop it. The threat searches' positions count among the nodes, as in Python.
//
// Chess's knowledge (game.hpp's optional calls) adds the rest of pvs.py's Enhancements: quiescence through
// the noisy moves at the horizon, with stand-pat and delta pruning (QUIESCENCE; the noisy moves also go
// first in the order, MVV-LVA, after the table move), late-move reductions of quiet moves (with it and
// ordering) and, with them, a ply less where the table has no move (internal iterative reduction),
// null-move pruning at scout nodes (NULL_MOVE, with ordering), repetitions scored as draws below the root
// (REPETITION) and aspiration windows at the root (ASPIRATION); with quiescence, the captures that lose
// their exchange skipped in quiescence and ordered after the killers (EXCHANGE), and reverse futility and
// futility pruning at shallow scout nodes (FUTILITY, with ordering). Since null moves and reductions can
// hide a defence or a mate, such a search without a depth limit first gives MATE_SHARE of its time to a
// full-width mate search (prove_win): a win it finds is the shortest and ends the search. With quiescence
// and a single line, a pass the deadline stops gives the better move it found (interrupted).
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <optional>
#include <vector>

#include "search/common.hpp"
#include "search/endgame.hpp"
#include "search/solver.hpp"
#include "search/table.hpp"

namespace tactician {

constexpr double SOLVE_SHARE = 1.0 / 3;
// The most plies left at which the exact solve is tried: pvs.py's rule (a short and a long limit, from
// LONG_SOLVE_SECONDS), with this core's own figures. Its solver is some 40 times faster than Python's:
// every Connect Four position (42 plies) with 2 s or more (Pons' Test_L1_R2, 28-38 plies left, takes
// 0.29 s on average, 5 s at the most), and 30 plies below.
constexpr int SOLVE_MAX_PLIES = 30, LONG_SOLVE_MAX_PLIES = 42;
constexpr double LONG_SOLVE_SECONDS = 2.0;
constexpr double WIN_SHARE = 0.1, DEFENCE_SHARE = 0.15;
constexpr double LIKELY_LOSS = -1.0;
// negamax.py's null-move, late-move-reduction, internal-iterative-reduction and futility parameters, and
// pvs.py's mate search's share and reach.
constexpr int NULL_MIN_DEPTH = 3, NULL_REDUCTION = 2;
constexpr int LMR_FIRST = 3, LMR_MIN_DEPTH = 3;
constexpr double LMR_BASE = 0.75, LMR_DIVISOR = 2.25;
constexpr int64_t LMR_HISTORY_STEP = 8192;
constexpr int IIR_MIN_DEPTH = 4;
constexpr int FUTILITY_DEPTH = 3, QUIET_FUTILITY_DEPTH = 2;
constexpr int64_t HISTORY_MAX = 1 << 14;  // negamax.py's bound of the history with quiescence (gravity)
constexpr double MATE_SHARE = 0.5;
constexpr int MATE_MAX_MOVES = 3;

inline int solve_max_plies(const Budget& budget) {
  return budget.remaining() < LONG_SOLVE_SECONDS ? SOLVE_MAX_PLIES : LONG_SOLVE_MAX_PLIES;
}

// Whether the search of an outcome game whose keys fix the ply gives the exact solver its turn first:
// with request.solve, or without a depth limit when at most `max_plies` plies are left (`bound`, the
// game's plies_bound; -1: unknown). Under a node budget, with request.solve only: the plies a solve may
// take depend on the time and the core's speed, and both cores must stop at the same node.
inline bool solves_first(const Request& request, int bound, int max_plies) {
  if (request.nodes > 0) return request.solve;  // pvs.py's solver_for: the phases of a node budget
  return request.solve || (request.depth < 0 && (bound >= 0 ? bound : MAX_ID_DEPTH) <= max_plies);
}

template <class G>
class Pvs {
  using State = typename G::State;
  using Child = typename child_type<G>::type;
  static constexpr bool WIN_TEST = G::OUTCOME_GAME && has_immediate_win<G>::value;
  static constexpr int NEXT_WIN = WIN_TEST ? 3 : 1;  // a player who cannot win at once wins this much later
  static constexpr bool SAFE = has_safe_children<G>::value;
  static constexpr bool QUIESCENCE = has_noisy_actions<G>::value, NULL_MOVE = has_null_move<G>::value;
  static constexpr bool REPETITION = has_repeated<G>::value, ASPIRATION = has_aspiration_width<G>::value;
  static constexpr bool EXCHANGE = QUIESCENCE && has_exchange<G>::value;
  static constexpr bool FUTILITY = QUIESCENCE && has_futility_margin<G>::value;
  enum Flag : int8_t { TT_EXACT, TT_LOWER, TT_UPPER };
  struct Entry {
    double score;  // relative to the node (to_table)
    int depth;
    Flag flag;
    int move;
  };
  struct RootScore {
    int move;
    double score;
    Bound bound;
  };
  // A node's static evaluation for its mover, computed at most once: by the first pruning test that needs
  // it (reverse futility, the null move, futility), and never where none does.
  class StaticEval {
   public:
    StaticEval(const G& game, const State& s, int player) : game_(game), s_(s), player_(player) {}
    double operator()() {
      if (!known_) value_ = game_.evaluate(s_, player_), known_ = true;
      return value_;
    }

   private:
    const G& game_;
    const State& s_;
    const int player_;
    double value_ = 0.0;
    bool known_ = false;
  };

 public:
  Pvs(const G& game, const State& root, const Request& request, const Budget& budget)
      : game_(game), root_(root), request_(request), budget_(budget), ordering_(request.move_ordering),
        safe_(SAFE && request.move_ordering && WIN_TEST), pruning_(ordering_ && lists<CANDIDATES>(game)),
        extensions_(lists<EXTENSIONS>(game)), threats_(G::OUTCOME_GAME && lists<THREATS>(game)),
        quiescence_(QUIESCENCE), null_move_(NULL_MOVE && ordering_), reductions_(QUIESCENCE && ordering_),
        futility_(FUTILITY && ordering_),
        tt_capacity_(request.transposition_table ? request.tt_max_entries : 0),
        pv_(ply_room(game, root)), killers_(ply_room(game, root) + 2, {-1, -1}),
        counters_(QUIESCENCE ? size_t(move_slots<G>()) : 0, -1), path_(ply_room(game, root) + 2, -1) {}

  Result run() {
    const int depth = request_.depth, bound = game_.plies_bound(root_);
    int last = depth < 0 ? MAX_ID_DEPTH : depth;
    if (bound >= 0) last = std::min(last, bound);
    int moves[G::MAX_MOVES];
    bool root_complete;
    const int n = root_ranking(moves, root_complete);
    std::vector<int> ranking(moves, moves + n);
    // Multi-PV (pvs.py): the phases that prove the best move alone, and aspiration windows, are skipped;
    // so are those that play every root move where the request restricts them (engine/root.py).
    const int multi_pv = request_.multi_pv;
    const bool whole = request_.root_moves.empty();
    const bool single = multi_pv == 1;
    if constexpr (has_solve_endgame<G>::value) {
      // Without a depth limit, the game's own endgame solver first, within the same share of the time (it
      // declines at once beyond its reach).
      if (request_.depth < 0 && single && whole) {
        Budget share = request_.solve ? budget_ : budget_.share(SOLVE_SHARE);
        if (auto solved = endgame_solve(game_, root_, share, ordering_, tt_capacity_, stats_)) return *solved;
        stats_.stop_reason = COMPLETED;
      }
    } else if constexpr (G::OUTCOME_GAME && G::KEY_FIXES_PLY) {
      // An exact solve first: a share of the time where it can finish, or all of it when asked to.
      if (single && whole && solves_first(request_, bound, solve_max_plies(budget_))) {
        Budget share = request_.solve ? budget_ : budget_.share(SOLVE_SHARE);
        if (auto solved = exact_solve(game_, root_, share, ordering_, tt_capacity_, ranking, stats_)) return *solved;
        stats_.stop_reason = COMPLETED;
      }
    }
    bool timed_out = false, exhausted = false, completed = false;
    int completed_depth = 0;
    double completed_score = 0.0;
    std::vector<RootScore> scores;
    std::vector<int> line;
    std::vector<std::vector<int>> lines;  // each root move's own line (empty for a bound)
    std::optional<std::vector<int>> won;  // by threats or the mate search: the answer, with no deepening
    if (threats_ && single && whole) won = threat_phase(ranking, root_complete);
    if (won) {
      completed = true, completed_depth = int(won->size()), line = *won;
      scores = {{line[0], WIN - completed_depth, Bound::Exact}};
      stats_.stop_reason = SOLVED;
    } else if (single && depth < 0 && G::OUTCOME_GAME && (null_move_ || reductions_)) {
      if (prove_win(ranking, scores, line)) {  // a proven win ends the search: no deepening
        won = line;
        completed = true, completed_depth = horizon_;  // (the plies of the win found)
        stats_.stop_reason = SOLVED;
      }
    }
    std::vector<RootScore> pass;             // the pass in progress: its scores and lines so far
    std::vector<std::vector<int>> pass_lines;
    try {
      for (int d = 1; !won && d <= last; ++d) {
        ++stats_.nodes;
        horizon_ = d;
        pass.clear(), pass_lines.clear();
        std::vector<int> pass_line;
        bool searched = false;
        if constexpr (ASPIRATION)
          if (completed && single && std::fabs(completed_score) < PROVEN) {
            const double width = game_.aspiration_width(root_);
            searched = root_pass(d, ranking, pass, pass_line, pass_lines, completed_score - width,
                                 completed_score + width, 1);
          }
        if (!searched) {
          pass.clear(), pass_lines.clear();
          root_pass(d, ranking, pass, pass_line, pass_lines, -INF, INF, multi_pv);
        }
        double best_score = -INF;
        for (const RootScore& rs : pass) best_score = std::max(best_score, rs.score);
        completed_score = best_score;
        if (!root_complete && best_score < PROVEN) ++guesses_;
        if (tt_capacity_) pass_line = table_line(pass_line, d, best_score);
        if (tt_capacity_ && !single)
          for (size_t i = 0; i < pass.size(); ++i)
            if (!pass_lines[i].empty()) pass_lines[i] = table_line(pass_lines[i], d, pass[i].score);
        completed = true, completed_depth = d, scores = pass, line = pass_line, lines = pass_lines;
        Progress report{d, as_value(best_score, G::OUTCOME_GAME), line[0], line, stats_.nodes, stats_.max_depth,
                        -1, {}};
        if (!single) report.lines = lines_of(scores, lines, false, multi_pv);
        budget_.report(report);
        std::stable_sort(pass.begin(), pass.end(),
                         [](const RootScore& a, const RootScore& b) { return a.score > b.score; });
        for (size_t i = 0; i < pass.size(); ++i) ranking[i] = pass[i].move;
        if (!single) {
          if (G::OUTCOME_GAME && root_complete && all_proven(scores, multi_pv)) {
            stats_.stop_reason = SOLVED;
            break;
          }
        } else if (G::OUTCOME_GAME && (best_score >= PROVEN || (best_score <= -PROVEN && root_complete))) {
          stats_.stop_reason = SOLVED;
          break;
        }
        if (!guesses_) {  // every line ended by the rules: deeper is the same
          exhausted = true;
          break;
        }
      }
    } catch (Timeout&) {
      timed_out = true;
      if (completed && single && quiescence_) interrupted(completed_depth, pass, pass_lines, scores, line, lines);
    }
    Result r;
    r.stats = stats_;
    if (!completed) {
      MoveValue fallback = first_move_fallback(game_, root_, request_);
      r.move = fallback.move, r.value = fallback.value;
      return finish(r, true);
    }
    r.stats.depth_completed = completed_depth;
    size_t best = 0;  // the move of the line: the pass's best (its first highest score), or interrupted's
    while (scores[best].move != line[0]) ++best;
    const double root_score = scores[best].score;
    // A win proven before the requested depth ends the deepening: the other moves' unproven scores are
    // estimates from a shallower search than asked for.
    const bool cut_short =
        G::OUTCOME_GAME && std::fabs(root_score) >= PROVEN && !reaches_end(game_, root_, completed_depth);
    for (const RootScore& rs : scores)
      r.moves.push_back({rs.move, as_value(rs.score, G::OUTCOME_GAME),
                         cut_short && std::fabs(rs.score) < PROVEN ? Bound::Estimate : rs.bound});
    r.move = r.moves[best].move, r.value = r.moves[best].value;
    r.pv = line;
    if (G::OUTCOME_GAME && (root_score >= PROVEN || (root_score <= -PROVEN && root_complete))) {
      r.outcome = outcome_of(root_score);
      r.plies_to_end = int(WIN - std::fabs(root_score));
    } else if (G::OUTCOME_GAME && (exhausted || (reaches_end(game_, root_, completed_depth) && !pruning_))) {
      r.outcome = outcome_of(r.value);
      r.plies_to_end = draw_length(line);
    }
    if (single) return scored_outcome(game_, root_, finish(r, timed_out), budget_, ordering_, tt_capacity_, !whole);
    r.lines = lines_of(scores, lines,
                       G::OUTCOME_GAME && (exhausted || (reaches_end(game_, root_, completed_depth) && !pruning_)),
                       multi_pv);
    if (has_solve_endgame<G>::value) {  // endgame.py's scored_lines: the winners proven, the scores not
      r.outcome.clear(), r.plies_to_end = -1;
      for (Line& l : r.lines) l.outcome.clear(), l.plies_to_end = -1;
    }
    return finish(r, timed_out);
  }

 private:
  // The score of `s` for its player to move, searched `d` plies deep, fail-soft: <= alpha an upper bound,
  // >= beta a lower bound, between them exact. In outcome games a win at ply p scores WIN - p, a loss
  // -(WIN - p); the table keeps scores relative to the node.
  double negamax(const State& s, int d, double alpha, double beta, int ply) {
    if ((++stats_.nodes & (Budget::CHECK_EVERY - 1)) == 0) {  // the poll, keeping the time to free the table
      clock_->count(stats_.nodes);
      clock_->check_room(double(tt_.slots()) * TABLE_FREE_SECONDS_PER_SLOT);
    }
    if (ply > stats_.max_depth) stats_.max_depth = ply;
    pv_.clear(ply);
    const int player = game_.to_move(s);
    if (game_.is_terminal(s)) {
      ++stats_.leaves;
      double u = game_.utility(s, player);
      return G::OUTCOME_GAME ? u * (WIN - ply) : u;
    }
    if constexpr (G::OUTCOME_GAME) {
      if constexpr (WIN_TEST)
        if (game_.immediate_win(s) >= 0) {
          ++stats_.leaves;
          return WIN - ply - 1;
        }
      // Mate-distance pruning: nothing here can beat a win at the next chance, nor lose sooner.
      alpha = std::max(alpha, -(WIN - ply - 1));
      beta = std::min(beta, WIN - ply - NEXT_WIN);
      if (alpha >= beta) return alpha;
    }
    if constexpr (REPETITION)
      if (ply && game_.repeated(s)) {  // a repetition: either side could repeat again
        ++stats_.leaves, ++guesses_;
        return 0.0;
      }
    if (extensions_ && d >= 0 && ply < 2 * horizon_ && forcing(s)) ++d;
    if (d <= 0) {  // the horizon (d 0), or inside quiescence (d -1)
      ++stats_.leaves, ++guesses_;
      if constexpr (QUIESCENCE)
        if (quiescence_) return quiesce(s, alpha, beta, ply, d == 0);
      return game_.evaluate(s, player);
    }
    int table_move = -1;
    const uint64_t key = tt_capacity_ ? table_key(s) : 0;
    if (tt_capacity_)
      if (const Entry* hit = tt_.find(key)) {
        ++stats_.tt_hits;
        table_move = hit->move;
        if (hit->depth >= d) {
          double score = from_table(hit->score, ply);
          if (hit->flag == TT_EXACT || (hit->flag == TT_LOWER && score >= beta) ||
              (hit->flag == TT_UPPER && score <= alpha)) {
            ++guesses_;
            return score;
          }
          if (hit->flag == TT_LOWER)
            alpha = std::max(alpha, score);
          else
            beta = std::min(beta, score);
        }
      }
    if (reductions_ && tt_capacity_ && table_move < 0 && d >= IIR_MIN_DEPTH) --d;  // internal iterative reduction
    const bool scout = beta == std::nextafter(alpha, INF);  // a null window: off the principal variation
    StaticEval stand{game_, s, player};  // (evaluated once, by the first of the pruning tests that needs it)
    if constexpr (FUTILITY)  // reverse futility: a shallow scout node whose evaluation beats beta by a margin a ply
      if (futility_ && d <= FUTILITY_DEPTH && scout && std::fabs(beta) < PROVEN && !(extensions_ && forcing(s))) {
        if (stand() - game_.futility_margin(s) * d >= beta) {
          ++guesses_;
          return stand();
        }
      }
    if constexpr (NULL_MOVE)  // null-move pruning at scout nodes
      if (null_move_ && d >= NULL_MIN_DEPTH && scout && std::fabs(beta) < PROVEN) {
        const double v = null_move_score(s, d, beta, ply, stand);
        if (!std::isnan(v)) {
          ++guesses_;
          return v;
        }
      }
    Child children[SAFE ? G::MAX_MOVES : 1];  // the safe children, where the game has them
    int moves[G::MAX_MOVES], n = 0, n_loud = 0;
    bool complete = true;
    NoisyMove noisy[QUIESCENCE ? G::MAX_MOVES : 1];  // (with quiescence and ordering: no game has safe children)
    if constexpr (SAFE)
      if (safe_) {
        n = game_.safe_children(s, children);
        if (n == 0) {  // every move lets the opponent win at once
          ++stats_.leaves;
          return -(WIN - ply - 2);
        }
        for (int i = 0; i < n; ++i) moves[i] = children[i].move;
      }
    if (!safe_) n = expanded_moves(s, moves, complete, noisy, n_loud);
    int loud[QUIESCENCE ? G::MAX_MOVES : 1];          // the noisy moves, MVV-LVA, searched first
    bool losing[QUIESCENCE ? G::MAX_MOVES : 1] = {};  // by place in loud: loses its exchange (then later)
    for (int i = 0; i < n_loud; ++i) {
      loud[i] = noisy[i].move;
      if constexpr (EXCHANGE) losing[i] = game_.exchange(s, loud[i]) < 0;
    }
    int order[G::MAX_MOVES], rest = n;
    int64_t history[G::MAX_MOVES];
    order_moves(moves, n, table_move, ply, loud, losing, n_loud, order, rest, history);
    bool quiet[G::MAX_MOVES];  // by place in the order: may late-move reductions reduce it?
    const bool* reducible_at = nullptr;  // `quiet` where late-move reductions may reduce here
    if constexpr (QUIESCENCE)
      if (reductions_ && reducible(s, d, moves, n, order, ply, loud, n_loud, quiet)) reducible_at = quiet;
    bool futile = false;  // the quiet moves after the first may be skipped
    if constexpr (FUTILITY)
      if (futility_) futile = this->futile(s, d, alpha, scout, stand);
    const double alpha0 = alpha;
    double best = -INF;
    int best_move = -1;
    for (int i = 0; i < n; ++i) {
      if (i == rest) sort_by_history(order, history, rest, n);  // (most nodes cut before they get here)
      const int move = moves[order[i]];
      if constexpr (QUIESCENCE) path_[ply] = move;  // (the countermoves' key: only with quiescence)
      double v;
      if (safe_) {
        v = child_score(children[order[i]].state, move, i, d, alpha, beta, ply, reducible_at);
      } else {
        if (futile && i && std::find(loud, loud + n_loud, move) == loud + n_loud && !forcing_move(s, move))
          continue;  // a quiet move that cannot lift the score to alpha
        v = child_score(game_.result(s, move), move, i, d, alpha, beta, ply, reducible_at);
      }
      if (v > best) {
        best = v, best_move = move;
        if (v > alpha) {
          alpha = v;
          pv_.extend(ply, move);
          if (v >= beta) {
            if (i + 1 < n) ++stats_.cutoffs;  // a cut after the last move prunes nothing
            if (ordering_) remember_cutoff(move, ply, d, moves, order, i, loud, n_loud);
            break;
          }
        }
      }
    }
    if (!complete && best < PROVEN) {  // a move left out might do better than these
      ++guesses_;
      best = std::max(best, LIKELY_LOSS);
    }
    if (tt_capacity_) {
      const Flag flag = best <= alpha0 ? TT_UPPER : best >= beta ? TT_LOWER : TT_EXACT;
      store(key, {to_table(best, ply), d, flag, best_move});
    }
    return best;
  }

  // The score, for the mover of the parent at `ply`, of its `i`th child in the search order: the first
  // with the window (alpha, beta), a later one by a null-window scout (reduced by late-move reductions
  // where `quiet`, by place in the order, allows: none without it) and searched again with the window
  // when it lands inside it.
  double child_score(const State& child, int move, int i, int d, double alpha, double beta, int ply,
                     const bool* quiet) {
    if (i == 0) return -negamax(child, d - 1, -beta, -alpha, ply + 1);
    // No reduction once a proven score is in the window: a shallower search could hide the defence
    // against a mate, or the shorter mate.
    const bool scout = beta == std::nextafter(alpha, INF);
    const int reduction =
        quiet && std::fabs(alpha) < PROVEN ? late_move_reduction(move, i, d, scout, child, quiet) : 0;
    double v = -negamax(child, d - 1 - reduction, -std::nextafter(alpha, INF), -alpha, ply + 1);
    if (reduction && v > alpha) v = -negamax(child, d - 1, -std::nextafter(alpha, INF), -alpha, ply + 1);
    if (alpha < v && v < beta) v = -negamax(child, d - 1, -beta, -alpha, ply + 1);
    return v;
  }

  // The search order of a node's moves (indices into `moves`, which lists them in the game's order):
  // the table move, the `loud` noisy moves (with quiescence, in their MVV-LVA order) but those `losing`
  // their exchange, the killers and the countermove (but those), the losing ones, then the rest by history (stable: ties in
  // the game's order), except that safe children keep their threat-score order (better than history,
  // pvs.py measured). Without ordering, only the table move goes first. The rest by history is left to
  // sort_by_history: the rest from place `rest` on (n when nothing is to be sorted) in the game's order,
  // each move's history now (before the moves searched first add to it) at its place in `history`.
  void order_moves(const int* moves, int n, int table_move, int ply, const int* loud, const bool* losing, int n_loud,
                   int* order, int& rest, int64_t* history) const {
    bool placed[G::MAX_MOVES] = {};  // by index into `moves`
    int front = 0;
    auto bring_forward = [&](int move) {
      const int i = int(std::find(moves, moves + n, move) - moves);
      if (i < n && !placed[i]) placed[i] = true, order[front++] = i;
    };
    if (table_move >= 0) bring_forward(table_move);
    for (int i = 0; i < n_loud; ++i)
      if (!losing[i]) bring_forward(loud[i]);
    if (ordering_) {
      auto bring_killer = [&](int killer) {  // (not one that loses its exchange: it comes later)
        if (killer < 0) return;
        if constexpr (QUIESCENCE) {
          const int at = int(std::find(loud, loud + n_loud, killer) - loud);
          if (at < n_loud && losing[at]) return;
        }
        bring_forward(killer);
      };
      bring_killer(killers_[ply][0]), bring_killer(killers_[ply][1]);
      if constexpr (QUIESCENCE) bring_killer(counter(ply));  // (the countermove)
    }
    for (int i = 0; i < n_loud; ++i)
      if (losing[i]) bring_forward(loud[i]);
    const int first = front;
    for (int i = 0; i < n; ++i)
      if (!placed[i]) order[front++] = i;
    if (ordering_ && !safe_) {
      rest = first;
      for (int i = first; i < front; ++i) history[i] = history_.get(moves[order[i]]);
    }
  }

  // order_moves' rest, places `first` to `end` of `order`, sorted by their `history` (the counts when the
  // order was made), the most first: an insertion sort, stable (ties in the game's order). The search sorts
  // when it reaches the rest, which most nodes never do (they cut on an earlier move).
  static void sort_by_history(int* order, int64_t* history, int first, int end) {
    for (int i = first; i < end; ++i) {
      const int index = order[i];
      const int64_t h = history[i];
      int j = i;
      for (; j > first && history[j - 1] < h; --j) order[j] = order[j - 1], history[j] = history[j - 1];
      order[j] = index, history[j] = h;
    }
  }

  // pvs.py's quiesce: the score of non-terminal `s` for its mover at the horizon, fail-soft like negamax.
  // The mover may stand pat on the evaluation or play on through the noisy moves, skipping those whose
  // gain cannot lift the evaluation above alpha (delta pruning) and, with EXCHANGE, those that lose their
  // exchange (computed only for the moves reached: none after a cut); their children are negamax nodes of
  // depth -1, quiescence again. In check at the horizon itself (`first`), no standing pat: every move is
  // searched.
  double quiesce(const State& s, double alpha, double beta, int ply, bool first) {
    double best = -INF;
    int moves[G::MAX_MOVES], n;
    bool screened = false;  // whether a move that loses its exchange is skipped
    if (first && extensions_ && forcing(s)) {
      bool complete;
      n = searched_moves(s, moves, complete);
    } else {
      const double stand = best = game_.evaluate(s, game_.to_move(s));
      if (stand >= beta) return stand;
      if (stand > alpha) alpha = stand;
      NoisyMove noisy[G::MAX_MOVES];
      const int listed = game_.noisy_actions(s, noisy);
      n = 0;
      for (int i = 0; i < listed; ++i)  // (delta pruning)
        if (stand + noisy[i].gain > alpha) moves[n++] = noisy[i].move;
      screened = EXCHANGE;
    }
    for (int i = 0; i < n; ++i) {
      if constexpr (EXCHANGE)
        if (screened && game_.exchange(s, moves[i]) < 0) continue;  // a capture that loses its exchange
      const double v = -negamax(game_.result(s, moves[i]), -1, -beta, -alpha, ply + 1);
      if (v > best) {
        best = v;
        if (v > alpha) {
          alpha = v;
          pv_.extend(ply, moves[i]);
          if (v >= beta) break;
        }
      }
    }
    return best;
  }

  // pvs.py's null_move_score: if the mover, passing, still reaches `beta` in a shallower search, a real
  // move would too (the game allows no pass where zugzwang is likely). The score to cut with (never a
  // proven one: a pass proves nothing), or NaN. `stand`: the node's static evaluation.
  double null_move_score(const State& s, int d, double beta, int ply, StaticEval& stand) {
    if constexpr (NULL_MOVE) {
      if (stand() < beta) return NAN;
      State passed;
      if (!game_.null_move(s, passed)) return NAN;
      path_[ply] = -1;
      const double v = -negamax(passed, d - 1 - NULL_REDUCTION, -beta, std::nextafter(-beta, INF), ply + 1);
      if (v < beta) return NAN;
      return v >= PROVEN ? beta : v;
    }
    return NAN;
  }

  // pvs.py's reducible: whether late-move reductions may reduce moves here (not at shallow depths nor in
  // a forcing state), and in `quiet`, by place in the order, the moves they may reduce: after the first
  // LMR_FIRST, neither noisy nor a killer. (The order's rest, not yet sorted by history, holds neither: the
  // same places are quiet in either order.)
  bool reducible(const State& s, int d, const int* moves, int n, const int* order, int ply, const int* loud,
                 int n_loud, bool* quiet) const {
    if (d < LMR_MIN_DEPTH || n <= LMR_FIRST || (extensions_ && forcing(s))) return false;
    const auto& killers = killers_[ply];
    bool any = false;
    for (int i = 0; i < n; ++i) {
      const int move = moves[order[i]];
      quiet[i] = i >= LMR_FIRST && std::find(loud, loud + n_loud, move) == loud + n_loud && move != killers[0] &&
                 move != killers[1];
      any |= quiet[i];
    }
    return any;
  }

  // negamax.py's late_move_reduction: how many plies shallower the `i`th move `move` (leading to `child`)
  // of a node `d` plies deep is searched first; `scout`: whether the node's window is now a null one.
  int late_move_reduction(int move, int i, int d, bool scout, const State& child, const bool* quiet) const {
    if (i < LMR_FIRST || !quiet[i] || (extensions_ && forcing(child))) return 0;
    int r = int(LMR_BASE + std::log(double(d)) * std::log(double(i)) / LMR_DIVISOR) - !scout;
    r -= int(history_.get(move) / LMR_HISTORY_STEP);
    return std::clamp(r, 0, d - 2);
  }

  // negamax.py's futile: whether the quiet moves after the first may be skipped at a node: a shallow `scout`
  // node, not in check, whose static evaluation (`stand`) stays below alpha by the game's margin for one ply
  // more than is left.
  bool futile(const State& s, int d, double alpha, bool scout, StaticEval& stand) const {
    if constexpr (FUTILITY) {
      if (d > QUIET_FUTILITY_DEPTH || !scout || std::fabs(alpha) >= PROVEN) return false;
      if (extensions_ && forcing(s)) return false;
      return stand() + game_.futility_margin(s) * (d + 1) <= alpha;
    }
    return false;
  }

  // negamax.py's remember_cutoff: a move that cut (the `i`th in `order`) becomes the first killer at `ply`
  // and earns d * d history; with quiescence the history has gravity (credit) and, when the move is quiet
  // (not among the `loud` ones), it becomes the countermove of the move before it (counter) and the quiet
  // moves searched before it lose as much.
  void remember_cutoff(int move, int ply, int d, const int* moves, const int* order, int i, const int* loud,
                       int n_loud) {
    auto& slot = killers_[ply];
    if (slot[0] != move && slot[1] != move) slot = {move, slot[0]};
    const int64_t bonus = int64_t(d) * d;
    if constexpr (QUIESCENCE)
      if (quiescence_) {
        quiet_cutoff_history(move, ply, bonus, moves, order, i, loud, n_loud);
        return;
      }
    history_.add(move, bonus);
  }

  // With quiescence, remember_cutoff's history: gravity (credit) and, for a quiet `move`, the countermove
  // of the move before it and the malus of the quiet moves searched before it.
  void quiet_cutoff_history(int move, int ply, int64_t bonus, const int* moves, const int* order, int i,
                            const int* loud, int n_loud) {
    auto noisy = [&](int a) { return std::find(loud, loud + n_loud, a) != loud + n_loud; };
    credit(move, bonus);
    if (noisy(move)) return;
    if (ply && path_[ply - 1] >= 0) counters_[size_t(move_slot<G>(path_[ply - 1]))] = move;
    for (int j = 0; j < i; ++j)
      if (!noisy(moves[order[j]])) credit(moves[order[j]], -bonus);
  }

  // negamax.py's counter: with quiescence, the quiet move that last refuted the move that led to this node
  // at `ply` (-1 after a pass, at the root, or without one).
  int counter(int ply) const {
    if (!ply || !quiescence_ || path_[ply - 1] < 0) return -1;
    return counters_[size_t(move_slot<G>(path_[ply - 1]))];
  }

  // negamax.py's credit: the history of `move` moved by `bonus`, less the share of it that the value holds
  // of HISTORY_MAX (gravity), with Python's floor division.
  void credit(int move, int64_t bonus) {
    const int64_t h = history_.get(move), product = h * (bonus < 0 ? -bonus : bonus);
    int64_t share = product / HISTORY_MAX;
    if (product % HISTORY_MAX != 0 && product < 0) --share;
    history_.add(move, bonus - share);
  }

  // One pass over the root's moves `d` plies deep, in `ranking` order: each move's score and bound in
  // `scores` (the first multi_pv exact, a later one exact if it beat the multi_pv-th best so far, else an
  // upper bound), the PV in `line` and each move's own in `lines` (empty for a bound). With an aspiration
  // window (lo, hi): false as soon as a move reaches hi, or when no move beats lo, and the caller searches
  // again with the full window.
  bool root_pass(int d, const std::vector<int>& ranking, std::vector<RootScore>& scores, std::vector<int>& line,
                 std::vector<std::vector<int>>& lines, double lo, double hi, int multi_pv) {
    double best = lo;
    std::vector<double> exact;
    guesses_ = 0;
    for (size_t i = 0; i < ranking.size(); ++i) {
      const int a = ranking[i];
      const State child = game_.result(root_, a);
      if constexpr (QUIESCENCE) path_[0] = a;
      const double alpha = std::max(lo, threshold(exact, multi_pv));
      double v;
      if (int(i) < multi_pv) {
        v = -negamax(child, d - 1, -hi, -alpha, 1);
      } else {
        v = -negamax(child, d - 1, -std::nextafter(alpha, INF), -alpha, 1);
        if (v > alpha) v = -negamax(child, d - 1, -hi, -alpha, 1);
      }
      if (v >= hi) return false;
      const bool improved = v > alpha;
      scores.push_back({a, v, improved ? Bound::Exact : Bound::Upper});
      lines.push_back(improved ? pv_.root_line(a) : std::vector<int>{});
      if (improved) {
        exact.push_back(v);
        if (v > best) best = v, line = lines.back();
      }
    }
    if (line.empty()) return false;
    if (tt_capacity_) store(table_key(root_), {to_table(best, 0), d, TT_EXACT, line[0]});
    return true;
  }

  // pvs.py's interrupted: when the deadline stopped a pass (`pass`, `pass_lines`: its scores and lines so
  // far) after the last complete one (`depth`: `scores`, `line`, `lines`), a later move with an exact score
  // beat the pass's first move (the last pass's best, searched with the full window): the last such move is
  // the deeper search's best so far, and is played. Then `line` becomes its line, and the moves the pass
  // searched carry their scores, bounds and lines from it; the depth completed stays. Single line and
  // quiescence only (chess: the one game this was measured in), as the caller checks.
  void interrupted(int depth, const std::vector<RootScore>& pass, const std::vector<std::vector<int>>& pass_lines,
                   std::vector<RootScore>& scores, std::vector<int>& line, std::vector<std::vector<int>>& lines) const {
    size_t better = pass.size();
    while (better > 1 && pass[better - 1].bound != Bound::Exact) --better;
    if (better <= 1) return;
    --better;
    for (size_t i = 0; i < scores.size(); ++i)
      for (size_t j = 0; j < pass.size(); ++j)
        if (pass[j].move == scores[i].move) scores[i] = pass[j], lines[i] = pass_lines[j];
    line = pass_lines[better];
    if (tt_capacity_) line = table_line(line, depth + 1, pass[better].score);
  }

  // Whether the multi_pv best exact scores of a pass are all proven results.
  static bool all_proven(const std::vector<RootScore>& scores, int multi_pv) {
    std::vector<double> top;
    for (const RootScore& rs : scores)
      if (rs.bound == Bound::Exact) top.push_back(rs.score);
    std::sort(top.begin(), top.end(), std::greater<double>());
    if (int(top.size()) > multi_pv) top.resize(size_t(multi_pv));
    return std::all_of(top.begin(), top.end(), [](double s) { return std::fabs(s) >= PROVEN; });
  }

  // pvs.py's pass_lines: the multi_pv best root moves of a pass (ranked by score: the sooner of two wins
  // first), each exact with its own line, and its outcome and distance where its score is a proven result
  // or, when the pass saw the whole game (`ended`), its value's outcome.
  std::vector<Line> lines_of(const std::vector<RootScore>& scores, const std::vector<std::vector<int>>& lines,
                             bool ended, int multi_pv) const {
    std::vector<MoveValue> by_score;
    for (const RootScore& rs : scores) by_score.push_back({rs.move, rs.score, rs.bound});
    std::vector<Line> out;
    for (size_t i : ranked(by_score, multi_pv)) {
      const double score = scores[i].score, value = as_value(score, G::OUTCOME_GAME);
      Line l{scores[i].move, value, scores[i].bound, lines[i], "", -1};
      if (G::OUTCOME_GAME && std::fabs(score) >= PROVEN) {
        l.outcome = outcome_of(score), l.plies_to_end = int(WIN - std::fabs(score));
      } else if (ended) {
        l.outcome = outcome_of(value), l.plies_to_end = draw_length(lines[i]);
      }
      out.push_back(l);
    }
    return out;
  }

  // pvs.py's prove_win, the mate search: the shortest forced win for the mover in at most MATE_MAX_MOVES
  // of its moves, within MATE_SHARE of the time (true, with the root's scores, the winning move's last,
  // and the line), or false. For n = 1, 2, ... a null-window pass asks whether some root move wins within
  // 2n - 1 plies, full-width (no null moves, reductions or quiescence), so that a win it finds is proven
  // and, every shorter n having failed, the shortest.
  bool prove_win(const std::vector<int>& ranking, std::vector<RootScore>& scores, std::vector<int>& line) {
    const bool quiescence = quiescence_, null_move = null_move_, reductions = reductions_, futility = futility_;
    quiescence_ = null_move_ = reductions_ = futility_ = false;
    const Budget share = budget_.share(MATE_SHARE);
    clock_ = &share;
    bool found = false;
    try {
      std::vector<State> children;
      for (int a : ranking) children.push_back(game_.result(root_, a));
      for (int n = 1; n <= MATE_MAX_MOVES && !found; ++n) {
        horizon_ = 2 * n - 1;
        found = win_pass(horizon_, ranking, children, scores, line);
      }
    } catch (Timeout&) {
    }
    quiescence_ = quiescence, null_move_ = null_move, reductions_ = reductions, futility_ = futility;
    clock_ = &budget_;
    return found;
  }

  // pvs.py's win_pass: whether a root move wins within `d` plies; the scores of the moves tried (upper
  // bounds: at best a win two plies later) and the winner's exact one last, and the line.
  bool win_pass(int d, const std::vector<int>& ranking, const std::vector<State>& children,
                std::vector<RootScore>& scores, std::vector<int>& line) {
    const double lo = WIN - d - 0.5, hi = std::nextafter(lo, INF);
    scores.clear();
    for (size_t i = 0; i < ranking.size(); ++i) {
      const double v = -negamax(children[i], d - 1, -hi, -lo, 1);
      if (v > lo) {
        scores.push_back({ranking[i], WIN - d, Bound::Exact});
        line = table_line(pv_.root_line(ranking[i]), d, WIN - d);
        return true;
      }
      scores.push_back({ranking[i], std::min(v, WIN - d - 2), Bound::Upper});
    }
    return false;
  }

  // The principal variation, completed from the table where a table cut-off or the horizon left it
  // short: to the end of a proven result, else to the iteration's depth.
  // Store an entry as pvs.py stores it in its dict (cleared once it holds tt_capacity_ entries), stopping
  // the search first where the table's growing or clearing, which cannot poll, would overrun the budget.
  void store(uint64_t key, const Entry& entry) {
    if (int64_t(tt_.size()) >= tt_capacity_) {
      clock_->check_room(double(tt_.slots()) * TABLE_CLEAR_SECONDS_PER_SLOT);
      tt_.clear();
    } else if (tt_.grows_next()) {
      clock_->check_room(double(tt_.size()) * TABLE_GROW_SECONDS_PER_ENTRY);
    }
    tt_.store(key, entry, clock_);
  }

  std::vector<int> table_line(std::vector<int> line, int d, double score) const {
    const size_t length = G::OUTCOME_GAME && std::fabs(score) >= PROVEN ? size_t(WIN - std::fabs(score)) : size_t(d);
    State s = root_;
    for (int a : line) s = game_.result(s, a);
    while (line.size() < length && !game_.is_terminal(s)) {
      const Entry* hit = tt_.find(table_key(s));
      if (hit == nullptr || hit->move < 0) break;
      line.push_back(hit->move);
      s = game_.result(s, hit->move);
    }
    return line;
  }

  // The moves a node searches, in `out`, and their number: the game's candidates when it prunes, else
  // every move (ordered with ordering); `complete`: whether they are every move that matters.
  int searched_moves(const State& s, int* out, bool& complete) const {
    complete = true;
    if constexpr (has_candidate_actions<G>::value)
      if (pruning_) return game_.candidate_actions(s, out, complete);
    return ordering_ ? game_.ordered_actions(s, out) : game_.actions(s, out);
  }

  // The root's moves in search order and whether they are all of them (searched_moves); where the request
  // restricts them (allowed_root), those alone, in the order without forward pruning, and complete
  // (pvs.py's root_ranking).
  int root_ranking(int* out, bool& complete) const {
    if (request_.root_moves.empty()) return searched_moves(root_, out, complete);
    complete = true;
    return allowed_root(game_, root_, request_, out, ordering_ ? game_.ordered_actions(root_, out) : game_.actions(root_, out));
  }

  // The moves a node searches (searched_moves) and, with quiescence and ordering, its `n_noisy` noisy moves
  // in `noisy`: from one generation of the moves where the game lists both at once.
  int expanded_moves(const State& s, int* out, bool& complete, NoisyMove* noisy, int& n_noisy) const {
    n_noisy = 0;
    if constexpr (QUIESCENCE)
      if (quiescence_ && ordering_) {
        if constexpr (has_ordered_and_noisy_actions<G>::value)
          if (!pruning_) {
            complete = true;
            return game_.ordered_and_noisy_actions(s, out, noisy, n_noisy);
          }
        n_noisy = game_.noisy_actions(s, noisy);
      }
    return searched_moves(s, out, complete);
  }

  // The transposition table's key of `s`: the game's table_key where it has one (pvs.py's key_of).
  uint64_t table_key(const State& s) const {
    if constexpr (has_table_key<G>::value) return game_.table_key(s);
    else return game_.key(s);
  }

  bool forcing(const State& s) const {
    if constexpr (has_forcing<G>::value) return game_.forcing(s);
    return false;
  }

  // Whether `move` leads to a forcing state: the game's forcing_move where it has one (without making the
  // move), else forcing of the child.
  bool forcing_move(const State& s, int move) const {
    if constexpr (has_forcing_move<G>::value) return game_.forcing_move(s, move);
    return forcing(game_.result(s, move));
  }

  // pvs.py's threat_phase: the mover's forced win by threats (its line), looked for within WIN_SHARE of the
  // time left; else, when the opponent has one and some moves may stop it (looked for within
  // DEFENCE_SHARE), `ranking` restricted to those (the ranked ones first, then the others in the game's
  // order) and no longer complete. A phase that runs out of time finds nothing.
  std::optional<std::vector<int>> threat_phase(std::vector<int>& ranking, bool& complete) {
    if constexpr (has_threat_search<G>::value) {
      try {
        if (auto line = game_.threat_win(root_, budget_.share(WIN_SHARE), stats_)) return line;
      } catch (Timeout&) {
      }
      std::optional<std::vector<int>> defences;
      try {
        defences = game_.threat_defences(root_, budget_.share(DEFENCE_SHARE), stats_);
      } catch (Timeout&) {
      }
      if (defences && !defences->empty()) {
        auto among = [](const std::vector<int>& v, int a) { return std::find(v.begin(), v.end(), a) != v.end(); };
        std::vector<int> kept;
        for (int a : ranking)
          if (among(*defences, a)) kept.push_back(a);
        for (int a : *defences)
          if (!among(ranking, a)) kept.push_back(a);
        ranking = kept, complete = false;
      }
    }
    return std::nullopt;
  }

  // Plies to the end of a proven draw: along the line when it reaches the end, else the game's bound.
  int draw_length(const std::vector<int>& line) const {
    State s = root_;
    for (int a : line) s = game_.result(s, a);
    return game_.is_terminal(s) ? int(line.size()) : game_.plies_bound(root_);
  }

  const G& game_;
  const State root_;
  const Request& request_;
  const Budget& budget_;
  const bool ordering_, safe_, pruning_, extensions_, threats_;
  bool quiescence_, null_move_, reductions_, futility_;  // (off during the mate search)
  const Budget* clock_ = &budget_;            // what the nodes poll: the mate search's share, or the whole
  const int64_t tt_capacity_;
  DictTable<Entry> tt_;
  PvTable pv_;
  std::vector<std::array<int, 2>> killers_;  // by ply, the latest first
  MoveCounts<G> history_;                    // by move
  std::vector<int> counters_;                // with quiescence, by move slot: the quiet move that refuted it (or -1)
  std::vector<int> path_;                    // by ply: the move being searched there (-1: a pass)
  Stats stats_;
  int64_t guesses_ = 0;  // nodes of the current pass valued by anything but the rules (horizon, table, pruning)
  int horizon_ = 0;      // the current iteration's depth (the extensions' cap)
};

template <class G>
Result pvs(const G& game, const typename G::State& s, const Request& request, const Budget& budget) {
  return Pvs<G>(game, s, request, budget).run();
}

}  // namespace tactician
