// Othello on two 64-bit bitboards: the rules of engine/games/othello/__init__.py and board.py and the
// evaluation of evaluation.py, bit for bit.
//
// Square 8 * row + column is bit 8 * row + column (row 0 is row "1", the top; column 0 is "a"), PASS (64)
// the move of a player without a legal square: a ply of its own, so the players strictly alternate. A state
// caches what Python's tuple caches: the discs of the player to move and of the other, the player to move,
// the mover's legal squares and whether the game is over. The exact endgame solver is othello_endgame.hpp.
#pragma once

#include <cmath>
#include <cstdint>
#include <optional>
#include <utility>

#include "games/othello_patterns.hpp"
#include "search/game.hpp"

namespace tactician {

namespace othello {

constexpr uint64_t FULL = ~uint64_t(0);
constexpr uint64_t NOT_A = 0xFEFEFEFEFEFEFEFEull, NOT_H = 0x7F7F7F7F7F7F7F7Full;
constexpr uint64_t INNER_COLUMNS = NOT_A & NOT_H;
constexpr uint64_t CORNERS = 1ull | 1ull << 7 | 1ull << 56 | 1ull << 63;
constexpr uint64_t ROW_1 = 0xFFull, ROW_8 = 0xFFull << 56;
constexpr uint64_t COLUMN_A = 0x0101010101010101ull, COLUMN_H = 0x8080808080808080ull;
constexpr uint64_t EDGES = ROW_1 | ROW_8 | COLUMN_A | COLUMN_H;
constexpr int PASS = 64;

inline int popcount(uint64_t b) { return __builtin_popcountll(b); }
inline int lowest(uint64_t b) { return __builtin_ctzll(b); }

// The squares strictly beyond `square` in direction (dr, dc), up to the edge (othello/board.py: ray).
constexpr uint64_t ray(int square, int dr, int dc) {
  uint64_t bits = 0;
  int r = square / 8 + dr, c = square % 8 + dc;
  while (0 <= r && r < 8 && 0 <= c && c < 8) {
    bits |= uint64_t(1) << (8 * r + c);
    r += dr, c += dc;
  }
  return bits;
}

// Each square's rays (up: towards higher bits, whose nearest square is the lowest bit; down: towards lower
// bits), four of each, empty where the edge is near.
struct Rays {
  uint64_t up[64][4], down[64][4];
  constexpr Rays() : up(), down() {
    for (int s = 0; s < 64; ++s) {
      up[s][0] = ray(s, 0, 1), up[s][1] = ray(s, 1, 0), up[s][2] = ray(s, 1, 1), up[s][3] = ray(s, 1, -1);
      down[s][0] = ray(s, 0, -1), down[s][1] = ray(s, -1, 0), down[s][2] = ray(s, -1, -1), down[s][3] = ray(s, -1, 1);
    }
  }
};
inline constexpr Rays RAYS{};

// The discs of `them` that a disc of `me` on the empty `square` turns over (0: not a legal move): along
// each ray, the run of `them` next to the square when one of `me` closes it.
inline uint64_t flips(uint64_t me, uint64_t them, int square) {
  uint64_t flipped = 0;
  for (int k = 0; k < 4; ++k) {
    uint64_t line = RAYS.up[square][k];
    uint64_t stop = line & ~them;  // the nearest square that is not theirs
    stop &= ~stop + 1;
    if (stop & me) flipped |= line & (stop - 1);
    line = RAYS.down[square][k];
    stop = line & ~them;
    if (stop) {
      stop = uint64_t(1) << (63 - __builtin_clzll(stop));
      if (stop & me) flipped |= line & ~((stop << 1) - 1);
    }
  }
  return flipped;
}

// The empty squares where the player with discs `me` may play: a flood fill of `them` from `me` in each
// direction, one step further (othello/board.py: legal_moves).
inline uint64_t legal_moves(uint64_t me, uint64_t them) {
  const uint64_t empty = ~(me | them), inner = them & INNER_COLUMNS;
  uint64_t moves = 0;
  const int shifts[4] = {1, 8, 7, 9};
  const uint64_t runs[4] = {inner, them, inner, inner};
  for (int k = 0; k < 4; ++k) {
    const int shift = shifts[k];
    const uint64_t run = runs[k];
    uint64_t t = (me << shift) & run;
    t |= (t << shift) & run;
    t |= (t << shift) & run;
    t |= (t << shift) & run;
    t |= (t << shift) & run;
    t |= (t << shift) & run;
    moves |= (t << shift) & empty;
    t = (me >> shift) & run;
    t |= (t >> shift) & run;
    t |= (t >> shift) & run;
    t |= (t >> shift) & run;
    t |= (t >> shift) & run;
    t |= (t >> shift) & run;
    moves |= (t >> shift) & empty;
  }
  return moves;
}

// The squares next to any of `bits` in the eight directions.
inline uint64_t neighbours(uint64_t b) {
  return (b << 1 & NOT_A) | (b >> 1 & NOT_H) | (b << 8) | (b >> 8) | (b << 9 & NOT_A) | (b >> 9 & NOT_H) |
         (b << 7 & NOT_H) | (b >> 7 & NOT_A);
}

// The disc difference for `me` at the end of a game, empty squares going to the winner.
inline int final_score(uint64_t me, uint64_t them) {
  int mine = popcount(me), theirs = popcount(them);
  if (mine > theirs) return 64 - 2 * theirs;
  if (mine < theirs) return 2 * mine - 64;
  return 0;
}

// A 64-bit hash of a position (the discs of the player to move, of the other, and `salt`): SplitMix64's
// finaliser, twice, so that positions that differ in a few discs differ in every bit.
inline uint64_t scramble(uint64_t z) {
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}
inline uint64_t position_hash(uint64_t me, uint64_t them, uint64_t salt) {
  return scramble(me ^ scramble(them + 0x9E3779B97F4A7C15ull * (salt + 1)));
}

// --- the evaluation (othello/evaluation.py) ---

constexpr int QUADRANT[16] = {100, -20, 10, 5, -20, -50, -2, -2, 10, -2, -1, -1, 5, -2, -1, -1};
constexpr int square_weight(int s) {
  int r = s / 8, c = s % 8;
  return QUADRANT[4 * (r < 7 - r ? r : 7 - r) + (c < 7 - c ? c : 7 - c)];
}

// Each corner with its X-square (diagonal) and its C-squares (beside it on the edges).
struct CornerRegion {
  uint64_t corner, x, c;
};
constexpr CornerRegion CORNER_REGIONS[4] = {
    {1ull << 0, 1ull << 9, 1ull << 1 | 1ull << 8},
    {1ull << 7, 1ull << 14, 1ull << 6 | 1ull << 15},
    {1ull << 56, 1ull << 49, 1ull << 57 | 1ull << 48},
    {1ull << 63, 1ull << 54, 1ull << 62 | 1ull << 55}};

// The squares of `b` and those up to seven steps from them along `shift` (left shifts under `left_mask`,
// right shifts under `right_mask`, which keep a line from wrapping round the board), both ways.
inline uint64_t spread(uint64_t b, int shift, uint64_t left_mask, uint64_t right_mask) {
  for (int i = 0; i < 7; ++i) b |= (b << shift & left_mask) | (b >> shift & right_mask);
  return b;
}

// Per axis (rows, columns, diagonals, anti-diagonals), the squares whose line along it is full: those that
// no empty square reaches along the axis.
inline void full_lines(uint64_t occupied, uint64_t full[4]) {
  const uint64_t empty = ~occupied;
  full[0] = ~spread(empty, 1, NOT_A, NOT_H);
  full[1] = ~spread(empty, 8, FULL, FULL);
  full[2] = ~spread(empty, 9, NOT_A, NOT_H);
  full[3] = ~spread(empty, 7, NOT_H, NOT_A);
}

// The discs of `discs` that can never be turned over, by othello/evaluation.py stable_discs' fixed point.
inline uint64_t stable_discs(uint64_t discs, const uint64_t full[4]) {
  uint64_t stable = 0;
  for (;;) {
    uint64_t h = full[0] | COLUMN_A | COLUMN_H | (stable << 1 & NOT_A) | (stable >> 1 & NOT_H);
    uint64_t v = full[1] | ROW_1 | ROW_8 | (stable << 8) | (stable >> 8);
    uint64_t d = full[2] | EDGES | (stable << 9 & NOT_A) | (stable >> 9 & NOT_H);
    uint64_t a = full[3] | EDGES | (stable << 7 & NOT_H) | (stable >> 7 & NOT_A);
    uint64_t grown = discs & h & v & d & a;
    if (grown == stable) return stable;
    stable = grown;
  }
}

inline double ratio(int mine, int theirs) { return double(mine - theirs) / double(mine + theirs + 2); }

// othello/evaluation.py evaluate_for_mover: the same operations on doubles in the same order.
inline double evaluate_for_mover(uint64_t me, uint64_t them, uint64_t legal) {
  const uint64_t occupied = me | them, empty = ~occupied;
  const int empties = popcount(empty);
  const double late = double(60 - empties) / 60;
  const int my_moves = popcount(legal), their_moves = popcount(legal_moves(them, me));
  double score = (80 - 40 * late) * ratio(my_moves, their_moves);
  if (!my_moves) score -= 30;
  score += (60 - 50 * late) * ratio(popcount(neighbours(them) & empty), popcount(neighbours(me) & empty));
  for (const CornerRegion& region : CORNER_REGIONS) {
    if (me & region.corner) {
      score += 35;
    } else if (them & region.corner) {
      score -= 35;
    } else {
      if (them & region.x) score += 25;
      if (me & region.x) score -= 25;
      score += 8 * (popcount(them & region.c) - popcount(me & region.c));
    }
  }
  if (occupied & CORNERS) {
    uint64_t full[4];
    full_lines(occupied, full);
    score += 12 * (popcount(stable_discs(me, full)) - popcount(stable_discs(them, full)));
  }
  if (empties <= 14) score += empties & 1 ? 12 : -12;
  score += 60 * late * late * ratio(popcount(me), popcount(them));
  return score / (std::fabs(score) + 400);
}

}  // namespace othello

class Othello {
 public:
  // The evaluation at the horizon: the hand-weighted features above, or with `patterns` the learned pattern
  // tables (othello_patterns.hpp), as the Python game's `evaluation` option chooses.
  explicit Othello(bool patterns = false) : patterns_(patterns) {}

