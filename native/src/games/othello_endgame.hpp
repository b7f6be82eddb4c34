// Othello's exact endgame solver: engine/games/othello/endgame.py step for step, so that a position it
// solves gets the same score, principal variation, root moves and node counts as Python's. The final disc
// difference with perfect play, empty squares going to the winner (the score of the FFO test sets):
//
// - a negamax principal-variation search to the end on the two bitboards, fail-soft, null windows of one
//   (scores are even);
// - fastest first with ORDER_MIN_EMPTIES or more empty squares: the opponent's mobility after each move
//   (a corner reply counting twice), corners first, parity breaking ties; below, parity alone (the moves
//   in quadrants with an odd number of empty squares first);
// - a table of proven bounds and the best move (DictTable, cleared once it holds tt_capacity entries as
//   Python clears its dict) with TABLE_MIN_EMPTIES or more, enhanced transposition cut-offs with
//   ETC_MIN_EMPTIES or more;
// - with SHALLOW_EMPTIES or fewer, no move generation (after Edax): each empty square is tried for flips,
//   the last one played out directly.
//
// Beyond Python's reach (PYTHON_REACH empty squares, where only this solver runs) the node counts are its
// own; the scores, best moves and lines are the same. There, after Edax:
// - the root is searched by null-window probes (MTD(f)) rather than a full window; the other root moves
//   keep the upper bounds the probes proved;
// - the moves are ordered by Edax's fast criteria (a wipe-out first, then the fewest replies, our stable
//   corner discs, the opponent's potential mobility, the square), and with EVAL_ORDER_EMPTIES or more
//   empty squares by the evaluation as well, searched one ply;
// - a stability cut-off: the opponent's stable discs bound the score;
// - the table is a fixed array (SolverTable), not a dict cleared when full, each position with two slots:
//   the first keeps the entry with more empty squares, the second takes the rest; BEYOND_TABLE_MIN_EMPTIES
//   or more.
// On the FFO positions #22-#37 (17-22 empty squares) these halve the nodes, and solve #38 and #39 (24 and
// 26 empty squares) within 30 s (bench/RESULTS.md, Othello).
#pragma once

#include <algorithm>
#include <optional>
#include <type_traits>
#include <vector>

#include "games/othello.hpp"
#include "search/table.hpp"

