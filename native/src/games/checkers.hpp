// English checkers on bitboards: the rules of engine/games/checkers/ and the knowledge of its Checkers
// game (ordering, the quiescent evaluation, the two-kings table of checkers/kings.py), bit for bit.
//
// Boards use Python's "ghost square" layout: square n (1-32, row r) is bit n - 1 + r / 2 of a 35-bit board,
// so that a diagonal step is a shift by 4 or 5 (down the board: to higher bits) and a jump by 8 or 10; a
// shift off the board lands on an unused bit (8, 17, 26) or beyond, never on a square.
//
// A move is an int that names it without the position (the bridge's from_native_move reads it): bits 0-4
// the starting square's index (0-31), bit 5 set for a capture, and from bit 6 the directions of its steps or
// jumps, two bits each (0: up by 5, 1: up by 4, 2: down by 4, 3: down by 5), the first lowest, under a
// sentinel bit. A capture takes at most 12 pieces, so every code is below 2^31.
//
// A state holds the position, the plies counted towards the no-progress draw (Python's len(history)), and
// of the history only what can still matter: the "tail", the earlier positions with the current men (only
// those can come back; men never move back), each as its kings (Black's in the low 32 bits, White's in the
// high, dense square indices), their turns following from their distance. The draw options travel with
// the game (Checkers), as in Python.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <vector>

#include "search/game.hpp"
#include "search/random.hpp"

namespace tactician {

namespace checkers {

constexpr int BLACK = 0, WHITE = 1;
constexpr int MAX_TAIL = 128;   // the longest tail a state holds: the no-progress limits up to it run natively

inline int popcount(uint64_t b) { return __builtin_popcountll(b); }

constexpr int bit_index(int square) { return square - 1 + ((square - 1) / 4) / 2; }
constexpr uint64_t bit_of(int square) { return uint64_t(1) << bit_index(square); }
constexpr int row_of(int square) { return (square - 1) / 4; }
constexpr int col_of(int square) { return 2 * ((square - 1) % 4) + (row_of(square) % 2 == 0 ? 1 : 0); }

constexpr uint64_t rows(int first, int last) {  // the squares of rows first..last (0: the top)
  uint64_t b = 0;
  for (int n = 1; n <= 32; ++n)
    if (first <= row_of(n) && row_of(n) <= last) b |= bit_of(n);
  return b;
}
constexpr uint64_t squares(std::initializer_list<int> list) {
  uint64_t b = 0;
  for (int n : list) b |= bit_of(n);
  return b;
}

constexpr uint64_t ON_BOARD = rows(0, 7);
constexpr uint64_t CROWN[2] = {rows(7, 7), rows(0, 0)};
constexpr uint64_t BACK_RANK[2] = {rows(0, 0), rows(7, 7)};
constexpr uint64_t DOUBLE_CORNERS = squares({1, 5, 28, 32});
constexpr uint64_t CENTRE = squares({10, 11, 14, 15, 18, 19, 22, 23});
// Men's advancement (checkers/board.py's ADVANCED): per side, the rows counted once and those counted again.
constexpr uint64_t ADVANCED_FAR[2] = {rows(3, 6), rows(1, 4)}, ADVANCED_NEAR[2] = {rows(5, 6), rows(1, 2)};
// The directions' shifts (move codes' digits) and which a side's men take: Black's down, White's up.
constexpr int SHIFT[4] = {-5, -4, 4, 5};
constexpr unsigned MAN_DIRECTIONS[2] = {0b1100, 0b0011}, KING_DIRECTIONS = 0b1111;

inline uint64_t shifted(uint64_t b, int by) { return by < 0 ? b >> -by : b << by; }

// Square indices and coordinates by bit, and the dense form of a board (bit i of 32: square i + 1).
struct Layout {
  int8_t index[64], row[64], col[64];
  constexpr Layout() : index(), row(), col() {
    for (int b = 0; b < 64; ++b) index[b] = row[b] = col[b] = -1;
    for (int n = 1; n <= 32; ++n) {
      index[bit_index(n)] = int8_t(n - 1), row[bit_index(n)] = int8_t(row_of(n)), col[bit_index(n)] = int8_t(col_of(n));
    }
  }
};
inline constexpr Layout LAYOUT{};

inline uint32_t dense(uint64_t b) {
  return uint32_t((b & 0xFF) | (b >> 9 & 0xFF) << 8 | (b >> 18 & 0xFF) << 16 | (b >> 27 & 0xFF) << 24);
}
inline uint64_t ghost_of_index(int i) { return bit_of(i + 1); }

using tactician::splitmix;

// A generated move: its squares and captures, and its code.
struct Move {
  uint64_t from, to, captured;
  int code;
};

// The code of a legal move decoded (see the header comment): its squares and its captures. (The bindings
// check a code from Python against the legal moves before it gets here.)
struct Decoded {
  uint64_t from, to, captured;
};

inline Decoded decode_move(int code) {
  const bool jump = (code >> 5) & 1;
  const unsigned digits = unsigned(code) >> 6;
  Decoded d{ghost_of_index(code & 31), ghost_of_index(code & 31), 0};
  for (int i = 0; digits >> (2 * (i + 1)); ++i) {   // up to the sentinel
    const int by = SHIFT[(digits >> (2 * i)) & 3];
    if (jump) {
      const uint64_t over = shifted(d.to, by);
      d.captured |= over;
      d.to = shifted(over, by);
    } else {
      d.to = shifted(d.to, by);
    }
  }
  return d;
}

}  // namespace checkers

class Checkers {
 public:
  static constexpr int MAX_MOVES = 256;
  static constexpr bool OUTCOME_GAME = true, KEY_FIXES_PLY = false;
  static constexpr bool SPARSE_MOVE_CODES = true;   // codes spell out a jump's path (pvs.hpp's history)
  static constexpr int QUIESCENCE_PLIES = 8, MAX_NO_PROGRESS_PLIES = 1000;
  static constexpr double NEAR_WIN = 0.999, TABLE_WIN = 0.99;

