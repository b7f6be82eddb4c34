// 2048 (engine/games/twenty48/__init__.py and board.py): one player against chance, the board a 64-bit
// word of 4-bit tile exponents (cell (r, c) is nibble 4r + c; 0 empty, k the tile 2^k), the slides and
// the evaluation looked up in tables of all 65,536 rows, after nneonneo/2048-ai as the Python game does.
//
// As a chance game of search/expectimax.hpp: a State is a board and whether it is an afterstate (the
// board after a slide, before the spawn: a chance node). A player's moves are 0..3, the Python game's
// MOVES "up", "down", "left", "right" in that order, each listed only where it changes the board. A chance
// node's outcomes are the spawns in the Python game's order, every empty cell row-major and every tile
// lowest first, with its probability: the tile's times 1 / (empty cells). The evaluation and utility are
// the Python game's, bit for bit (the same row values, added in the same order).
#pragma once

#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <vector>

namespace tactician {

namespace twenty48 {

constexpr int MAX_EXPONENT = 15;
constexpr uint64_t ROW_MASK = 0xFFFF;
constexpr uint64_t ONES = 0x1111111111111111ull;  // bit 0 of every cell
// The published heuristic's weights (twenty48/board.py).
constexpr double EMPTY_WEIGHT = 270.0, MERGE_WEIGHT = 700.0, MONOTONICITY_WEIGHT = 47.0,
                 MONOTONICITY_POWER = 4.0, SUM_WEIGHT = 11.0, SUM_POWER = 3.5;
constexpr int FULL_BOARD_SUM_LOG2 = 20;

// For every row: moved left and right (rows), moved up and down (placed as column 0), and its share of
// the evaluation; and the bounds that map the evaluation onto [0.5, 1].
struct Tables {
  uint16_t left[1 << 16], right[1 << 16];
  uint64_t up[1 << 16], down[1 << 16];
  double heuristic[1 << 16];
  double eval_base, eval_scale;

  Tables() {
    double monotonic[16], summed[16];
    for (int r = 0; r < 16; ++r) monotonic[r] = std::pow(double(r), MONOTONICITY_POWER),
                                 summed[r] = std::pow(double(r), SUM_POWER);
    double lowest = INFINITY, highest = -INFINITY;
    for (uint32_t row = 0; row < (1u << 16); ++row) {
      int c[4] = {int(row & 0xF), int(row >> 4 & 0xF), int(row >> 8 & 0xF), int(row >> 12)};
      left[row] = slide_left(c);
      heuristic[row] = line_value(c, monotonic, summed);
      if (heuristic[row] < lowest) lowest = heuristic[row];
      if (heuristic[row] > highest) highest = heuristic[row];
    }
    for (uint32_t row = 0; row < (1u << 16); ++row) {
      right[row] = reverse(left[reverse(uint16_t(row))]);
      up[row] = as_column(left[row]);
      down[row] = as_column(right[row]);
    }
    double raw_lo = 8 * lowest, raw_hi = 8 * highest;
    eval_scale = 0.5 / (raw_hi - raw_lo);
    eval_base = 0.5 - eval_scale * raw_lo;
  }

  // The row moved to the wall (cell 0): equal tiles merge, each at most once, the pair nearer the wall
  // first; two 2^15 make one 2^15 (twenty48/board.py slide_left).
  static uint16_t slide_left(const int* cells) {
    int out = 0, shift = 0, pending = 0;
    for (int i = 0; i < 4; ++i) {
      int e = cells[i];
      if (!e) continue;
      if (e == pending) {
        out |= (e < MAX_EXPONENT ? e + 1 : e) << shift;
        shift += 4;
        pending = 0;
      } else {
        if (pending) out |= pending << shift, shift += 4;
        pending = e;
      }
    }
    return uint16_t(out | pending << shift);
  }

