// The m,n,k-game (engine/games/tictactoe/, with windows.py): tic-tac-toe to gomoku, boards up to
// 19 x 19, k in a row wins. Cell r * n + c is bit r * n + c of a bitboard of W 64-bit words (W = 1 up to
// 64 cells, ..., 6 for 361); the game is a template over W so that small boards pay for one word.
//
// Same rules, same order and same knowledge as the Python game: actions in natural order, ordered_actions
// (by promise on small boards, urgent cells first on larger ones), evaluate bit for bit (the same integer
// score and the same float operations), and on boards of PRUNED_FROM cells the knowledge Python lists
// there (game.hpp's CANDIDATES, EXTENSIONS, THREATS): the candidate moves, forcing, and the threat-space
// searches, which are games/mnk_threats.hpp's.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdlib>
#include <optional>
#include <vector>

#include "search/game.hpp"

namespace tactician {

template <int W>
class MnkThreats;  // games/mnk_threats.hpp, which a search that asks for threats includes

// A set of cells: W 64-bit words, cell i is bit i % 64 of word i / 64.
template <int W>
struct Bits {
  uint64_t w[W] = {};

  static Bits cell(int i) {
    Bits b;
    b.w[i >> 6] = uint64_t(1) << (i & 63);
    return b;
  }
  bool test(int i) const { return w[i >> 6] >> (i & 63) & 1; }
  void set(int i) { w[i >> 6] |= uint64_t(1) << (i & 63); }
  bool any() const {
    uint64_t a = 0;
    for (int i = 0; i < W; i++) a |= w[i];
    return a != 0;
  }
  int count() const {
    int n = 0;
    for (int i = 0; i < W; i++) n += __builtin_popcountll(w[i]);
    return n;
  }
  bool several() const {  // two cells or more
    int n = 0;
    for (int i = 0; i < W && n < 2; i++) n += w[i] == 0 ? 0 : (w[i] & (w[i] - 1)) ? 2 : 1;
    return n >= 2;
  }
  int lowest() const {  // of a non-empty set
    int i = 0;
    while (w[i] == 0) i++;
    return i * 64 + __builtin_ctzll(w[i]);
  }
  int pop() {  // remove the lowest cell and return it
    int i = 0;
    while (w[i] == 0) i++;
    int c = i * 64 + __builtin_ctzll(w[i]);
    w[i] &= w[i] - 1;
    return c;
  }
  // Calls f(cell) for every cell, lowest first.
  template <class F>
  void each(F&& f) const {
    for (int i = 0; i < W; i++)
      for (uint64_t x = w[i]; x; x &= x - 1) f(i * 64 + __builtin_ctzll(x));
  }
  Bits operator&(const Bits& o) const { Bits r; for (int i = 0; i < W; i++) r.w[i] = w[i] & o.w[i]; return r; }
  Bits operator|(const Bits& o) const { Bits r; for (int i = 0; i < W; i++) r.w[i] = w[i] | o.w[i]; return r; }
  Bits operator^(const Bits& o) const { Bits r; for (int i = 0; i < W; i++) r.w[i] = w[i] ^ o.w[i]; return r; }
  Bits operator~() const { Bits r; for (int i = 0; i < W; i++) r.w[i] = ~w[i]; return r; }
  Bits& operator&=(const Bits& o) { return *this = *this & o; }
  Bits& operator|=(const Bits& o) { return *this = *this | o; }
  bool operator==(const Bits& o) const {
    for (int i = 0; i < W; i++)
      if (w[i] != o.w[i]) return false;
    return true;
  }
  bool operator!=(const Bits& o) const { return !(*this == o); }
  Bits operator<<(int n) const {
    Bits r;
    int q = n >> 6, s = n & 63;
    for (int i = W - 1; i >= q; i--)
      r.w[i] = (w[i - q] << s) | (s && i - q - 1 >= 0 ? w[i - q - 1] >> (64 - s) : 0);
    return r;
  }
  Bits operator>>(int n) const {
    Bits r;
    int q = n >> 6, s = n & 63;
    for (int i = 0; i + q < W; i++)
      r.w[i] = (w[i + q] >> s) | (s && i + q + 1 < W ? w[i + q + 1] << (64 - s) : 0);
    return r;
  }
};

template <int W>
class Mnk {
 public:
  using B = Bits<W>;
  static constexpr int MAX_SIDE = 19, MAX_CELLS = MAX_SIDE * MAX_SIDE;
  static constexpr int MAX_MOVES = MAX_CELLS;
  static constexpr bool OUTCOME_GAME = true;
  static constexpr bool KEY_FIXES_PLY = true;  // the marks on the board are the plies played
  enum Status { ONGOING, X_WON, O_WON, DRAWN };
  // The Python game's constants (tictactoe/__init__.py).
  static constexpr int SMALL_BOARD_CELLS = 12, NEAR = 2, PRUNED_FROM = 81, BEAM = 8;
  static constexpr double ATTACK_WEIGHT = 1.5, THREAT_VALUE = 0.9, FORCING_VALUE = 0.8;