  struct State {
    uint64_t black = 0, white = 0, kings = 0;
    int turn = checkers::BLACK;
    int counted = 0;          // plies towards the no-progress draw: Python's len(history)
    int tail_length = 0;
    bool drawn = false;       // by the no-progress rule or by threefold repetition
    uint64_t tail_hash = 0;   // the tail's entries with their turns, as a multiset
    uint64_t tail[checkers::MAX_TAIL];

    State() = default;
    State(const State& o) { *this = o; }
    State& operator=(const State& o) {  // (only the tail's used part: states are copied at every node)
      black = o.black, white = o.white, kings = o.kings, turn = o.turn, counted = o.counted;
      tail_length = o.tail_length, drawn = o.drawn, tail_hash = o.tail_hash;
      std::memcpy(tail, o.tail, sizeof(uint64_t) * size_t(tail_length));
      return *this;
    }
  };

  Checkers(int limit, bool man_move_resets) : limit_(limit), resets_(man_move_resets) {
    if (limit < 1 || limit > MAX_NO_PROGRESS_PLIES) throw std::invalid_argument("no_progress_plies is 1 to 1000");
  }
  int limit() const { return limit_; }
  bool man_move_resets() const { return resets_; }

  // --- building states ----------------------------------------------------------------------------

  // A position's tail entry: its kings, Black's low, White's high.
  static uint64_t entry(uint64_t black, uint64_t white, uint64_t kings) {
    return uint64_t(checkers::dense(black & kings)) | uint64_t(checkers::dense(white & kings)) << 32;
  }
  static uint64_t entry_hash(uint64_t e, int turn) { return checkers::splitmix(e ^ (turn ? 0x5bd1e9955bd1e995ull : 0)); }
  static uint64_t men(uint64_t black, uint64_t white, uint64_t kings) {
    return uint64_t(checkers::dense(black & ~kings)) | uint64_t(checkers::dense(white & ~kings)) << 32;
  }

  // Append the position before the current one (its turn the other) to the tail.
  static void push_tail(State& s, uint64_t e) {
    if (s.tail_length == checkers::MAX_TAIL) throw std::length_error("checkers: the tail outgrew MAX_TAIL");
    s.tail[s.tail_length++] = e;
    s.tail_hash += entry_hash(e, s.turn ^ 1);
  }