namespace tactician {

namespace othello {

constexpr int SHALLOW_EMPTIES = 5, ORDER_MIN_EMPTIES = 6, TABLE_MIN_EMPTIES = 6, ETC_MIN_EMPTIES = 7;
// Beyond Python's reach: the table from BEYOND_TABLE_MIN_EMPTIES (fewer stores of cheap positions that
// would push out costly ones), the evaluation searched one ply in the order from EVAL_ORDER_EMPTIES,
// EVAL_ORDER_WEIGHT to one reply less (tuned on FFO #22-#39).
constexpr int BEYOND_TABLE_MIN_EMPTIES = 7, EVAL_ORDER_EMPTIES = 14;
constexpr int EVAL_ORDER_WEIGHT = 256;
// The most empty squares the solver takes on (Python's REACH is 16): SHORT_REACH with less than
// LONG_REACH_SECONDS left, else LONG_REACH. The compiled solver visits the same nodes some 80 times faster
// (per CPU second) and, beyond Python's reach, fewer of them: 18 empty squares take about a tenth of a
// second of CPU, the FFO positions with 20-22 from 0.2 to 3 s, #38 (24) 7-10 s and #39 (26, a wipe-out)
// under 1 s (bench/RESULTS.md, Othello).
constexpr int SHORT_REACH = 18, LONG_REACH = 26;
constexpr double LONG_REACH_SECONDS = 2.0;
// Python's reach: roots with more empty squares are searched by null-window probes (solve_by_probes),
// roots within it as Python searches them, node for node.
constexpr int PYTHON_REACH = 16;
constexpr uint64_t QUADRANTS[4] = {0x0F0F0F0Full, 0xF0F0F0F0ull, 0x0F0F0F0Full << 32, 0xF0F0F0F0ull << 32};
constexpr int NONE = 100;  // no bound: an infinity among the scores (|score| <= 64)

// Beyond Python's reach, a stability cut-off (after Edax): the opponent's stable discs stay theirs, so the
// score is at most 64 - 2 * their number; worth computing only where alpha is high enough to be cut, at
// least STABILITY_ALPHA[n] with n empty squares (Edax's NWS_STABILITY_THRESHOLD).
constexpr int STABILITY_ALPHA[65] = {99, 99, 99, 99, 6,  8,  10, 12, 14, 16, 20, 22, 24, 26, 28, 30, 32,
                                     34, 36, 38, 40, 42, 44, 46, 48, 48, 50, 50, 52, 52, 54, 54, 56, 56,
                                     58, 58, 60, 60, 62, 62, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64,
                                     64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64};

// The most the player to move with the opponent's discs `them` can score: 64 less twice their stable discs.
inline int stability_ceiling(uint64_t me, uint64_t them) {
  uint64_t full[4];
  full_lines(me | them, full);
  return 64 - 2 * popcount(stable_discs(them, full));
}

// The squares' order beyond Python's reach (Edax's SQUARE_VALUE, after Jean-Christophe Weill): corners,
// then A-squares and the like; X-squares last.
constexpr int SQUARE_VALUE[64] = {18, 4,  16, 12, 12, 16, 4,  18, 4,  2,  6,  8,  8,  6,  2,  4,
                                  16, 6,  14, 10, 10, 14, 6,  16, 12, 8,  10, 0,  0,  10, 8,  12,
                                  12, 8,  10, 0,  0,  10, 8,  12, 16, 6,  14, 10, 10, 14, 6,  16,
                                  4,  2,  6,  8,  8,  6,  2,  4,  18, 4,  16, 12, 12, 16, 4,  18};

// The discs of `discs` on a corner or on an edge square next to a corner they hold (Edax's corner
// stability).
inline int corner_stability(uint64_t discs) {
  const uint64_t stable = (((0x0100000000000001ull & discs) << 1) | ((0x8000000000000080ull & discs) >> 1) |
                           ((0x0000000000000081ull & discs) << 8) | ((0x8100000000000000ull & discs) >> 8) |
                           0x8100000000000081ull) &
                          discs;
  return popcount(stable);
}

// The empty squares of the quadrants that hold an odd number of them.
inline uint64_t odd_regions(uint64_t empty) {
  uint64_t odd = 0;
  for (uint64_t quadrant : QUADRANTS)
    if (popcount(empty & quadrant) & 1) odd |= empty & quadrant;
  return odd;
}

// A table entry: the proven bounds of a position and the best move found there.
struct EndgameEntry {
  uint64_t me, them;  // the full position (the table's key is a hash of it)
  int8_t low, high, move;
};

// The solver with its table: DictTable (Python's dict, cleared once it holds tt_capacity entries: the same
// nodes as Python) within Python's reach; beyond it, SolverTable (a fixed array of about tt_capacity slots,
// the newer entry replacing the older), because clearing everything every so often costs a long solve most
// of what it learnt.
template <class Table>
class EndgameSolver {
  using Entry = EndgameEntry;
  static constexpr bool DICT = std::is_same_v<Table, DictTable<Entry>>;

 public:
  EndgameSolver(const Budget& budget, bool ordering, int64_t tt_capacity, Stats& stats)
      : budget_(budget), ordering_(ordering), tt_capacity_(tt_capacity), stats_(stats), tt_(make_table(tt_capacity)) {}

  // The solution for `me` to move against `them` (empty squares within reach); throws Timeout.
  Solution solve(uint64_t me, uint64_t them) {
    Solution solution;
    ++stats_.nodes;
    const uint64_t legal = legal_moves(me, them);
    if (legal && popcount(~(me | them)) > PYTHON_REACH) {
      solve_by_probes(me, them, legal, solution);
    } else if (!legal) {  // the root player must pass
      solution.score = -negamax(them, me, 0, false, -NONE, NONE, 1);
      solution.moves.push_back({PASS, double(solution.score), Bound::Exact});
    } else {
      const uint64_t empty = ~(me | them);
      Child children[32];
      const int n = children_of(me, them, legal, empty, popcount(empty), -1, children);
      int alpha = -NONE;
      for (int i = 0; i < n; ++i) {
        Child& c = build(children[i], me, them);
        int v;
        if (i == 0) {
          v = -negamax(c.me, c.them, c.replies, c.known, -NONE, NONE, 1);
        } else {
          v = -negamax(c.me, c.them, c.replies, c.known, -alpha - 1, -alpha, 1);
          if (v > alpha) v = -negamax(c.me, c.them, c.replies, c.known, -NONE, NONE, 1);
        }
        solution.moves.push_back({c.square, double(v), i == 0 || v > alpha ? Bound::Exact : Bound::Upper});
        alpha = std::max(alpha, v);
      }
      solution.score = alpha;
      std::stable_sort(solution.moves.begin(), solution.moves.end(), [&](const MoveValue& a, const MoveValue& b) {
        return best_first(a, alpha) && !best_first(b, alpha);
      });
    }
    solution.pv = principal_variation(me, them, solution.score);
    return solution;
  }

