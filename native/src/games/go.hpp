// Go on boards of 2x2 to 19x19: area scoring (Tromp-Taylor), suicide illegal, positional superko, two
// passes in a row end the game; and a fast playout policy for the MCTS.
//
// A move is a point code row * size + col (row 0 the bottom row, GTP's row 1; col 0 'A') or PASS
// (size * size), as engine/games/go's native_state numbers them. Inside, points are padded: p = (row + 1) *
// W + col + 1 with W = size + 2, a border of EDGE around the board, so that p - 1, p + 1, p - W, p + W are a
// point's neighbours everywhere and the padded order is the codes' order.
//
// The Board is incremental (as Libego's, Michi's): each string is a circular list of its stones with its
// pseudo-liberties (each stone-to-empty adjacency once) counted by number, sum and sum of squares, so that
// a string is captured when the number drops to zero and is in atari exactly when every pseudo-liberty is
// one point (n * sum_sq == sum^2). A State is compact (the stones as two bitsets, the hashes of the earlier
// positions as a shared list): the searches' trees hold one a node; the Board is rebuilt from it (a flood
// fill) to list moves, to play one or to play out.
//
// Two playout policies (Go's `playout` setting, the compiled core's alone): LIGHT, uniformly random moves
// that fill no eye of their own, as engine/games/go/playout.py plays them draw for draw; and GUIDED, as
// MoGo's, Pachi's and Fuego's playouts are: about the last move, a capture of a string in atari or an
// escape of one's own from atari, else a move that completes one of MoGo's 3x3 shapes (hane, cut, edge)
// next to it; else a random move as LIGHT's that puts no string of more than SELF_ATARI_MAX_STONES stones
// in atari. The rules are the same under both: only the choice among the legal moves differs.
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <memory>
#include <stdexcept>
#include <utility>
#include <vector>

#include "search/game.hpp"
#include "search/random.hpp"

namespace tactician {

namespace go {

constexpr int MAX_SIZE = 19, MAX_WIDTH = MAX_SIZE + 2, MAX_POINTS = MAX_WIDTH * MAX_WIDTH;
constexpr int WORDS = (MAX_POINTS + 63) / 64;
enum : uint8_t { EMPTY = 0, BLACK = 1, WHITE = 2, EDGE = 3 };  // a point's colour; a player's stone is 1 + player
using Bits = std::array<uint64_t, WORDS>;                      // a set of padded points

inline bool has(const Bits& b, int p) { return b[p >> 6] >> (p & 63) & 1; }
inline void set(Bits& b, int p) { b[p >> 6] |= uint64_t(1) << (p & 63); }

enum class Policy { LIGHT, GUIDED };  // the playouts' (see the head of this file)
constexpr int SELF_ATARI_MAX_STONES = 2;  // GUIDED puts no bigger string in atari (a throw-in may be needed)
constexpr int MAX_TACTICAL = 32;          // GUIDED's candidate moves about the last move, at most

// MoGo's 3x3 shapes about an empty point (Gelly, Wang, Munos and Teytaud 2006, as Michi writes them), rows
// of the 8 points around it: X and O the two colours, x not X and o not O (the edge included), '.' empty,
// ' ' off the board, '?' anything. Each stands for its rotations, reflections and the colours swapped.
inline constexpr const char* SHAPES[][3] = {
    {"XOX", "...", "???"}, {"XO.", "...", "?.?"}, {"XO?", "X..", "x.?"},   // hane
    {".O.", "X..", "..."},                                                // katatsuke
    {"XO?", "O.o", "?o?"}, {"XO?", "O.X", "???"}, {"?X?", "O.O", "ooo"},   // cuts
    {"OX?", "o.O", "???"},                                                // cut keima
    {"X.?", "O.?", "   "}, {"OX?", "X.O", "   "}, {"?X?", "x.O", "   "},   // edge: chase, block
    {"?XO", "x.x", "   "}, {"?OX", "X.O", "   "}};                        // edge: sagari, cut

// The neighbourhoods (a point's 8 neighbours' colours, 2 bits each, in Board::neighbourhood's order)
// that match a shape: a bit each of 4^8.
class Shapes {
 public:
  Shapes() {
    for (const auto& shape : SHAPES)
      for (int symmetry = 0; symmetry < 8; ++symmetry)
        for (int swap = 0; swap < 2; ++swap) expand(cells(shape, symmetry), swap, 0, 0);
  }
  bool matches(int neighbourhood) const { return has_[neighbourhood >> 6] >> (neighbourhood & 63) & 1; }