  struct State {
    B x, o;
    int ply = 0;
    int status = ONGOING;
  };

  // The open windows by count: at[m][j], the windows of direction j (by first cell) holding exactly m
  // marks of one player and none of the other's (Windows.by_count with every count 0 .. k).
  struct Counts {
    B at[MAX_SIDE + 1][4];
  };

  int rows, cols, k, cells;

  Mnk(int rows_, int cols_, int k_) : rows(rows_), cols(cols_), k(k_), cells(rows_ * cols_) {
    for (int c = 0; c < cells; c++) full.set(c);
    for (int m = 0; m <= MAX_SIDE; m++) power[m] = m == 0 ? 1 : power[m - 1] * 4;
    std::vector<int> lines_through(cells);
    for (const auto& [dr, dc] : STEPS) {
      Direction d{dr * cols + dc, B(), std::vector<B>(cells)};
      for (int r = 0; r < rows; r++)
        for (int c = 0; c < cols; c++) {
          int er = r + dr * (k - 1), ec = c + dc * (k - 1);
          if (er < 0 || er >= rows || ec < 0 || ec >= cols) continue;
          int p = r * cols + c;
          d.starts.set(p);
          for (int i = 0; i < k; i++) d.cells[p].set(p + i * d.shift), lines_through[p + i * d.shift]++;
        }
      if (d.starts.any()) dirs.push_back(std::move(d));
    }
    if constexpr (W == 1) {
      windows_through.resize(cells);
      for (const Direction& d : dirs)
        d.starts.each([&](int p) { d.cells[p].each([&](int c) { windows_through[c].push_back(d.cells[p].w[0]); }); });
    }
    // by_promise: more winning lines first, then nearer the centre (Manhattan), then natural order.
    double centre_r = (rows - 1) / 2.0, centre_c = (cols - 1) / 2.0;
    auto distance = [&](int c) { return std::abs(c / cols - centre_r) + std::abs(c % cols - centre_c); };
    by_promise.resize(cells);
    for (int c = 0; c < cells; c++) by_promise[c] = c;
    std::stable_sort(by_promise.begin(), by_promise.end(), [&](int a, int b) {
      if (lines_through[a] != lines_through[b]) return lines_through[a] > lines_through[b];
      return distance(a) < distance(b);
    });
    rank.resize(cells);
    for (int i = 0; i < cells; i++) rank[by_promise[i]] = i;
    near.resize(cells);
    for (int c = 0; c < cells; c++)
      for (int r = std::max(0, c / cols - NEAR); r < std::min(rows, c / cols + NEAR + 1); r++)
        for (int q = std::max(0, c % cols - NEAR); q < std::min(cols, c % cols + NEAR + 1); q++)
          near[c].set(r * cols + q);
  }

