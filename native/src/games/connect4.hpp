// Connect Four on a 64-bit bitboard: the rules and knowledge of engine/games/connect4.py, bit for bit.
//
// Cell (column c, row r from the bottom) is bit 7c + r; the seventh bit of every column stays empty, so
// shifted lines never carry into the next column, and playing column c is mask | (mask + bottom(c)).
// A state caches what Python's tuple caches: the stones of the player to move, all stones, the ply, the
// status, and each player's winning cells (the empty cells that would complete four in a row).
#pragma once

#include <cstdint>
#include <cstdlib>

#include "search/game.hpp"

namespace tactician {

namespace connect4 {

constexpr int WIDTH = 7, HEIGHT = 6, H1 = HEIGHT + 1;

constexpr uint64_t bottom_row() {
  uint64_t b = 0;
  for (int c = 0; c < WIDTH; ++c) b |= uint64_t(1) << (H1 * c);
  return b;
}

// How many of the board's 69 lines of four pass through a cell (3 in a corner, 13 at the centre).
constexpr int lines_through(int column, int row) {
  const int dirs[4][2] = {{0, 1}, {1, 0}, {1, 1}, {1, -1}};
  int count = 0;
  for (const auto& d : dirs)
    for (int back = 0; back < 4; ++back) {
      int c0 = column - back * d[0], r0 = row - back * d[1];
      if (0 <= c0 && c0 <= WIDTH - 1 - 3 * d[0] && 0 <= r0 + 3 * d[1] && r0 + 3 * d[1] <= HEIGHT - 1 && 0 <= r0 &&
          r0 <= HEIGHT - 1)
        ++count;
    }
  return count;
}

// The line counts as bit planes: bit k of every cell's count (Python's LINE_PLANES).
constexpr uint64_t line_plane(int k) {
  uint64_t plane = 0;
  for (int c = 0; c < WIDTH; ++c)
    for (int r = 0; r < HEIGHT; ++r)
      if (lines_through(c, r) >> k & 1) plane |= uint64_t(1) << (H1 * c + r);
  return plane;
}

}  // namespace connect4

class Connect4 {
 public:
  static constexpr int WIDTH = connect4::WIDTH, HEIGHT = connect4::HEIGHT, H1 = connect4::H1, CELLS = WIDTH * HEIGHT;
  static constexpr int MAX_MOVES = WIDTH;
  static constexpr bool OUTCOME_GAME = true, KEY_FIXES_PLY = true;
  enum Status : uint8_t { ONGOING, WON, DRAWN };  // WON: by the player who just moved

  struct State {
    uint64_t current = 0, mask = 0;  // the stones of the player to move; all stones
    uint64_t mine = 0, theirs = 0;   // the winning cells of the player to move, of the other
    int ply = 0;
    Status status = ONGOING;
  };

  // A move with the child it makes and its ordering score (safe_children).
  struct Child {
    int score, move;
    State state;
  };

  static constexpr uint64_t BOTTOM = connect4::bottom_row();
  static constexpr uint64_t BOARD = BOTTOM * ((1u << HEIGHT) - 1);
  static constexpr uint64_t ABOVE_BOARD = BOTTOM << HEIGHT;
  static constexpr uint64_t ODD_ROWS = BOTTOM * 0b010101, EVEN_ROWS = BOTTOM * 0b101010;
  static constexpr uint64_t column_mask(int c) { return uint64_t((1u << HEIGHT) - 1) << (H1 * c); }
  static constexpr uint64_t top_cell(int c) { return uint64_t(1) << (HEIGHT - 1 + H1 * c); }
  static constexpr int CENTRE_FIRST[WIDTH] = {3, 2, 4, 1, 5, 0, 6};
  static constexpr int LIVE_THREAT = 16, PARITY_THREAT = 12, ZUGZWANG = 48;

  static int popcount(uint64_t b) { return __builtin_popcountll(b); }
  static int column_of(uint64_t bit) { return __builtin_ctzll(bit) / H1; }

  static constexpr uint64_t LINE_PLANES[4] = {connect4::line_plane(0), connect4::line_plane(1), connect4::line_plane(2),
                                             connect4::line_plane(3)};

  static int lines_weight(uint64_t stones) {
    return popcount(stones & LINE_PLANES[0]) + (popcount(stones & LINE_PLANES[1]) << 1) +
           (popcount(stones & LINE_PLANES[2]) << 2) + (popcount(stones & LINE_PLANES[3]) << 3);
  }

  static bool four_in_a_row(uint64_t stones) {
    for (int shift : {1, H1, H1 - 1, H1 + 1}) {
      uint64_t pairs = stones & (stones >> shift);
      if (pairs & (pairs >> (2 * shift))) return true;
    }
    return false;
  }