 private:
  std::array<uint64_t, (1 << 16) / 64> has_{};

  // The shape's 8 cells, around the centre in neighbourhood order, under one of the 8 symmetries.
  static std::array<char, 8> cells(const char* const (&shape)[3], int symmetry) {
    std::array<char, 8> out{};
    int k = 0;
    for (int r = 0; r < 3; ++r)
      for (int c = 0; c < 3; ++c) {
        if (r == 1 && c == 1) continue;
        int y = r - 1, x = c - 1;
        if (symmetry & 1) std::swap(y, x);
        if (symmetry & 2) y = -y;
        if (symmetry & 4) x = -x;
        out[size_t(k++)] = shape[y + 1][x + 1];
      }
    return out;
  }
  // Whether `cell` (a shape's letter) admits a point of `colour`; X is Black unless `swap`.
  static bool admits(char cell, int colour, bool swap) {
    const int x = swap ? WHITE : BLACK, o = swap ? BLACK : WHITE;
    switch (cell) {
      case '?': return true;
      case '.': return colour == EMPTY;
      case ' ': return colour == EDGE;
      case 'X': return colour == x;
      case 'O': return colour == o;
      case 'x': return colour != x;
      default: return colour != o;  // 'o'
    }
  }
  // Marks every neighbourhood that matches `cells` from cell k on, the first k's colours in `code`.
  void expand(const std::array<char, 8>& cells, bool swap, int k, int code) {
    if (k == 8) {
      has_[code >> 6] |= uint64_t(1) << (code & 63);
      return;
    }
    for (int colour = EMPTY; colour <= EDGE; ++colour)
      if (admits(cells[size_t(k)], colour, swap)) expand(cells, swap, k + 1, code << 2 | colour);
  }
};
inline const Shapes SHAPE_TABLE{};

// Zobrist keys by colour and padded point; a position hashes to BASE xor its stones' keys (BASE: no
// position hashes to 0, the free slot of Seen, but with odds of 2^-64).
struct Keys {
  uint64_t stone[2][MAX_POINTS];
  constexpr Keys() : stone() {
    for (int c = 0; c < 2; ++c)
      for (int p = 0; p < MAX_POINTS; ++p) stone[c][p] = splitmix(uint64_t(c * MAX_POINTS + p) + 0x6F);
  }
};
inline constexpr Keys KEYS{};
constexpr uint64_t BASE = 0x2545F4914F6CDD1Dull;

// The hashes of the positions of a game so far, latest first: shared by the states that follow it.
struct Past {
  uint64_t hash;
  mutable std::shared_ptr<const Past> earlier;
  // Released a link at a time, so that a long game's list does not recurse as deep as it is long.
  ~Past() {
    for (auto next = std::move(earlier); next && next.use_count() == 1;) next = std::move(next->earlier);
  }
};

// A set of position hashes, open addressing with linear probing; it grows to stay at most half full.
class Seen {
 public:
  // The hashes of `past`, with room for `room` more before it grows.
  explicit Seen(const Past* past, int room) {
    int n = room;
    for (const Past* q = past; q; q = q->earlier.get()) ++n;
    size_t capacity = 64;
    while (capacity < 2 * size_t(n)) capacity *= 2;
    slots_.assign(capacity, 0);
    for (const Past* q = past; q; q = q->earlier.get()) insert(q->hash);
  }
  bool contains(uint64_t h) const {
    for (size_t i = h & (slots_.size() - 1);; i = (i + 1) & (slots_.size() - 1)) {
      if (slots_[i] == h) return true;
      if (slots_[i] == 0) return false;
    }
  }
  void insert(uint64_t h) {
    if (2 * (count_ + 1) > slots_.size()) {
      std::vector<uint64_t> old(2 * slots_.size(), 0);
      old.swap(slots_);
      count_ = 0;
      for (uint64_t x : old)
        if (x) insert(x);
    }
    size_t i = h & (slots_.size() - 1);
    while (slots_[i] != 0 && slots_[i] != h) i = (i + 1) & (slots_.size() - 1);
    if (slots_[i] == 0) slots_[i] = h, ++count_;
  }