  // make_state's draw flag: the count has reached the limit, or the position is in the tail twice (only
  // entries an even number of plies back have the same player to move).
  void complete(State& s) const {
    const uint64_t now = entry(s.black, s.white, s.kings);
    int seen = 0;
    for (int i = s.tail_length - 2; i >= 0; i -= 2) seen += s.tail[i] == now;
    s.drawn = s.counted >= limit_ || seen >= 2;
  }

  // --- the game interface (search/game.hpp) ------------------------------------------------------

  int to_move(const State& s) const { return s.turn; }
  bool is_terminal(const State& s) const { return s.drawn || stuck(s); }
  double utility(const State& s, int player) const {
    if (!stuck(s)) return 0.0;
    return player == s.turn ? -1.0 : 1.0;
  }

  int actions(const State& s, int* out) const {
    checkers::Move moves[MAX_MOVES];
    const int n = generate(s.black, s.white, s.kings, s.turn, moves);
    for (int i = 0; i < n; ++i) out[i] = moves[i].code;
    return n;
  }

  // Checkers.ordered_actions: captures taking the most (a king counting twice) first, else a man's
  // crowning steps first; ties in natural order.
  int ordered_actions(const State& s, int* out) const {
    checkers::Move moves[MAX_MOVES];
    const int n = generate(s.black, s.white, s.kings, s.turn, moves);
    if (n >= 2 && moves[0].captured) {
      auto taken = [&](const checkers::Move& m) { return checkers::popcount(m.captured) + checkers::popcount(m.captured & s.kings); };
      std::stable_sort(moves, moves + n, [&](const checkers::Move& a, const checkers::Move& b) { return taken(a) > taken(b); });
    } else if (n >= 2) {
      auto crowning = [&](const checkers::Move& m) { return (m.to & checkers::CROWN[s.turn]) && !(m.from & s.kings); };
      std::stable_partition(moves, moves + n, crowning);
    }
    for (int i = 0; i < n; ++i) out[i] = moves[i].code;
    return n;
  }

  State result(const State& s, int code) const {
    const checkers::Decoded m = checkers::decode_move(code);
    uint64_t nb, nw, nk;
    if (s.turn == checkers::BLACK)
      nb = s.black ^ m.from ^ m.to, nw = s.white ^ m.captured;
    else
      nb = s.black ^ m.captured, nw = s.white ^ m.from ^ m.to;
    if (m.from & s.kings)
      nk = (s.kings ^ m.from ^ m.to) & ~m.captured;
    else
      nk = (s.kings & ~m.captured) | (m.to & checkers::CROWN[s.turn]);
    const bool man = !(m.from & s.kings);
    State n;
    if (!man && !m.captured) {                       // a king's step: the men unchanged, the tail goes on
      n = s;
      n.turn = s.turn ^ 1;
      push_tail(n, entry(s.black, s.white, s.kings));
    }
    n.black = nb, n.white = nw, n.kings = nk, n.turn = s.turn ^ 1;
    if (m.captured || (resets_ && man)) return n;   // the count starts again (no draw can be due)
    n.counted = s.counted + 1;
    complete(n);
    return n;
  }

  // Checkers.evaluate: the forced captures played out (quiescent), exact on terminal states.
  double evaluate(const State& s, int player) const {
    if (is_terminal(s)) return utility(s, player);
    const double v = quiescent(s, QUIESCENCE_PLIES);
    return player == s.turn ? v : -v;
  }

  // Checkers.key: the position, the count and the tail as a multiset (Python sorts it), mixed.
  uint64_t key(const State& s) const {
    using checkers::splitmix;
    return splitmix(s.black ^ splitmix(s.white ^ splitmix(s.kings ^ splitmix(uint64_t(s.turn) | uint64_t(s.counted) << 1)))) ^
           splitmix(s.tail_hash + uint64_t(s.tail_length));
  }

  // Checkers.plies_bound: every man's rows to go and every capture, with fewer than `limit` plies between.
  int plies_bound(const State& s) const {
    using namespace checkers;
    int irreversible = popcount(s.black | s.white) - 1;
    const uint64_t men[2] = {s.black & ~s.kings, s.white & ~s.kings};
    for (int d = 1; d <= 7; ++d)
      irreversible += popcount(men[BLACK] & rows(0, 7 - d)) + popcount(men[WHITE] & rows(d, 7));
    return irreversible + (irreversible + 1) * limit_ - s.counted;
  }