  // Whether the Python game prunes this board to its candidate moves (CANDIDATES, EXTENSIONS, THREATS).
  bool prunes() const { return cells >= PRUNED_FROM; }
  unsigned knowledge() const { return prunes() ? CANDIDATES | EXTENSIONS | THREATS : 0; }

  // The state of the marks x and o (a legal position: the Python loader checked it), status included.
  State make(const B& x, const B& o) const {
    State s{x, o, x.count() + o.count(), ONGOING};
    Counts cx, co;
    by_count(x, o, cx);
    by_count(o, x, co);
    s.status = any_window(cx, k) ? X_WON : any_window(co, k) ? O_WON : s.ply == cells ? DRAWN : ONGOING;
    return s;
  }

  int to_move(const State& s) const { return s.ply & 1; }
  bool is_terminal(const State& s) const { return s.status != ONGOING; }
  double utility(const State& s, int player) const {
    if (s.status == X_WON) return player == 0 ? 1.0 : -1.0;
    if (s.status == O_WON) return player == 0 ? -1.0 : 1.0;
    return 0.0;
  }
  // Python's key x << cells | o where it fits in 64 bits; else the words mixed one by one with a full
  // avalanche (MurmurHash3's finaliser), so that two positions share a key as rarely as random keys do.
  uint64_t key(const State& s) const {
    if (2 * cells <= 64) return s.x.w[0] << cells | s.o.w[0];
    auto mix = [](uint64_t h) {
      h = (h ^ h >> 33) * 0xFF51AFD7ED558CCDULL;
      h = (h ^ h >> 33) * 0xC4CEB9FE1A85EC53ULL;
      return h ^ h >> 33;
    };
    uint64_t h = 0;
    for (int i = 0; i < W; i++) h = mix(mix(h ^ s.x.w[i]) ^ s.o.w[i]);
    return h;
  }
  int plies_bound(const State& s) const { return cells - s.ply; }

  int actions(const State& s, int* out) const {
    int n = 0;
    (full & ~(s.x | s.o)).each([&](int c) { out[n++] = c; });
    return n;
  }

  // A mark at `cell` for the mover; a win when a line of k through it is the mover's.
  State result(const State& s, int cell) const {
    State t = s;
    B& mine = s.ply & 1 ? t.o : t.x;
    mine.set(cell);
    t.ply++;
    t.status = completes_line(mine, cell) ? (s.ply & 1 ? O_WON : X_WON) : t.ply == cells ? DRAWN : ONGOING;
    return t;
  }

  // Whether `mine`, which holds `cell`, has k in a row through it: on one-word boards a test of each
  // window through the cell; on larger ones a walk along the four lines.
  bool completes_line(const B& mine, int cell) const {
    if constexpr (W == 1) {
      for (uint64_t window : windows_through[cell])
        if ((mine.w[0] & window) == window) return true;
      return false;
    } else {
      int r = cell / cols, c = cell % cols;
      for (const auto& [dr, dc] : STEPS) {
        int run = 1;
        for (int rr = r + dr, cc = c + dc; rr >= 0 && rr < rows && cc >= 0 && cc < cols && mine.test(rr * cols + cc);
             rr += dr, cc += dc)
          run++;
        for (int rr = r - dr, cc = c - dc; rr >= 0 && rr < rows && cc >= 0 && cc < cols && mine.test(rr * cols + cc);
             rr -= dr, cc -= dc)
          run++;
        if (run >= k) return true;
      }
      return false;
    }
  }

  // Small boards and the empty board: by promise. Larger boards: urgent_first.
  int ordered_actions(const State& s, int* out) const {
    B occupied = s.x | s.o;
    if (cells <= SMALL_BOARD_CELLS || !occupied.any()) {
      int n = 0;
      for (int c : by_promise)
        if (!occupied.test(c)) out[n++] = c;
      return n;
    }
    Counts mine, theirs;
    sides(s, mine, theirs);
    return urgent_first(s, mine, theirs, -1, out);
  }