 private:
  std::vector<uint64_t> slots_;
  size_t count_ = 0;
};

// A position as the searches keep it.
struct State {
  Bits stones[2]{};                  // Black's and White's stones
  std::shared_ptr<const Past> past;  // the hash of this position, then of every earlier one
  double komi = 0;
  int captures[2] = {0, 0};          // the stones Black captured, White captured
  int size = 0, player = 0;          // the player to move: 0 Black, 1 White
  int passes = 0;                    // the passes in a row of the last plies (2: the game is over)
  int last = 0;                      // the padded point of the last move; 0 at the start or after a pass
};

class Board {
 public:
  // The position of `s` (the player to move aside).
  explicit Board(const State& s) : size_(s.size), width_(s.size + 2), words_((width_ * width_ + 63) / 64) {
    captures_[0] = s.captures[0], captures_[1] = s.captures[1];
    std::memset(colour_, EDGE, sizeof colour_);
    for (int r = 0; r < size_; ++r)
      for (int c = 0; c < size_; ++c) {
        const int p = (r + 1) * width_ + c + 1;
        colour_[p] = has(s.stones[0], p) ? BLACK : has(s.stones[1], p) ? WHITE : EMPTY;
        if (colour_[p] == EMPTY) set(empty_, p);
      }
    build_strings();
  }

  int point(int code) const { return (code / size_ + 1) * width_ + code % size_ + 1; }
  int code(int p) const { return (p / width_ - 1) * size_ + p % width_ - 1; }
  int colour(int p) const { return colour_[p]; }
  uint64_t hash() const { return hash_; }
  int captures(int player) const { return captures_[player]; }
  // Whether every string has a liberty (a setup may lack one).
  bool breathes() const {
    for (int p = 0; p < width_ * width_; ++p)
      if ((colour_[p] == BLACK || colour_[p] == WHITE) && libs_[head_[p]] == 0) return false;
    return true;
  }

  // Whether a stone of `colour` on the empty point p has a liberty once the strings it takes are off: an
  // empty neighbour, a string of its own with another liberty, or a string of the other's in atari.
  bool breathing(int p, int colour) const {
    for (int n : {p - width_, p - 1, p + 1, p + width_}) {
      const int c = colour_[n];
      if (c == EMPTY || (c == colour && !in_atari(head_[n])) || (c == 3 - colour && in_atari(head_[n]))) return true;
    }
    return false;
  }
  // The hash after a stone of `colour` on p (breathing there): its key in, the strings it takes out.
  uint64_t hash_after(int p, int colour) const {
    uint64_t h = hash_ ^ KEYS.stone[colour - 1][p];
    int taken[4], n_taken = 0;
    for (int n : {p - width_, p - 1, p + 1, p + width_}) {
      if (colour_[n] != 3 - colour || !in_atari(head_[n])) continue;
      const int s = head_[n];
      bool again = false;
      for (int k = 0; k < n_taken; ++k) again |= taken[k] == s;
      if (again) continue;
      taken[n_taken++] = s;
      int q = s;
      do h ^= KEYS.stone[2 - colour][q], q = next_[q];
      while (q != s);
    }
    return h;
  }
  // Whether p is an eye of `colour`'s, as playouts keep them: every neighbour its stone or the edge, and
  // of the diagonal points at most one the other's in the middle, none on the edge.
  bool own_eye(int p, int colour) const {
    for (int n : {p - width_, p - 1, p + 1, p + width_})
      if (colour_[n] != colour && colour_[n] != EDGE) return false;
    int theirs = 0;
    bool edge = false;
    for (int d : {p - width_ - 1, p - width_ + 1, p + width_ - 1, p + width_ + 1})
      edge |= colour_[d] == EDGE, theirs += colour_[d] == 3 - colour;
    return theirs + edge < 2;
  }