  // The empty cells where `stones` would complete four in a row (Pons' compute_winning_position).
  static uint64_t winning_cells(uint64_t stones, uint64_t mask) {
    uint64_t r = (stones << 1) & (stones << 2) & (stones << 3);  // vertical: three below
    for (int s : {H1, H1 - 1, H1 + 1}) {                           // horizontal, both diagonals
      uint64_t p = (stones << s) & (stones << 2 * s);
      r |= p & (stones << 3 * s);
      r |= p & (stones >> s);
      p = (stones >> s) & (stones >> 2 * s);
      r |= p & (stones << s);
      r |= p & (stones >> 3 * s);
    }
    return r & (BOARD ^ mask);
  }

  // The state with the player to move's stones `current` among `mask` (a legal position).
  static State from_boards(uint64_t current, uint64_t mask) {
    State s;
    s.current = current;
    s.mask = mask;
    s.ply = popcount(mask);
    s.status = four_in_a_row(current ^ mask) || four_in_a_row(current) ? WON : s.ply == CELLS ? DRAWN : ONGOING;
    s.mine = winning_cells(current, mask);
    s.theirs = winning_cells(current ^ mask, mask);
    return s;
  }

  // The player to move puts a stone on the empty cell `bit` (Python's play()).
  static State play(const State& s, uint64_t bit) {
    State c;
    uint64_t mover = s.current | bit;
    c.mask = s.mask | bit;
    c.ply = s.ply + 1;
    c.status = bit & s.mine ? WON : c.ply == CELLS ? DRAWN : ONGOING;
    c.current = mover ^ c.mask;
    c.mine = s.theirs & ~bit;
    c.theirs = winning_cells(mover, c.mask);
    return c;
  }

  // The cells among `playable` where the player to move does not let the opponent (winning cells
  // `theirs`) win at once: the block of a lone threat, none against two, never right below one.
  static uint64_t safe_cells(uint64_t playable, uint64_t theirs) {
    uint64_t forced = playable & theirs;
    if (forced) {
      if (forced & (forced - 1)) return 0;
      playable = forced;
    }
    return playable & ~(theirs >> 1);
  }

  static uint64_t lowest_cells(uint64_t cells) {
    uint64_t marked = cells | ABOVE_BOARD;
    return marked & ~(marked - BOTTOM) & BOARD;
  }
  static uint64_t cells_above(uint64_t lowest) { return (ABOVE_BOARD - lowest) & BOARD & ~lowest; }

  // The threats' worth for X (Python's threat_outlook: live threats, parity, zugzwang).
  static int threat_outlook(uint64_t x_threats, uint64_t o_threats) {
    if (!(x_threats | o_threats)) return 0;
    uint64_t o_live = o_threats & ~cells_above(lowest_cells(x_threats));
    uint64_t x_live = x_threats & ~cells_above(lowest_cells(o_threats));
    uint64_t x_low = lowest_cells(x_live), o_low = lowest_cells(o_live);
    int x_odd = popcount(x_low & ODD_ROWS), o_odd = popcount(o_low & ODD_ROWS);
    int o_even = popcount(o_low & EVEN_ROWS);
    int score = LIVE_THREAT * (popcount(x_live) - popcount(o_live)) + PARITY_THREAT * (x_odd - o_even);
    if (x_odd > o_odd)
      score += ZUGZWANG;
    else if (o_even && !x_odd)
      score -= ZUGZWANG;
    return score;
  }

  // --- the rules ---

  int to_move(const State& s) const { return s.ply & 1; }
  bool is_terminal(const State& s) const { return s.status != ONGOING; }
  double utility(const State& s, int player) const {
    if (s.status == WON) return player == ((s.ply - 1) & 1) ? 1.0 : -1.0;
    return 0.0;
  }
  int actions(const State& s, int* out) const {
    int n = 0;
    for (int c = 0; c < WIDTH; ++c)
      if (!(s.mask & top_cell(c))) out[n++] = c;
    return n;
  }
  State result(const State& s, int column) const {
    uint64_t after = s.mask | (s.mask + (uint64_t(1) << (H1 * column)));
    return play(s, after ^ s.mask);
  }

  // --- knowledge for searches ---

  int immediate_win(const State& s) const {
    uint64_t wins = s.mine & (s.mask + BOTTOM);
    return wins ? column_of(wins & (~wins + 1)) : -1;
  }
  bool has_safe_move(const State& s) const { return safe_cells((s.mask + BOTTOM) & BOARD, s.theirs) != 0; }