  // --- the rules' parts ----------------------------------------------------------------------------

  // Every legal move of the side to move (checkers/board.py's generate): the jumps if any, by starting square,
  // then by the squares landed on; else the steps.
  static int generate(uint64_t black, uint64_t white, uint64_t kings, int turn, checkers::Move* out) {
    using namespace checkers;
    const uint64_t me = turn == BLACK ? black : white, opp = turn == BLACK ? white : black;
    const uint64_t empty = ON_BOARD & ~(black | white);
    int n = 0;
    uint64_t pieces = jumpers(me, opp, kings, turn, empty);
    if (pieces) {
      for (; pieces; pieces &= pieces - 1) {
        const uint64_t b = pieces & -pieces;
        const bool king = b & kings;
        extend_jumps(b, b, 0, 0, 0, opp, empty | b, king ? KING_DIRECTIONS : MAN_DIRECTIONS[turn],
                     king ? 0 : CROWN[turn], out, n);
      }
      return n;
    }
    const uint64_t down = turn == BLACK ? me : me & kings, up = turn == BLACK ? me & kings : me;
    for (pieces = ((empty >> 4 | empty >> 5) & down) | ((empty << 4 | empty << 5) & up); pieces; pieces &= pieces - 1) {
      const uint64_t b = pieces & -pieces;
      const unsigned directions = b & kings ? KING_DIRECTIONS : MAN_DIRECTIONS[turn];
      for (int d = 0; d < 4; ++d) {
        const uint64_t t = shifted(b, SHIFT[d]);
        if ((directions >> d & 1) && (t & empty)) add(out, n, {b, t, 0, code_of(b, false, unsigned(d), 1)});
      }
    }
    return n;
  }

  // The pieces of `me` that can jump (checkers/board.py's jumpers): back from the empty squares over an enemy.
  static uint64_t jumpers(uint64_t me, uint64_t opp, uint64_t kings, int turn, uint64_t empty) {
    const uint64_t down = turn == checkers::BLACK ? me : me & kings, up = turn == checkers::BLACK ? me & kings : me;
    return (((((empty >> 4) & opp) >> 4) | (((empty >> 5) & opp) >> 5)) & down) |
           (((((empty << 4) & opp) << 4) | (((empty << 5) & opp) << 5)) & up);
  }

  static bool stuck(const State& s) {
    using namespace checkers;
    const uint64_t me = s.turn == BLACK ? s.black : s.white, opp = s.turn == BLACK ? s.white : s.black;
    const uint64_t empty = ON_BOARD & ~(s.black | s.white);
    const uint64_t down = s.turn == BLACK ? me : me & s.kings, up = s.turn == BLACK ? me & s.kings : me;
    return !(((down << 4 | down << 5 | up >> 4 | up >> 5) & empty) || jumpers(me, opp, s.kings, s.turn, empty));
  }

  // The two-kings table's answer (checkers/kings.py's plies_to_win): whether two kings against one (no men)
  // win, which side, and in how many plies.
  static bool plies_to_win(uint64_t black, uint64_t white, uint64_t kings, int turn, int& winner, int& plies);

 private:
  int limit_;
  bool resets_;

  static int code_of(uint64_t from, bool jump, unsigned digits, int count) {
    return checkers::LAYOUT.index[__builtin_ctzll(from)] | (jump ? 32 : 0) | int((digits | 1u << (2 * count)) << 6);
  }

  static void add(checkers::Move* out, int& n, const checkers::Move& m) {
    if (n == MAX_MOVES) throw std::length_error("checkers: more legal moves than MAX_MOVES");
    out[n++] = m;
  }