  // A stone of `colour` on the empty point p, which breathes there: strings joined, strings taken.
  void play(int p, int colour) {
    colour_[p] = uint8_t(colour);
    hash_ ^= KEYS.stone[colour - 1][p];
    empty_[p >> 6] &= ~(uint64_t(1) << (p & 63));
    head_[p] = next_[p] = uint16_t(p);
    count_[p] = 1, libs_[p] = 0, lib_sum_[p] = lib_sq_[p] = 0;
    const int around[4] = {p - width_, p - 1, p + 1, p + width_};
    for (int n : around) {
      if (colour_[n] == EMPTY) add_liberty(p, n);
      else if (colour_[n] != EDGE) remove_liberty(head_[n], p);
    }
    for (int n : around)
      if (colour_[n] == colour && head_[n] != head_[p]) join(head_[p], head_[n]);
    for (int n : around)
      if (colour_[n] == 3 - colour && libs_[head_[n]] == 0) take(head_[n], colour);
  }

  // Black's area minus White's (Tromp-Taylor): stones, and the empty regions that reach one colour only.
  int area() const {
    int score = 0;
    bool done[MAX_POINTS] = {};
    uint16_t stack[MAX_POINTS];
    for (int p = width_; p < width_ * (width_ - 1); ++p) {
      if (colour_[p] == BLACK) ++score;
      if (colour_[p] == WHITE) --score;
      if (colour_[p] != EMPTY || done[p]) continue;
      int top = 0, region = 0, reach = 0;
      stack[top++] = uint16_t(p), done[p] = true;
      while (top) {
        const int q = stack[--top];
        ++region;
        for (int n : {q - width_, q - 1, q + 1, q + width_}) {
          if (colour_[n] == EMPTY && !done[n]) stack[top++] = uint16_t(n), done[n] = true;
          else if (colour_[n] == BLACK || colour_[n] == WHITE) reach |= colour_[n];
        }
      }
      if (reach == BLACK) score += region;
      if (reach == WHITE) score -= region;
    }
    return score;
  }

  // A playout move of `colour` (Black 1, White 2): with m empty points, one draw k = int(uniform() * m);
  // the first of the empty points from the k-th (in the order of the codes, the k-th counted from 0) on,
  // round to the first again, that is not one of its eyes (own_eye), breathes and repeats no position of
  // `seen` (and, when `careful`, is no big_self_atari); 0 (a pass) when none does, or when no point is
  // empty (no draw then).
  template <class Uniform>
  int playout_move(int colour, const Seen& seen, Uniform& uniform, bool careful = false) const {
    int m = 0;
    for (int w = 0; w < words_; ++w) m += __builtin_popcountll(empty_[w]);
    if (m == 0) return 0;
    int k = int(uniform() * m), word = 0;
    while (__builtin_popcountll(empty_[word]) <= k) k -= __builtin_popcountll(empty_[word++]);
    uint64_t bits = empty_[word];
    while (k--) bits &= bits - 1;
    const uint64_t from = bits & (~bits + 1);  // the k-th empty point's bit in its word
    for (int i = 0; i <= words_; ++i) {
      const int w = word + i < words_ ? word + i : word + i - words_;
      uint64_t candidates = empty_[w];
      if (i == 0) candidates &= ~(from - 1);
      if (i == words_) candidates &= from - 1;
      for (; candidates; candidates &= candidates - 1) {
        const int p = 64 * w + __builtin_ctzll(candidates);
        if (!own_eye(p, colour) && breathing(p, colour) && !seen.contains(hash_after(p, colour)) &&
            !(careful && big_self_atari(p, colour)))
          return p;
      }
    }
    return 0;
  }