  // The moves after which the opponent cannot win at once, best first by Python's score (5 times the
  // mover's winning cells in the child, minus those the opponent can fill at once or that lie right below
  // another), ties centre first; a lone safe move scores 0. Their number; `out` gets them.
  int safe_children(const State& s, Child* out) const {
    uint64_t playable = (s.mask + BOTTOM) & BOARD;
    uint64_t safe = safe_cells(playable, s.theirs);
    if (!(safe & (safe - 1))) {
      if (!safe) return 0;
      out[0] = {0, column_of(safe), play(s, safe)};
      return 1;
    }
    int n = 0;
    for (int c : CENTRE_FIRST) {
      uint64_t bit = safe & column_mask(c);
      if (!bit) continue;
      State child = play(s, bit);
      uint64_t threats = child.theirs;  // the mover's winning cells in the child
      int score = threats ? 5 * popcount(threats) - popcount(threats & (playable | bit << 1 | threats >> 1)) : 0;
      int i = n++;
      for (; i > 0 && out[i - 1].score < score; --i) out[i] = out[i - 1];  // stable: ties stay centre first
      out[i] = {score, c, child};
    }
    return n;
  }

  // Every legal move, best first: the safe ones in safe_children's order, then the rest centre first.
  int ordered_actions(const State& s, int* out) const {
    Child children[MAX_MOVES];
    int n = safe_children(s, children);
    uint64_t listed = 0;
    for (int i = 0; i < n; ++i) {
      out[i] = children[i].move;
      listed |= column_mask(out[i]);
    }
    for (int c : CENTRE_FIRST)
      if (!(s.mask & top_cell(c)) && !(listed & column_mask(c))) out[n++] = c;
    return n;
  }

  // Allis' claimeven (Python's outcome_bounds): whether bounds are known, and then the lowest and highest
  // result for the player to move, as utilities.
  bool outcome_bounds(const State& s, double& lowest, double& highest) const {
    uint64_t odd_columns = (s.mask + BOTTOM) & EVEN_ROWS;
    bool o_to_move = s.ply & 1;
    uint64_t x, o;
    if (o_to_move) {
      if (!odd_columns || (odd_columns & (odd_columns - 1))) return false;
      x = s.current ^ s.mask, o = s.current;
    } else {
      if (odd_columns) return false;
      x = s.current, o = s.current ^ s.mask;
    }
    uint64_t empty = BOARD ^ s.mask;
    if (four_in_a_row(x | (empty & ODD_ROWS))) return false;
    bool o_wins = four_in_a_row(o | (empty & EVEN_ROWS));
    if (o_to_move) {
      lowest = o_wins ? 1.0 : 0.0, highest = 1.0;
    } else {
      lowest = -1.0, highest = o_wins ? -1.0 : 0.0;
    }
    return true;
  }

  // Uniformly random moves to the end, consuming uniform() exactly as Python's random_playout does: the
  // k-th playable column from the left, k = int(uniform() * their number).
  template <class Uniform>
  Playout random_playout(const State& s, Uniform& uniform) const {
    uint64_t current = s.current, mask = s.mask;
    int ply = s.ply;
    Status status = s.status;
    while (status == ONGOING) {
      uint64_t playable = (mask + BOTTOM) & BOARD;
      for (int k = int(uniform() * popcount(playable)); k > 0; --k) playable &= playable - 1;
      uint64_t bit = playable & (~playable + 1);
      uint64_t mover = current | bit;
      mask |= bit;
      ++ply;
      status = four_in_a_row(mover) ? WON : ply == CELLS ? DRAWN : ONGOING;
      current = mover ^ mask;
    }
    if (status == DRAWN) return {{0.0, 0.0}, ply - s.ply};
    bool x_won = ((ply - 1) & 1) == 0;
    return {{x_won ? 1.0 : -1.0, x_won ? -1.0 : 1.0}, ply - s.ply};
  }

  // Pons' key: current + mask puts a bit above each column's stones, so it encodes both boards.
  uint64_t key(const State& s) const { return s.current + s.mask; }
  int plies_bound(const State& s) const { return CELLS - s.ply; }

  // Python's evaluate, the same operations in the same order: exact on terminal states, else the
  // threats' outlook plus the stones' lines of four, squashed into (-1, 1) for the player to move.
  double evaluate(const State& s, int player) const {
    if (s.status != ONGOING) return utility(s, player);
    int mover = s.ply & 1;
    uint64_t x_threats = mover == 0 ? s.mine : s.theirs, o_threats = mover == 0 ? s.theirs : s.mine;
    int score = threat_outlook(x_threats, o_threats);
    if (mover) score = -score;
    score += lines_weight(s.current) - lines_weight(s.current ^ s.mask);
    double value = double(score) / double(std::abs(score) + 128);
    return player == mover ? value : -value;
  }
};

}  // namespace tactician