  // checkers/board.py's extend_jumps: every complete jump sequence of the piece that left `start` and stands on
  // `at`, having taken `captured` in `count` jumps (`digits` their directions); a man landing on `crown`
  // is crowned and stops.
  static void extend_jumps(uint64_t start, uint64_t at, uint64_t captured, unsigned digits, int count, uint64_t opp,
                           uint64_t empty, unsigned directions, uint64_t crown, checkers::Move* out, int& n) {
    using namespace checkers;
    for (int d = 0; d < 4; ++d) {
      if (!(directions >> d & 1)) continue;
      const uint64_t over = shifted(at, SHIFT[d]), land = shifted(over, SHIFT[d]);
      if (!(over & opp) || !(land & empty)) continue;
      const uint64_t taken = captured | over;
      const unsigned path = digits | unsigned(d) << (2 * count);
      if (land & crown) {
        add(out, n, {start, land, taken, code_of(start, true, path, count + 1)});
      } else {
        const int before = n;
        extend_jumps(start, land, taken, path, count + 1, opp ^ over, empty, directions, crown, out, n);
        if (n == before) add(out, n, {start, land, taken, code_of(start, true, path, count + 1)});
      }
    }
  }

  double quiescent(const State& s, int plies) const {
    using namespace checkers;
    const uint64_t me = s.turn == BLACK ? s.black : s.white, opp = s.turn == BLACK ? s.white : s.black;
    if (plies && jumpers(me, opp, s.kings, s.turn, ON_BOARD & ~(s.black | s.white))) {
      double best = -1.0;
      int moves[MAX_MOVES];
      const int n = actions(s, moves);
      for (int i = 0; i < n; ++i) {
        const State child = result(s, moves[i]);
        const double value = is_terminal(child) ? NEAR_WIN * utility(child, s.turn) : -quiescent(child, plies - 1);
        if (value > best) best = value;
      }
      return best;
    }
    int winner, to_win;
    if (plies_to_win(s.black, s.white, s.kings, s.turn, winner, to_win) && to_win <= limit_ - s.counted)
      return (TABLE_WIN - to_win / 1000.0) * (winner == s.turn ? 1 : -1);
    const double value = static_value(s.black, s.white, s.kings) * urgency(s.counted);
    return s.turn == BLACK ? value : -value;
  }

  double urgency(int counted) const { return 1 - double(counted) / double(2 * limit_); }

 public:
  // checkers/__init__.py's static_value: a quiet position's worth for Black, squashed into (-1, 1), the same float
  // operations in the same order.
  static double static_value(uint64_t black, uint64_t white, uint64_t kings) {
    using namespace checkers;
    const uint64_t empty = ON_BOARD & ~(black | white);
    const uint64_t black_men = black & ~kings, white_men = white & ~kings;
    const uint64_t black_kings = black & kings, white_kings = white & kings;
    const int material = 100 * (popcount(black_men) - popcount(white_men)) + 135 * (popcount(black_kings) - popcount(white_kings));
    const int pieces = popcount(black | white);
    double score = double(material * 28) / double(pieces + 4);
    score += 3 * (popcount(black_men & ADVANCED_FAR[BLACK]) + popcount(black_men & ADVANCED_NEAR[BLACK]) -
                  popcount(white_men & ADVANCED_FAR[WHITE]) - popcount(white_men & ADVANCED_NEAR[WHITE]));
    if (white_men) score += 5 * popcount(black_men & BACK_RANK[BLACK]);
    if (black_men) score -= 5 * popcount(white_men & BACK_RANK[WHITE]);
    score += 4 * (popcount(black & CENTRE) - popcount(white & CENTRE));
    score += 2 * (step_count(black, kings, BLACK, empty) - step_count(white, kings, WHITE, empty));
    if (pieces <= 8 && material) {
      const uint64_t hunters = material > 0 ? black_kings : white_kings, prey = material > 0 ? white : black;
      int distance = 0;
      for (uint64_t h = hunters; h; h &= h - 1) {
        const int hb = __builtin_ctzll(h);
        int nearest = 1 << 30;
        for (uint64_t p = prey; p; p &= p - 1) {
          const int pb = __builtin_ctzll(p);
          nearest = std::min(nearest, std::max(std::abs(LAYOUT.row[hb] - LAYOUT.row[pb]), std::abs(LAYOUT.col[hb] - LAYOUT.col[pb])));
        }
        distance += nearest;
      }
      const int penalty = 3 * distance + 10 * popcount(prey & kings & DOUBLE_CORNERS);
      score -= material > 0 ? penalty : -penalty;
    }
    return score / (std::fabs(score) + 300);
  }