  // GUIDED's playout move of `colour` after the other's move on `last` (0: none, or a pass): one of
  // atari_moves, else one of shape_moves, each drawn uniformly among those that are `fit`; else
  // playout_move's, careful. 0 (a pass) when no move is fit.
  template <class Uniform>
  int guided_move(int colour, const Seen& seen, int last, Uniform& uniform) const {
    if (last) {
      int moves[MAX_TACTICAL];
      if (const int p = pick(moves, atari_moves(last, colour, moves), colour, seen, uniform)) return p;
      if (const int p = pick(moves, shape_moves(last, moves), colour, seen, uniform)) return p;
    }
    return playout_move(colour, seen, uniform, true);
  }

  // The replies of `colour` to the ataris about the other's last move on `last`, into out (at most
  // MAX_TACTICAL; their count returned): the liberty of each string of the other's in atari on or next to
  // `last` (a capture); and for each of `colour`'s strings next to it in atari, the liberties of the
  // other's strings in atari that touch it (a capture that frees it) and its own liberty, where a stone
  // there leaves it two liberties or more (an escape).
  int atari_moves(int last, int colour, int* out) const {
    int n = 0;
    for (int q : {last, last - width_, last - 1, last + 1, last + width_}) {
      if ((colour_[q] != BLACK && colour_[q] != WHITE) || !in_atari(head_[q]) || n == MAX_TACTICAL) continue;
      const int h = head_[q], liberty = int(lib_sum_[h] / libs_[h]);
      if (colour_[q] != colour) {
        out[n++] = liberty;
        continue;
      }
      n = captures_next_to(h, out, n);
      if (n < MAX_TACTICAL && liberties_after(liberty, colour, 2) >= 2) out[n++] = liberty;
    }
    return n;
  }

  // The empty points next to `last` (its 8 neighbours) whose neighbourhood matches a shape (SHAPES), into
  // out; their count.
  int shape_moves(int last, int* out) const {
    int n = 0;
    for (int q : {last - width_ - 1, last - width_, last - width_ + 1, last - 1, last + 1, last + width_ - 1,
                  last + width_, last + width_ + 1})
      if (colour_[q] == EMPTY && SHAPE_TABLE.matches(neighbourhood(q))) out[n++] = q;
    return n;
  }

  // Whether a stone of `colour` on the empty point p puts a string of more than SELF_ATARI_MAX_STONES
  // stones in atari (or takes its last liberty): one liberty or none after it, the strings it takes
  // freeing only the points next to p.
  bool big_self_atari(int p, int colour) const {
    if (liberties_after(p, colour, 2) >= 2) return false;
    int stones = 1, joined[4], n_joined = 0;
    for (int q : {p - width_, p - 1, p + 1, p + width_}) {
      if (colour_[q] != colour || std::find(joined, joined + n_joined, head_[q]) != joined + n_joined) continue;
      joined[n_joined++] = head_[q];
      stones += count_[head_[q]];
    }
    return stones > SELF_ATARI_MAX_STONES;
  }

  // The liberties, counted up to `limit` (at most 4), of the string that a stone of `colour` on the empty
  // point p would be part of: p's empty neighbours, the other liberties of the strings of `colour`'s it
  // joins, and p's neighbours in the other's strings in atari, which it takes (a lower bound: a capture
  // frees more points than those).
  int liberties_after(int p, int colour, int limit) const {
    int found[4], n = 0;
    const auto add = [&](int q) {
      if (std::find(found, found + n, q) == found + n) found[n++] = q;
      return n >= limit;
    };
    for (int q : {p - width_, p - 1, p + 1, p + width_})  // first what needs no walk along a string
      if ((colour_[q] == EMPTY || (colour_[q] == 3 - colour && in_atari(head_[q]))) && add(q)) return n;
    for (int q : {p - width_, p - 1, p + 1, p + width_}) {
      if (colour_[q] != colour) continue;
      int stone = head_[q];
      do
        for (int m : {stone - width_, stone - 1, stone + 1, stone + width_})
          if (colour_[m] == EMPTY && m != p && add(m)) return n;
      while ((stone = next_[stone]) != head_[q]);
    }
    return n;
  }