  // tictactoe/__init__.py's evaluate: open windows weighed 4 ** marks and squashed, then the tempo (threats within
  // two plies, a double completion, and on pruned boards a double three no move stops).
  double evaluate(const State& s, int player) const {
    if (s.status != ONGOING) return utility(s, player);
    B occupied = s.x | s.o, empty = full & ~occupied;
    Counts cx, co;
    by_count(s.x, s.o, cx);
    by_count(s.o, s.x, co);
    int64_t score = 0;
    for (int m = 1; m < k; m++) score += power[m] * (windows_count(cx, m) - windows_count(co, m));
    double value = double(score) / double(std::abs(score) + power[k]);
    bool o_to_move = s.ply & 1;
    const Counts& mover = o_to_move ? co : cx;
    const Counts& other = o_to_move ? cx : co;
    B mover_wins = covered(mover, k - 1, empty), other_wins = covered(other, k - 1, empty);
    if (mover_wins.any() || other_wins.several())
      value = mover_wins.any() != o_to_move ? THREAT_VALUE : -THREAT_VALUE;
    else if (!other_wins.any() && k >= 3 && double_completions(mover, k - 2, occupied).any())
      value = o_to_move ? -FORCING_VALUE : FORCING_VALUE;
    else if (prunes() && !other_wins.any() && !covered(mover, k - 2, empty).any() &&
             unstoppable_threes(other, occupied))
      value = o_to_move ? FORCING_VALUE : -FORCING_VALUE;
    return player == 0 ? value : -value;
  }

  // candidate_actions on pruned boards: the forcing replies first (a win, the blocks, the answers to a
  // three, the mover's double completions), else the BEAM most urgent cells. Returns the number of moves;
  // `complete` tells whether they are every move that matters (tictactoe/__init__.py's contract).
  int candidate_actions(const State& s, int* out, bool& complete) const {
    B occupied = s.x | s.o, empty = full & ~occupied;
    if (!occupied.any()) {
      out[0] = by_promise[0];
      complete = false;
      return 1;
    }
    Counts mine, theirs;
    sides(s, mine, theirs);
    complete = true;
    B wins = covered(mine, k - 1, empty);
    if (wins.any()) {
      out[0] = wins.lowest();
      return 1;
    }
    B losses = covered(theirs, k - 1, empty);
    if (losses.any()) return cells_of(losses, out);
    if (k >= 3) {
      B threes = double_completions(theirs, k - 2, occupied), moves;
      if (threes.any()) {
        moves = three_defences(theirs, occupied) | covered(mine, k - 2, empty);
        if (!moves.any()) moves = threes;
      } else {
        moves = double_completions(mine, k - 2, occupied);
      }
      if (moves.any()) {
        int n = cells_of(moves, out);
        std::sort(out, out + n, [&](int a, int b) { return rank[a] < rank[b]; });
        complete = moves == empty;
        return n;
      }
    }
    int n = urgent_first(s, mine, theirs, BEAM, out);
    complete = n == empty.count();
    return n;
  }

  // Windows.by_count(mine, theirs) with every count: bit-sliced counters of `mine` in the open windows.
  void by_count(const B& mine, const B& theirs, Counts& out) const {
    for (size_t j = 0; j < dirs.size(); j++) {
      const Direction& d = dirs[j];
      B open = d.starts;
      for (int i = 0; i < k; i++) open &= ~(theirs >> (i * d.shift));
      B planes[5];
      int held = 0;
      for (int i = 0; i < k; i++) {
        B carry = (mine >> (i * d.shift)) & open;
        for (int b = 0; carry.any(); b++) {
          if (b == held) {
            planes[held++] = carry;
            break;
          }
          B plane = planes[b];
          planes[b] = plane ^ carry;
          carry = plane & carry;
        }
      }
      for (int m = 0; m <= k; m++) {
        B mask = m >> held ? B() : open;
        for (int b = 0; b < held && mask.any(); b++) mask &= (m >> b & 1) ? planes[b] : ~planes[b];
        out.at[m][j] = mask;
      }
    }
  }