  static constexpr int MAX_MOVES = 65;  // the squares and PASS
  static constexpr bool OUTCOME_GAME = true, KEY_FIXES_PLY = false;
  static constexpr int PASS = othello::PASS;

  struct State {
    uint64_t me = 0, them = 0;  // the discs of the player to move, of the other
    int player = 0;             // the player to move: 0 black, 1 white
    uint64_t legal = 0;         // the legal squares of the player to move
    bool over = false;          // neither player can move
  };

  // Python's make_state.
  static State make_state(uint64_t me, uint64_t them, int player) {
    State s;
    s.me = me, s.them = them, s.player = player;
    s.legal = othello::legal_moves(me, them);
    s.over = !s.legal && !othello::legal_moves(them, me);
    return s;
  }

  // --- the rules ---

  int to_move(const State& s) const { return s.player; }
  bool is_terminal(const State& s) const { return s.over; }
  double utility(const State& s, int player) const {
    int mine = othello::popcount(s.me), theirs = othello::popcount(s.them);
    double u = mine > theirs ? 1.0 : mine < theirs ? -1.0 : 0.0;
    return player == s.player ? u : -u;
  }
  // The legal squares in natural order (a1, b1, ..., h8), or PASS, or none at the end.
  int actions(const State& s, int* out) const {
    int n = 0;
    for (uint64_t b = s.legal; b; b &= b - 1) out[n++] = othello::lowest(b);
    if (!n && !s.over) out[n++] = PASS;
    return n;
  }
  State result(const State& s, int move) const {
    if (move == PASS) return make_state(s.them, s.me, 1 - s.player);
    uint64_t flipped = othello::flips(s.me, s.them, move);
    return make_state(s.them ^ flipped, s.me | flipped | uint64_t(1) << move, 1 - s.player);
  }