  // twenty48/board.py row_heuristic, operation for operation.
  static double line_value(const int* r, const double* monotonic, const double* summed) {
    int empty = 0, merges = 0, run = 0, previous = 0;
    for (int i = 0; i < 4; ++i) {
      if (!r[i]) {
        ++empty;
        continue;
      }
      if (r[i] == previous) {
        ++run;
      } else if (run) {
        merges += 1 + run, run = 0;
      }
      previous = r[i];
    }
    if (run) merges += 1 + run;
    double d1 = monotonic[r[1]] - monotonic[r[0]], d2 = monotonic[r[2]] - monotonic[r[1]],
           d3 = monotonic[r[3]] - monotonic[r[2]];
    double rises = (d1 > 0 ? d1 : 0) + (d2 > 0 ? d2 : 0) + (d3 > 0 ? d3 : 0);
    double falls = rises - d1 - d2 - d3;
    return EMPTY_WEIGHT * empty + MERGE_WEIGHT * merges - MONOTONICITY_WEIGHT * (rises < falls ? rises : falls) -
           SUM_WEIGHT * (summed[r[0]] + summed[r[1]] + summed[r[2]] + summed[r[3]]);
  }

  static uint16_t reverse(uint16_t r) {
    return uint16_t((r & 0xF) << 12 | (r >> 4 & 0xF) << 8 | (r >> 8 & 0xF) << 4 | r >> 12);
  }
  static uint64_t as_column(uint64_t row) {
    return (row & 0xF) | (row >> 4 & 0xF) << 16 | (row >> 8 & 0xF) << 32 | (row >> 12) << 48;
  }
};

inline const Tables& tables() {
  static const Tables* built = new Tables();  // built once, on first use; never freed (static lifetime)
  return *built;
}

// Swap cell (r, c) with cell (c, r).
inline uint64_t transpose(uint64_t b) {
  uint64_t a = (b & 0xF0F00F0FF0F00F0Full) | (b & 0x0000F0F00000F0F0ull) << 12 | (b & 0x0F0F00000F0F0000ull) >> 12;
  return (a & 0xFF00FF0000FF00FFull) | (a & 0x00FF00FF00000000ull) >> 24 | (a & 0x00000000FF00FF00ull) << 24;
}

// One bit, the lowest of the cell's nibble, for every empty cell.
inline uint64_t empty_cells(uint64_t b) { return ~(b | b >> 1 | b >> 2 | b >> 3) & ONES; }

}  // namespace twenty48

class Twenty48 {
 public:
  struct State {
    uint64_t board;
    bool chance;  // an afterstate: the spawn comes next
  };
  // A spawn: the child and its probability.
  struct Outcome {
    State state;
    double probability;
  };
  struct Tile {
    int exponent;
    double probability;
  };
  static constexpr int MAX_MOVES = 4;
  static constexpr int CHANCE = -1;
  // Iterative deepening goes two plies at a time, so that every pass ends on afterstates (the kernel's step).
  static constexpr int DEPTH_STEP = 2;

  // `tiles`: the spawns' exponents with their probabilities (> 0), lowest exponent first, as the Python
  // game's parse_tile_probabilities gives them.
  explicit Twenty48(std::vector<Tile> tiles) : tiles_(std::move(tiles)), t_(twenty48::tables()) {
    if (tiles_.empty() || tiles_.size() > 16) throw std::invalid_argument("2048 has 1 to 16 spawn tiles");
    for (size_t i = 0; i < tiles_.size(); ++i)
      if (tiles_[i].exponent < 1 || tiles_[i].exponent > twenty48::MAX_EXPONENT || !(tiles_[i].probability > 0) ||
          (i && tiles_[i].exponent <= tiles_[i - 1].exponent))
        throw std::invalid_argument("2048's tiles are exponents 1-15, increasing, with positive probabilities");
  }
  size_t max_outcomes() const { return 16 * tiles_.size(); }

  int to_move(const State& s) const { return s.chance ? CHANCE : 0; }