 private:
  // The root beyond Python's reach: the score by null-window probes over the even scores, each next to
  // the bound the last one proved (MTD(f); each a pass over the moves that stops at the first to prove the
  // probe's bound, which then goes first), then each other move against a window around the score (exact when it keeps the score, else
  // an upper bound). Full windows, as Python's root searches its first move, cost far more there.
  void solve_by_probes(uint64_t me, uint64_t them, uint64_t legal, Solution& solution) {
    const uint64_t empty = ~(me | them);
    Child children[32];
    const int n = children_of(me, them, legal, empty, popcount(empty), -1, children);
    int ceiling[32];  // per move, the least upper bound the probes proved on its score (even)
    std::fill(ceiling, ceiling + n, 64);
    int low = -64, high = 64, g = 0;  // the score lies in [low, high]; the first probe asks whether it is above 0
    while (low < high) {
      g = std::min(std::max(g, low), high - 2);  // is the score above g (at least g + 2)?
      bool above = false;
      for (int i = 0; i < n && !above; ++i) {
        Child& c = build(children[i], me, them);
        const int v = -negamax(c.me, c.them, c.replies, c.known, -(g + 2), -(g + 1), 1);
        if (v > g + 1) {  // (a bound may be odd: the score beyond it is even)
          low = v + (v & 1), above = true;
          std::rotate(children, children + i, children + i + 1);
          std::rotate(ceiling, ceiling + i, ceiling + i + 1);
        } else {
          ceiling[i] = std::min(ceiling[i], v - (v & 1));
        }
      }
      if (!above) high = *std::max_element(ceiling, ceiling + n);
      g = above ? low : high - 2;  // the next probe next to the bound just proven (MTD(f), with fail-soft jumps)
    }
    solution.score = low;
    solution.moves.push_back({children[0].square, double(low), Bound::Exact});
    for (int i = 1; i < n; ++i) solution.moves.push_back({children[i].square, double(ceiling[i]), Bound::Upper});
  }

  // A move to search: its square and, once built, its child (the discs after it, the opponent to move)
  // with the child's legal squares when the ordering computed them (`known`).
  struct Child {
    int square;
    bool built;
    uint64_t me, them, replies;
    bool known;
  };

  static Table make_table(int64_t capacity) {
    if constexpr (DICT)
      return Table();
    else
      return Table(capacity);
  }

  static bool best_first(const MoveValue& m, int score) { return m.bound == Bound::Exact && m.value == score; }
  static uint64_t key_of(uint64_t me, uint64_t them) { return position_hash(me, them, 0); }
  // Beyond Python's reach a position has two slots (after Edax): the first keeps the entry with the most
  // empty squares (the costliest to find again), the second takes any entry the first declines.
  static uint64_t second_key(uint64_t key) { return key ^ 0x5555555555555555ull; }
  const Entry* find(uint64_t me, uint64_t them) const {
    if (tt_capacity_ <= 0) return nullptr;
    const uint64_t key = key_of(me, them);
    const Entry* e = tt_.find(key);
    if constexpr (!DICT)
      if (e == nullptr || e->me != me || e->them != them) e = tt_.find(second_key(key));
    return e != nullptr && e->me == me && e->them == them ? e : nullptr;
  }
  void store(uint64_t me, uint64_t them, const Entry& entry) {
    const uint64_t key = key_of(me, them);
    if constexpr (!DICT) {
      const Entry* first = tt_.occupant(key);
      if (first != nullptr && !(first->me == me && first->them == them) &&
          popcount(~(first->me | first->them)) > popcount(~(me | them))) {
        tt_.store(second_key(key), entry);
        return;
      }
    }
    tt_.store(key, entry);
  }

  Child& build(Child& c, uint64_t me, uint64_t them) const {
    if (!c.built) {
      const uint64_t f = flips(me, them, c.square);
      c.me = them ^ f, c.them = me | f | uint64_t(1) << c.square, c.built = true, c.known = false;
    }
    return c;
  }