  // Calls f(cells of the window) for each window with m marks, direction by direction, first cell first.
  template <class F>
  void each_window(const Counts& c, int m, F&& f) const {
    for (size_t j = 0; j < dirs.size(); j++) c.at[m][j].each([&](int p) { f(dirs[j].cells[p]); });
  }
  // Calls f(cells of the window) for each window through `cell`.
  template <class F>
  void each_window_through(int cell, F&& f) const {
    for (const Direction& d : dirs)
      for (int i = 0, p = cell; i < k && p >= 0; i++, p -= d.shift)
        if (d.starts.test(p)) f(d.cells[p]);
  }
  // Windows.covered: the empty cells of the windows with m marks.
  B covered(const Counts& c, int m, const B& empty) const {
    B out;
    for (size_t j = 0; j < dirs.size(); j++)
      if (c.at[m][j].any())
        for (int i = 0; i < k; i++) out |= c.at[m][j] << (i * dirs[j].shift);
    return out & empty;
  }
  const B& board() const { return full; }  // every cell
  B empty_cells(const State& s) const { return full & ~(s.x | s.o); }
  int rank_of(int cell) const { return rank[cell]; }

  // forcing (EXTENSIONS): the mover cannot win at once and must stop the opponent's win at once.
  bool forcing(const State& s) const {
    const B &mine = s.ply & 1 ? s.o : s.x, &theirs = s.ply & 1 ? s.x : s.o;
    return !has_four(mine, theirs) && has_four(theirs, mine);
  }
  // Whether `player` has a window of k - 1 marks and none of `other`'s (whose one empty cell wins at once):
  // a window without `other`'s marks and with exactly one empty cell. Cheaper than by_count's every count.
  bool has_four(const B& player, const B& other) const {
    const B empty = full & ~(player | other);
    for (const Direction& d : dirs) {
      B open = d.starts, once, twice;  // windows with an empty cell, with two
      for (int i = 0; i < k; i++) {
        const B e = empty >> (i * d.shift);
        open &= ~(other >> (i * d.shift));
        twice |= once & e;
        once |= e;
      }
      if ((open & once & ~twice).any()) return true;
    }
    return false;
  }

  // threat_win and threat_defences (THREATS): tictactoe/__init__.py's, by MnkThreats.
  std::optional<std::vector<int>> threat_win(const State& s, const Budget& budget, Stats& stats) const {
    return MnkThreats<W>(*this).threat_win(s, budget, stats);
  }
  std::optional<std::vector<int>> threat_defences(const State& s, const Budget& budget, Stats& stats) const {
    return MnkThreats<W>(*this).threat_defences(s, budget, stats);
  }

 private:
  struct Direction {
    int shift;
    B starts;              // the cells from which a window of k fits
    std::vector<B> cells;  // the cells of the window starting at each cell
  };
  static constexpr int STEPS[4][2] = {{0, 1}, {1, 0}, {1, 1}, {1, -1}};  // the directions, dr and dc

  B full;
  int64_t power[MAX_SIDE + 1];
  std::vector<Direction> dirs;
  std::vector<int> by_promise, rank;
  std::vector<B> near;
  std::vector<std::vector<uint64_t>> windows_through;  // one-word boards: the windows of k holding each cell