  // checkers/board.py's step_count: the plain steps of the side moving `turn`'s way.
  static int step_count(uint64_t me, uint64_t kings, int turn, uint64_t empty) {
    const uint64_t down = turn == checkers::BLACK ? me : me & kings, up = turn == checkers::BLACK ? me & kings : me;
    return checkers::popcount((down << 4) & empty) + checkers::popcount((down << 5) & empty) +
           checkers::popcount((up >> 4) & empty) + checkers::popcount((up >> 5) & empty);
  }
};

namespace checkers {

// The two-kings table (checkers/kings.py's table), built once by the same retrograde analysis: for each
// position of two kings (Black's, by dense square indices i < j) against one, with either side to move,
// the plies to the win, or -1. STRONG (0) is the two kings to move, WEAK (1) the lone one.
class KingsTable {
 public:
  static const KingsTable& get() {
    static const KingsTable table;
    return table;
  }
  int plies(int i, int j, int one, int side) const { return won_[index(i, j, one, side)]; }
  static int index(int i, int j, int one, int side) { return ((i * 32 + j) * 32 + one) * 2 + side; }

 private:
  std::vector<int16_t> won_;

  KingsTable() : won_(32 * 32 * 32 * 2, -1) {
    const int size = int(won_.size());
    std::vector<int> children(size, 0);
    std::vector<std::vector<int>> parents(size);
    std::vector<std::vector<int>> by_distance(1);
    Move moves[Checkers::MAX_MOVES];
    for (int i = 0; i < 32; ++i)
      for (int j = i + 1; j < 32; ++j)
        for (int one = 0; one < 32; ++one) {
          if (one == i || one == j) continue;
          const uint64_t two = ghost_of_index(i) | ghost_of_index(j), lone = ghost_of_index(one);
          for (int side = 0; side < 2; ++side) {
            const int p = index(i, j, one, side);
            const int n = Checkers::generate(two, lone, two | lone, side, moves);
            if (side == 0 && n && moves[0].captured) { mark(p, 1, by_distance); continue; }
            if (side == 1 && !n) { mark(p, 0, by_distance); continue; }
            if (side == 1 && moves[0].captured) continue;   // he must capture: one king against one
            children[p] = n;
            for (int k = 0; k < n; ++k) {
              int child;
              if (side == 0) {
                const uint64_t after = two ^ moves[k].from ^ moves[k].to;
                const int a = LAYOUT.index[__builtin_ctzll(after)], b = LAYOUT.index[63 - __builtin_clzll(after)];
                child = index(a, b, one, 1);
              } else {
                child = index(i, j, LAYOUT.index[__builtin_ctzll(moves[k].to)], 0);
              }
              parents[child].push_back(p);
            }
          }
        }
    for (size_t n = 0; n < by_distance.size(); ++n)
      for (size_t k = 0; k < by_distance[n].size(); ++k)
        for (int parent : parents[by_distance[n][k]]) {
          if (won_[parent] >= 0) continue;
          if (parent % 2 == 1 && --children[parent]) continue;   // he still has a move not yet proven lost
          mark(parent, int(n) + 1, by_distance);
        }
  }

  void mark(int p, int n, std::vector<std::vector<int>>& by_distance) {
    won_[p] = int16_t(n);
    if (by_distance.size() <= size_t(n)) by_distance.resize(size_t(n) + 1);
    by_distance[n].push_back(p);
  }
};

}  // namespace checkers

inline bool Checkers::plies_to_win(uint64_t black, uint64_t white, uint64_t kings, int turn, int& winner, int& plies) {
  using namespace checkers;
  if ((black | white) & ~kings) return false;
  const int nb = popcount(black), nw = popcount(white);
  uint64_t two, one;
  if (nb == 2 && nw == 1)
    winner = BLACK, two = black, one = white;
  else if (nb == 1 && nw == 2)
    winner = WHITE, two = white, one = black;
  else
    return false;
  const int i = LAYOUT.index[__builtin_ctzll(two)], j = LAYOUT.index[63 - __builtin_clzll(two)];
  plies = KingsTable::get().plies(i, j, LAYOUT.index[__builtin_ctzll(one)], turn == winner ? 0 : 1);
  return plies >= 0;
}

}  // namespace tactician