  // The squares of `squares` in natural order, or with ordering, those in odd regions first; their number.
  int parity_order(uint64_t squares, uint64_t empty, Child* out) const {
    int n = 0;
    const uint64_t odd = ordering_ ? odd_regions(empty) : 0;
    for (uint64_t b = squares & odd; b; b &= b - 1) out[n++] = {lowest(b), false, 0, 0, 0, false};
    for (uint64_t b = squares & ~odd; b; b &= b - 1) out[n++] = {lowest(b), false, 0, 0, 0, false};
    return n;
  }

  // A move's rank beyond Python's reach, after Edax's fast ordering (the lower, the earlier): a wipe-out
  // first, then the fewest replies (a corner counting twice), the most of our discs made stable on the
  // corners and edges, the fewest empty squares next to our discs (the opponent's potential mobility), the
  // better square, and with fewer than 12 empty squares, an odd region.
  static int edax_rank(const Child& c, int square, bool odd) {
    if (!c.me) return -(1 << 30);
    const uint64_t empty = ~(c.me | c.them);
    const int weighted_mobility = popcount(c.replies) + popcount(c.replies & CORNERS);
    // (Products, not shifts: a left shift of a negative number is undefined in C++17; the same values.)
    return -((36 - weighted_mobility) * (1 << 15) + (corner_stability(c.them) << 11) +
             (36 - popcount(neighbours(c.them) & empty)) * (1 << 5) + SQUARE_VALUE[square] + (odd ? 256 : 0));
  }

  // The evaluation of `me` to move (legal squares `legal`) searched `depth` plies by fail-soft alpha-beta
  // (a finished game: 1000 a disc), each position a node. Only for ordering: never a score.
  static constexpr double NO_EVAL = 1e9;
  double eval_search(uint64_t me, uint64_t them, uint64_t legal, int depth, double alpha, double beta) {
    ++stats_.nodes;
    if (depth == 0) return evaluate_for_mover(me, them, legal);
    if (!legal) {
      const uint64_t replies = legal_moves(them, me);
      if (!replies) return 1000.0 * final_score(me, them);
      return -eval_search(them, me, replies, depth - 1, -beta, -alpha);
    }
    double best = -NO_EVAL;
    for (uint64_t b = legal; b; b &= b - 1) {
      const int s = lowest(b);
      const uint64_t f = flips(me, them, s);
      const uint64_t cme = them ^ f, cthem = me | f | uint64_t(1) << s;
      const double v = -eval_search(cme, cthem, legal_moves(cme, cthem), depth - 1, -beta, -alpha);
      if (v > best) {
        best = v;
        if (v > alpha) {
          alpha = v;
          if (v >= beta) break;
        }
      }
    }
    return best;
  }
  // The evaluation's part of a move's rank (the opponent's best evaluation a reply later), on the scale of
  // edax_rank.
  int eval_rank(const Child& c) {
    const double v = eval_search(c.me, c.them, c.replies, 1, -NO_EVAL, NO_EVAL);
    return int(std::clamp(v, -500.0, 500.0) * EVAL_ORDER_WEIGHT) * (1 << 11);  // (negative: no shift)
  }

  // The moves of `legal` in search order, `first` (the table's move, -1: none) first: fastest first
  // (children built, with their legal squares) with ordering and enough empty squares, else parity order
  // (children built when searched).
  int children_of(uint64_t me, uint64_t them, uint64_t legal, uint64_t empty, int n_empty, int first,
                  Child* out) {
    int n;
    if (ordering_ && n_empty >= ORDER_MIN_EMPTIES) {
      const uint64_t odd = odd_regions(empty);
      int rank[32];
      n = 0;
      for (uint64_t b = legal; b; b &= b - 1) {
        const int s = lowest(b);
        const uint64_t bit = uint64_t(1) << s, f = flips(me, them, s);
        Child c{s, true, them ^ f, me | f | bit, 0, true};
        c.replies = legal_moves(c.me, c.them);
        if constexpr (DICT)
          rank[n] = 4 * (popcount(c.replies) + popcount(c.replies & CORNERS)) - (bit & CORNERS ? 8 : 0) -
                    (bit & odd ? 1 : 0);
        else
          rank[n] = edax_rank(c, s, bit & odd && n_empty < 12) + (n_empty >= EVAL_ORDER_EMPTIES ? eval_rank(c) : 0);
        out[n++] = c;
      }
      for (int i = 1; i < n; ++i) {  // insertion sort by rank, stable (ties by square)
        Child c = out[i];
        int r = rank[i], j = i;
        for (; j > 0 && rank[j - 1] > r; --j) out[j] = out[j - 1], rank[j] = rank[j - 1];
        out[j] = c, rank[j] = r;
      }
    } else {
      n = parity_order(legal, empty, out);
    }
    if (first >= 0)
      for (int i = 0; i < n; ++i)
        if (out[i].square == first) {
          std::rotate(out, out + i, out + i + 1);
          break;
        }
    return n;
  }