  // The colours of p's 8 neighbours, 2 bits each, the row above p first (as Shapes reads them).
  int neighbourhood(int p) const {
    int code = 0;
    for (int q : {p - width_ - 1, p - width_, p - width_ + 1, p - 1, p + 1, p + width_ - 1, p + width_,
                  p + width_ + 1})
      code = code << 2 | colour_[q];
    return code;
  }

 private:
  int size_, width_, words_;  // words_: those of the Bits that hold the board
  uint8_t colour_[MAX_POINTS];
  uint16_t head_[MAX_POINTS] = {}, next_[MAX_POINTS];     // a stone's string (its head), the next stone in it
  uint16_t count_[MAX_POINTS], libs_[MAX_POINTS];         // by head: stones, pseudo-liberties
  uint32_t lib_sum_[MAX_POINTS], lib_sq_[MAX_POINTS];     // by head: their sum, the sum of their squares
  Bits empty_{};
  uint64_t hash_ = BASE;
  int captures_[2];

  bool in_atari(int h) const { return uint64_t(libs_[h]) * lib_sq_[h] == uint64_t(lib_sum_[h]) * lib_sum_[h]; }

  // Of `moves`' first n, one drawn uniformly that is fit for `colour`: an empty point, not its own eye,
  // breathing, no big_self_atari, no position of `seen` again (the first fit one on from the drawn one,
  // round to the first again); 0 when none is (no draw when n is 0).
  template <class Uniform>
  int pick(const int* moves, int n, int colour, const Seen& seen, Uniform& uniform) const {
    if (n == 0) return 0;
    const int from = int(uniform() * n);
    for (int i = 0; i < n; ++i) {
      const int p = moves[(from + i) % n];
      if (colour_[p] == EMPTY && !own_eye(p, colour) && breathing(p, colour) && !big_self_atari(p, colour) &&
          !seen.contains(hash_after(p, colour)))
        return p;
    }
    return 0;
  }

  // The liberties of the strings of the other's in atari that touch string h (of its stones' colour),
  // appended to out from out[n] while there is room: the new count.
  int captures_next_to(int h, int* out, int n) const {
    const int other = 3 - colour_[h];
    int stone = h;
    do
      for (int q : {stone - width_, stone - 1, stone + 1, stone + width_})
        if (colour_[q] == other && in_atari(head_[q]) && n < MAX_TACTICAL)
          out[n++] = int(lib_sum_[head_[q]] / libs_[head_[q]]);
    while ((stone = next_[stone]) != h);
    return n;
  }
  void add_liberty(int h, int p) { ++libs_[h], lib_sum_[h] += uint32_t(p), lib_sq_[h] += uint32_t(p * p); }
  void remove_liberty(int h, int p) { --libs_[h], lib_sum_[h] -= uint32_t(p), lib_sq_[h] -= uint32_t(p * p); }

  // The strings of the colours as they stand, and the hash.
  void build_strings() {
    uint16_t stack[MAX_POINTS];
    for (int p = width_; p < width_ * (width_ - 1); ++p) {
      const int c = colour_[p];
      if ((c != BLACK && c != WHITE) || head_[p]) continue;  // (point 0 is the edge: no head is 0)
      head_[p] = next_[p] = uint16_t(p);
      count_[p] = libs_[p] = 0, lib_sum_[p] = lib_sq_[p] = 0;
      int top = 0;
      stack[top++] = uint16_t(p);
      while (top) {
        const int q = stack[--top];
        ++count_[p];
        hash_ ^= KEYS.stone[c - 1][q];
        for (int n : {q - width_, q - 1, q + 1, q + width_}) {
          if (colour_[n] == EMPTY) add_liberty(p, n);
          if (colour_[n] != c || head_[n]) continue;
          head_[n] = uint16_t(p), next_[n] = next_[p], next_[p] = uint16_t(n);
          stack[top++] = uint16_t(n);
        }
      }
    }
  }

  // String b into string a (heads), the smaller relabelled.
  void join(int a, int b) {
    if (count_[a] < count_[b]) std::swap(a, b);
    int q = b;
    do head_[q] = uint16_t(a), q = next_[q];
    while (q != b);
    std::swap(next_[a], next_[b]);
    count_[a] = uint16_t(count_[a] + count_[b]), libs_[a] = uint16_t(libs_[a] + libs_[b]);
    lib_sum_[a] += lib_sum_[b], lib_sq_[a] += lib_sq_[b];
  }