  static int cells_of(const B& b, int* out) {
    int n = 0;
    b.each([&](int c) { out[n++] = c; });
    return n;
  }
  bool any_window(const Counts& c, int m) const {
    for (size_t j = 0; j < dirs.size(); j++)
      if (c.at[m][j].any()) return true;
    return false;
  }
  int64_t windows_count(const Counts& c, int m) const {
    int64_t n = 0;
    for (size_t j = 0; j < dirs.size(); j++) n += c.at[m][j].count();
    return n;
  }
  // double_completions over the windows with m = k - 2 marks (two empty cells each) that avoid the cell
  // `skip` (-1: none): the cells where one mark makes two completions or more, i.e. that pair with two
  // different cells.
  B double_completions(const Counts& c, int m, const B& occupied, int skip = -1) const {
    int partner[MAX_CELLS];
    std::fill(partner, partner + cells, -1);
    B doubles;
    each_window(c, m, [&](const B& window) {
      if (skip >= 0 && window.test(skip)) return;
      B rest = window & ~occupied;
      int a = rest.pop(), b = rest.lowest();
      for (auto [p, q] : {std::pair{a, b}, std::pair{b, a}}) {
        if (partner[p] < 0) partner[p] = q;
        else if (partner[p] != q) doubles.set(p);
      }
    });
    return doubles;
  }
  // three_defences over the opponent's windows with k - 2 marks: the empty cells after a mark on which
  // no opponent move makes two completions.
  B three_defences(const Counts& theirs, const B& occupied) const {
    B lines, defences;
    each_window(theirs, k - 2, [&](const B& window) { lines |= window; });
    (lines & ~occupied).each([&](int cell) {
      if (!double_completions(theirs, k - 2, occupied, cell).any()) defences.set(cell);
    });
    return defences;
  }
  bool unstoppable_threes(const Counts& other, const B& occupied) const {
    return double_completions(other, k - 2, occupied).any() && !three_defences(other, occupied).any();
  }

  // The open windows by count of the mover (`mine`) and of the opponent.
  void sides(const State& s, Counts& mine, Counts& theirs) const {
    by_count(s.ply & 1 ? s.o : s.x, s.ply & 1 ? s.x : s.o, mine);
    by_count(s.ply & 1 ? s.x : s.o, s.ply & 1 ? s.o : s.x, theirs);
  }
  // urgency(state, least), given sides(state): per empty cell, the sum over the open windows through it
  // with `least` to k - 1 marks of one player of 4 ** marks (times ATTACK_WEIGHT for the mover's); 0:
  // none. Sums of multiples of 0.5 below 2 ** 53: exact in any order, as in Python.
  void urgency(const State& s, const Counts& mine, const Counts& theirs, int least, double* out) const {
    B empty = full & ~(s.x | s.o);
    std::fill(out, out + cells, 0.0);
    const Counts* by_side[2] = {&mine, &theirs};
    for (int side = 0; side < 2; side++)
      for (int m = least; m < k; m++) {
        double value = (side == 0 ? ATTACK_WEIGHT : 1.0) * double(power[m]);
        each_window(*by_side[side], m,
                    [&](const B& window) { (window & empty).each([&](int c) { out[c] += value; }); });
      }
  }
  // The cells with an urgency, most urgent first, ties by promise.
  int by_urgency(const double* urgent, int* out) const {
    int n = 0;
    for (int c = 0; c < cells; c++)
      if (urgent[c] > 0) out[n++] = c;
    std::sort(out, out + n, [&](int a, int b) { return urgent[a] != urgent[b] ? urgent[a] > urgent[b] : rank[a] < rank[b]; });
    return n;
  }
  // urgent_first(state, wanted), given sides(state): the urgent cells, then the others near a mark, then
  // the rest, each group by promise; only the first `wanted` (-1: all), ranked by windows of two marks or
  // more when they fill it.
  int urgent_first(const State& s, const Counts& mine, const Counts& theirs, int wanted, int* out) const {
    double urgent[MAX_CELLS];
    if (wanted >= 0) {
      urgency(s, mine, theirs, 2, urgent);
      int n = by_urgency(urgent, out);
      if (n >= wanted) return wanted;
    }
    urgency(s, mine, theirs, 1, urgent);
    int n = by_urgency(urgent, out);
    if (wanted >= 0 && n >= wanted) return wanted;
    B occupied = s.x | s.o, close;
    occupied.each([&](int c) { close |= near[c]; });
    for (bool want_near : {true, false})
      for (int c : by_promise)
        if (!occupied.test(c) && urgent[c] == 0 && close.test(c) == want_near) out[n++] = c;
    return wanted >= 0 && n > wanted ? wanted : n;
  }
};

}  // namespace tactician