  size_t table_slots() const {
    if constexpr (DICT)
      return tt_.slots();
    else
      return 0;
  }

  void visit(int ply) {
    if ((++stats_.nodes & (Budget::CHECK_EVERY - 1)) == 0)
      budget_.check_room(DICT ? double(table_slots()) * TABLE_FREE_SECONDS_PER_SLOT : 0.0);
    if (ply > stats_.max_depth) stats_.max_depth = ply;
  }

  // The final score for `me`, to move, when `square` is the only empty one.
  int last_square(uint64_t me, uint64_t them, int square) {
    ++stats_.nodes, ++stats_.leaves;
    uint64_t f = flips(me, them, square);
    if (f) return 2 * (popcount(me) + popcount(f)) - 62;
    f = flips(them, me, square);
    if (f) return 62 - 2 * (popcount(them) + popcount(f));
    return final_score(me, them);
  }

  // negamax with at most SHALLOW_EMPTIES empty squares `empty` (`n` of them): no move generation, no
  // table; `passed`: the opponent has just passed.
  int shallow(uint64_t me, uint64_t them, uint64_t empty, int n, int alpha, int beta, int ply, bool passed) {
    if (n == 1) {
      const int square = 63 - __builtin_clzll(empty);
      if (passed && !flips(me, them, square)) {
        ++stats_.nodes, ++stats_.leaves;
        return final_score(me, them);
      }
      return last_square(me, them, square);
    }
    visit(ply);
    int best = -NONE;
    const uint64_t odd = n > 3 && ordering_ ? odd_regions(empty) : 0;
    const uint64_t parts[2] = {empty & odd, empty & ~odd};
    for (int k = 0; k < 2; ++k)
      for (uint64_t b = parts[k]; b; b &= b - 1) {
        const int s = lowest(b);
        const uint64_t f = flips(me, them, s);
        if (!f) continue;
        const uint64_t bit = uint64_t(1) << s;
        const int v = -shallow(them ^ f, me | f | bit, empty ^ bit, n - 1, -beta, -alpha, ply + 1, false);
        if (v > best) {
          best = v;
          if (v > alpha) {
            alpha = v;
            if (v >= beta) {  // counted when a legal square is left unsearched (endgame.py's shallow)
              if (legal_moves(me, them) & ((b & (b - 1)) | (k == 0 ? parts[1] : 0))) ++stats_.cutoffs;
              return v;
            }
          }
        }
      }
    if (best == -NONE) {  // no move: a pass, or the end
      if (passed) {
        ++stats_.leaves;
        return final_score(me, them);
      }
      return -shallow(them, me, empty, n, -beta, -alpha, ply + 1, true);
    }
    return best;
  }