  // The string of head h, without liberties, off the board: `colour` takes it.
  void take(int h, int colour) {
    int q = h;
    do {
      colour_[q] = EMPTY, head_[q] = 0;
      hash_ ^= KEYS.stone[2 - colour][q];
      set(empty_, q);
      q = next_[q];
    } while (q != h);
    captures_[colour - 1] += count_[h];
    do {
      for (int n : {q - width_, q - 1, q + 1, q + width_})
        if (colour_[n] == BLACK || colour_[n] == WHITE) add_liberty(head_[n], q);
      q = next_[q];
    } while (q != h);
  }
};

}  // namespace go

class Go {
 public:
  static constexpr int MAX_MOVES = go::MAX_SIZE * go::MAX_SIZE + 1;  // the points and PASS
  static constexpr bool OUTCOME_GAME = true, KEY_FIXES_PLY = false;
  using State = go::State;

  // The rules, with playouts by `policy` (go::Policy).
  explicit Go(go::Policy policy = go::Policy::LIGHT) : policy_(policy) {}

  // The position after `moves` from the setup of `black` and `white` stones (point codes), Black first:
  // std::invalid_argument for a size outside 2..19, komi not finite, a point off the board or set twice, a
  // setup string without a liberty, or a move that is not legal (or after the end).
  static State replay(int size, double komi, const std::vector<int>& black, const std::vector<int>& white,
                      const std::vector<int>& moves) {
    if (size < 2 || size > go::MAX_SIZE) throw std::invalid_argument("a go board is 2x2 to 19x19");
    if (!std::isfinite(komi)) throw std::invalid_argument("komi is a finite number");
    State s;
    s.size = size, s.komi = komi;
    const int points = size * size;
    for (int c = 0; c < 2; ++c)
      for (int code : c == 0 ? black : white) {
        if (code < 0 || code >= points) throw std::invalid_argument("a setup stone off the board");
        const int p = (code / size + 1) * (size + 2) + code % size + 1;
        if (go::has(s.stones[0], p) || go::has(s.stones[1], p))
          throw std::invalid_argument("a setup point with two stones");
        go::set(s.stones[c], p);
      }
    go::Board b(s);
    if (!b.breathes()) throw std::invalid_argument("a setup string without a liberty");
    go::Seen seen(nullptr, int(moves.size()) + 1);
    seen.insert(b.hash());
    auto past = std::make_shared<const go::Past>(go::Past{b.hash(), nullptr});
    for (int move : moves) {
      if (s.passes == 2) throw std::invalid_argument("a move after the game's end");
      if (move != points) {
        const int p = move >= 0 && move < points ? b.point(move) : 0, colour = s.player + 1;
        if (!p || b.colour(p) != go::EMPTY || !b.breathing(p, colour) || seen.contains(b.hash_after(p, colour)))
          throw std::invalid_argument("an illegal go move: off the board, on a stone, suicide or superko");
        b.play(p, colour);
        seen.insert(b.hash());
        past = std::make_shared<const go::Past>(go::Past{b.hash(), past});
      }
      s = after(b, s, move == points ? 0 : b.point(move), past);
    }
    s.past = past;
    return s;
  }