  // The board after each move, up, down, left, right (the board itself where a move changes nothing).
  void slides(uint64_t b, uint64_t* out) const {
    using twenty48::ROW_MASK;
    uint64_t r0 = b & ROW_MASK, r1 = b >> 16 & ROW_MASK, r2 = b >> 32 & ROW_MASK, r3 = b >> 48;
    uint64_t t = twenty48::transpose(b);
    uint64_t c0 = t & ROW_MASK, c1 = t >> 16 & ROW_MASK, c2 = t >> 32 & ROW_MASK, c3 = t >> 48;
    out[0] = t_.up[c0] | t_.up[c1] << 4 | t_.up[c2] << 8 | t_.up[c3] << 12;
    out[1] = t_.down[c0] | t_.down[c1] << 4 | t_.down[c2] << 8 | t_.down[c3] << 12;
    out[2] = uint64_t(t_.left[r0]) | uint64_t(t_.left[r1]) << 16 | uint64_t(t_.left[r2]) << 32 |
             uint64_t(t_.left[r3]) << 48;
    out[3] = uint64_t(t_.right[r0]) | uint64_t(t_.right[r1]) << 16 | uint64_t(t_.right[r2]) << 32 |
             uint64_t(t_.right[r3]) << 48;
  }

  bool is_terminal(const State& s) const {
    if (s.chance || twenty48::empty_cells(s.board)) return false;
    uint64_t after[4];
    slides(s.board, after);
    return after[0] == s.board && after[2] == s.board;
  }

  // A player's moves that change the board, in MOVES order; the afterstates in `children`.
  int children(const State& s, int* moves, State* children) const {
    uint64_t after[4];
    slides(s.board, after);
    int n = 0;
    for (int m = 0; m < 4; ++m)
      if (after[m] != s.board) moves[n] = m, children[n++] = {after[m], true};
    return n;
  }
  int actions(const State& s, int* moves) const {
    State unused[MAX_MOVES];
    return children(s, moves, unused);
  }
  State result(const State& s, int move) const {
    uint64_t after[4];
    slides(s.board, after);
    return {after[move], true};
  }

  // A chance node's spawns, in the Python game's order (out: room for max_outcomes()).
  int outcomes(const State& s, Outcome* out) const {
    uint64_t cells = twenty48::empty_cells(s.board);
    double share = 1.0 / __builtin_popcountll(cells);
    int n = 0;
    while (cells) {
      uint64_t low = cells & -cells;
      cells ^= low;
      for (const Tile& tile : tiles_) out[n++] = {{s.board | low * uint64_t(tile.exponent), false}, tile.probability * share};
    }
    return n;
  }

  // A finished board's value: log2(tile sum) / 40 (below 0.5, every live board's least).
  double utility(const State& s) const {
    uint64_t sum = 0;
    for (int i = 0; i < 16; ++i) {
      int e = int(s.board >> (4 * i) & 0xF);
      if (e) sum += uint64_t(1) << e;
    }
    return std::log2(double(sum)) / (2 * twenty48::FULL_BOARD_SUM_LOG2);
  }
  // The evaluation of a live board (or an afterstate), in [0.5, 1]: the rows' and columns' values.
  double evaluate(const State& s) const {
    if (is_terminal(s)) return utility(s);
    using twenty48::ROW_MASK;
    const double* h = t_.heuristic;
    uint64_t b = s.board, t = twenty48::transpose(b);
    return t_.eval_base + t_.eval_scale * (h[b & ROW_MASK] + h[b >> 16 & ROW_MASK] + h[b >> 32 & ROW_MASK] +
                                           h[b >> 48] + h[t & ROW_MASK] + h[t >> 16 & ROW_MASK] +
                                           h[t >> 32 & ROW_MASK] + h[t >> 48]);
  }
  // A chance node's transposition key: the afterstate's board (every bit of it).
  uint64_t key(const State& s) const { return s.board; }

 private:
  std::vector<Tile> tiles_;
  const twenty48::Tables& t_;
};

}  // namespace tactician