  // The final disc difference for `me`, to move, whose legal squares are `legal` when `known`, fail-soft
  // in (alpha, beta). A pass is a node of its own (one ply).
  int negamax(uint64_t me, uint64_t them, uint64_t legal, bool known, int alpha, int beta, int ply) {
    const uint64_t empty = ~(me | them);
    const int n = popcount(empty);
    if (n <= SHALLOW_EMPTIES) return n ? shallow(me, them, empty, n, alpha, beta, ply, false) : final_score(me, them);
    visit(ply);
    if (!known) legal = legal_moves(me, them);
    if (!legal) {
      const uint64_t replies = legal_moves(them, me);
      if (replies) return -negamax(them, me, replies, true, -beta, -alpha, ply + 1);
      ++stats_.leaves;
      return final_score(me, them);
    }
    if constexpr (!DICT)
      if (alpha >= STABILITY_ALPHA[n])
        if (const int ceiling = stability_ceiling(me, them); ceiling <= alpha) {
          ++stats_.cutoffs;
          return ceiling;
        }
    const bool tabled = tt_capacity_ > 0 && n >= (DICT ? TABLE_MIN_EMPTIES : BEYOND_TABLE_MIN_EMPTIES);
    std::optional<Entry> hit;
    int first = -1;
    if (tabled)
      if (const Entry* e = find(me, them)) {
        hit = *e;
        ++stats_.tt_hits;
        first = e->move;
        if (e->low >= beta) return e->low;
        if (e->high <= alpha) return e->high;
        alpha = std::max(alpha, int(e->low));
        beta = std::min(beta, int(e->high));
        if (alpha >= beta) return alpha;
      }
    const int alpha0 = alpha;
    int best = -NONE, best_move = -1;
    Child children[32];
    const int count = children_of(me, them, legal, empty, n, first, children);
    if (tabled && ordering_ && n >= ETC_MIN_EMPTIES)
      for (int i = 0; i < count; ++i)  // a child whose entry already refutes the reply cuts at once
        if (const Entry* e = find(children[i].me, children[i].them); e != nullptr && -e->high >= beta) {
          ++stats_.tt_hits;
          if (count > 1) ++stats_.cutoffs;  // a lone child's entry prunes nothing
          return -e->high;
        }
    for (int i = 0; i < count; ++i) {
      Child& c = build(children[i], me, them);
      int v;
      if (i == 0) {
        v = -negamax(c.me, c.them, c.replies, c.known, -beta, -alpha, ply + 1);
      } else {
        v = -negamax(c.me, c.them, c.replies, c.known, -alpha - 1, -alpha, ply + 1);
        if (alpha < v && v < beta) v = -negamax(c.me, c.them, c.replies, c.known, -beta, -v, ply + 1);
      }
      if (v > best) {
        best = v, best_move = c.square;
        if (v > alpha) {
          alpha = v;
          if (v >= beta) {
            if (i + 1 < count) ++stats_.cutoffs;  // a cut after the last child prunes nothing
            break;
          }
        }
      }
    }
    if (tabled) {
      if constexpr (DICT) {
        if (int64_t(tt_.size()) >= tt_capacity_) {
          budget_.check_room(double(tt_.slots()) * TABLE_CLEAR_SECONDS_PER_SLOT);
          tt_.clear();
        } else if (tt_.grows_next()) {
          budget_.check_room(double(tt_.size()) * TABLE_GROW_SECONDS_PER_ENTRY);
        }
      }
      int low = hit ? hit->low : -NONE, high = hit ? hit->high : NONE;
      if (best > alpha0) low = best;
      if (best < beta) high = best;
      store(me, them, {me, them, int8_t(low), int8_t(high), int8_t(best_move)});
    }
    return best;
  }

  // A perfect line from the root, whose score for `me` is `score`: at each position, the first move (in
  // search order) whose child a window around the expected score proves to keep it.
  std::vector<int> principal_variation(uint64_t me, uint64_t them, int score) {
    std::vector<int> line;
    for (int ply = 0;; ++ply) {
      const uint64_t legal = legal_moves(me, them);
      if (!legal) {
        if (!legal_moves(them, me)) return line;
        line.push_back(PASS);
        std::swap(me, them);
        score = -score;
        continue;
      }
      const uint64_t empty = ~(me | them);
      const Entry* hit = find(me, them);
      Child children[32];
      const int n = children_of(me, them, legal, empty, popcount(empty), hit ? hit->move : -1, children);
      Child* chosen = nullptr;
      for (int i = 0; i < n; ++i) {
        chosen = &build(children[i], me, them);
        if (negamax(chosen->me, chosen->them, chosen->replies, chosen->known, -score - 1, -score + 1, ply + 1) == -score)
          break;
      }
      line.push_back(chosen->square);
      me = chosen->me, them = chosen->them, score = -score;
    }
  }

  const Budget& budget_;
  const bool ordering_;
  const int64_t tt_capacity_;
  Stats& stats_;
  Table tt_;
};

}  // namespace othello

// The solution of `s` for the player to move, or nothing beyond the solver's reach (see SHORT_REACH).
inline std::optional<Solution> Othello::solve_endgame(const State& s, const Budget& budget, bool ordering,
                                                      int64_t tt_capacity, Stats& stats) const {
  const int empties = othello::popcount(~(s.me | s.them));
  const int reach = budget.remaining() < othello::LONG_REACH_SECONDS ? othello::SHORT_REACH : othello::LONG_REACH;
  if (empties > reach) return std::nullopt;
  if (empties > othello::PYTHON_REACH)
    return othello::EndgameSolver<SolverTable<othello::EndgameEntry>>(budget, ordering, tt_capacity, stats)
        .solve(s.me, s.them);
  return othello::EndgameSolver<DictTable<othello::EndgameEntry>>(budget, ordering, tt_capacity, stats)
      .solve(s.me, s.them);
}

}  // namespace tactician