  // --- knowledge for searches ---

  double evaluate(const State& s, int player) const {
    if (s.over) return utility(s, player);
    double value = patterns_ ? othello::patterns::evaluate_for_mover(
                                   s.me, s.them, othello::popcount(s.legal) - othello::popcount(othello::legal_moves(s.them, s.me)),
                                   othello::popcount(~(s.me | s.them)))
                             : othello::evaluate_for_mover(s.me, s.them, s.legal);
    return player == s.player ? value : -value;
  }
  // The legal squares, heavier static weight first, ties in natural order.
  int ordered_actions(const State& s, int* out) const {
    int n = actions(s, out);
    if (!s.legal) return n;
    for (int i = 1; i < n; ++i) {  // (insertion sort: stable, and at most a few dozen moves)
      int move = out[i], j = i;
      for (; j > 0 && othello::square_weight(out[j - 1]) < othello::square_weight(move); --j) out[j] = out[j - 1];
      out[j] = move;
    }
    return n;
  }
  // A hash of Python's key (me, them, player).
  uint64_t key(const State& s) const { return othello::position_hash(s.me, s.them, uint64_t(s.player)); }
  int plies_bound(const State& s) const { return s.over ? 0 : 2 * othello::popcount(~(s.me | s.them)); }

  // Uniformly random moves to the end, as Python's random_playout draws them: the k-th legal square
  // counting from a1, k = int(uniform() * their number), or a pass (no draw) when there is none.
  template <class Uniform>
  Playout random_playout(const State& s, Uniform& uniform) const {
    uint64_t me = s.me, them = s.them, legal = s.legal;
    bool over = s.over;
    int plies = 0;
    while (!over) {
      if (legal) {
        uint64_t pick = legal;
        for (int k = int(uniform() * othello::popcount(legal)); k > 0; --k) pick &= pick - 1;
        const int square = othello::lowest(pick);
        const uint64_t flipped = othello::flips(me, them, square);
        const uint64_t mine = me;
        me = them ^ flipped, them = mine | flipped | uint64_t(1) << square;
      } else {
        std::swap(me, them);
      }
      ++plies;
      legal = othello::legal_moves(me, them);
      over = !legal && !othello::legal_moves(them, me);
    }
    int mine = othello::popcount(me), theirs = othello::popcount(them);
    double u = mine > theirs ? 1.0 : mine < theirs ? -1.0 : 0.0;
    const int mover = s.player ^ (plies & 1);
    return mover == 0 ? Playout{{u, -u}, plies} : Playout{{-u, u}, plies};
  }

  // The exact endgame solver (othello_endgame.hpp), defined there.
  std::optional<Solution> solve_endgame(const State& s, const Budget& budget, bool ordering, int64_t tt_capacity,
                                        Stats& stats) const;

 private:
  bool patterns_;
};

}  // namespace tactician