  int to_move(const State& s) const { return s.player; }
  bool is_terminal(const State& s) const { return s.passes == 2; }
  // Black's area minus White's minus komi.
  double score(const State& s) const { return go::Board(s).area() - s.komi; }
  double utility(const State& s, int player) const {
    const double d = score(s), u = d > 0 ? 1.0 : d < 0 ? -1.0 : 0.0;
    return player == 0 ? u : -u;
  }
  // The legal points in code order (empty, not suicide, no earlier position again), then PASS; none at
  // the end.
  int actions(const State& s, int* out) const {
    if (is_terminal(s)) return 0;
    const go::Board b(s);
    const go::Seen seen(s.past.get(), 0);
    const int colour = s.player + 1, pass = s.size * s.size;
    int n = 0;
    for (int code = 0, p = s.size + 3; code < pass; ++code, p += code % s.size ? 1 : 3)  // (p: code's point)
      if (b.colour(p) == go::EMPTY && b.breathing(p, colour) && !seen.contains(b.hash_after(p, colour)))
        out[n++] = code;
    out[n++] = pass;
    return n;
  }
  int ordered_actions(const State& s, int* out) const { return actions(s, out); }
  State result(const State& s, int move) const {
    if (move == s.size * s.size) return after(go::Board(s), s, 0, s.past);
    go::Board b(s);
    b.play(b.point(move), s.player + 1);
    return after(b, s, b.point(move), std::make_shared<const go::Past>(go::Past{b.hash(), s.past}));
  }

  // The score for `player` as the board stands, d, into (-1, 1): d / (|d| + points); the utility at the end.
  double evaluate(const State& s, int player) const {
    if (is_terminal(s)) return utility(s, player);
    const double d = player == 0 ? score(s) : -score(s);
    return d / (std::fabs(d) + s.size * s.size);
  }
  uint64_t key(const State& s) const {
    return splitmix(s.past->hash ^ (uint64_t(s.player) << 1) ^ (uint64_t(s.passes) << 2));
  }
  int plies_bound(const State& s) const { return is_terminal(s) ? 0 : -1; }

  // A playout to the end by Board::playout_move (LIGHT) or Board::guided_move (GUIDED) (each player never
  // fills an eye of its own and passes when no other move is left; two passes in a row end it), or for at
  // most PLAYOUT_PLIES_PER_POINT plies
  // a point, a backstop after which the board is scored as it stands: the utilities and the plies played.
  // With `played`, each ply's point (its code; -1 for a pass, which RAVE credits with nothing) is appended.
  static constexpr int PLAYOUT_PLIES_PER_POINT = 4;
  template <class Uniform>
  Playout random_playout(const State& s, Uniform& uniform, std::vector<int>* played = nullptr) const {
    go::Board b(s);
    const int limit = PLAYOUT_PLIES_PER_POINT * s.size * s.size;
    go::Seen seen(s.past.get(), 2 * s.size * s.size);
    int player = s.player, passes = s.passes, plies = 0, last = s.last;
    for (; passes < 2 && plies < limit; ++plies, player ^= 1) {
      const int p = playout_move(b, player + 1, seen, last, uniform);
      if (played) played->push_back(p ? b.code(p) : -1);
      last = p;
      if (!p) {
        ++passes;
        continue;
      }
      b.play(p, player + 1);
      seen.insert(b.hash());
      passes = 0;
    }
    const double d = b.area() - s.komi, u = d > 0 ? 1.0 : d < 0 ? -1.0 : 0.0;
    return Playout{{u, -u}, plies};
  }

  // The playout move of `colour` on board b by the policy, the other's last move on `last` (0: none).
  template <class Uniform>
  int playout_move(const go::Board& b, int colour, const go::Seen& seen, int last, Uniform& uniform) const {
    return policy_ == go::Policy::GUIDED ? b.guided_move(colour, seen, last, uniform)
                                         : b.playout_move(colour, seen, uniform);
  }

 private:
  go::Policy policy_;

  // The state after a move of s's mover on the padded point `point` that left board b (0: a pass), the
  // positions `past`.
  static State after(const go::Board& b, const State& s, int point, std::shared_ptr<const go::Past> past) {
    State t;
    t.size = s.size, t.komi = s.komi, t.player = 1 - s.player, t.passes = point ? 0 : s.passes + 1;
    t.last = point;
    t.captures[0] = b.captures(0), t.captures[1] = b.captures(1);
    for (int r = 0, w = s.size + 2; r < s.size; ++r)
      for (int p = (r + 1) * w + 1; p <= (r + 1) * w + s.size; ++p)
        if (b.colour(p) != go::EMPTY) go::set(t.stones[b.colour(p) - 1], p);
    t.past = std::move(past);
    return t;
  }
};

}  // namespace tactician
