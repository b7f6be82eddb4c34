// Backgammon (engine/games/backgammon.py): the rules, with dice as chance nodes and whole plays as moves,
// and the evaluation, bit for bit the Python game's (the same terms, added in the same order, through the
// same libm).
//
// A state is each side's 26 counts from its own side (0 borne off, 1..24 its points, 25 its bar), the
// player to move and the dice (hi = 0: a chance node, the player is about to roll). A play is one of the
// resulting positions that plays() lists in the Python game's order (larger die first, checkers from the
// back first, each position once, where it was first reached); a move is the play's index in that order.
// The chance outcomes are the 21 rolls in the Python game's order, doubles 1/36, the others 2/36.
// Interface of search/expectiminimax.hpp.
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <iterator>
#include <vector>

#include "backgammon_net_data.hpp"  // generated from engine/games/backgammon_*.txt (native/CMakeLists.txt)
#include "core/weights.hpp"

namespace tactician {

namespace backgammon {

constexpr int CHECKERS = 15, BAR = 25, OFF = 0;
using Side = std::array<int8_t, 26>;

constexpr double ROLL_PIPS = 8.17;  // the mean pips of a roll (backgammon.py)

inline int pips(const Side& side) {
  int total = 0;
  for (int i = 1; i < 26; ++i) total += side[i] * i;
  return total;
}

// 1, 2 (gammon) or 3 (backgammon) points for the winner of a finished game.
inline int winner_points(const Side& loser) {
  if (loser[OFF]) return 1;
  for (int i = 19; i < 26; ++i)
    if (loser[i]) return 3;
  return 2;
}

inline int rearmost(const Side& side) {
  for (int i = 25; i > 0; --i)
    if (side[i]) return i;
  return 0;
}

inline bool contact(const Side& x, const Side& o) { return rearmost(x) + rearmost(o) > 25; }

// The pip count plus wastage (backgammon.py effective_pips).
inline int effective_pips(const Side& s) {
  int count = pips(s);
  count += 2 * std::max(0, s[1] - 1) + std::max(0, s[2] - 1) + std::max(0, s[3] - 3);
  for (int i = 4; i <= 6; ++i) count += s[i] ? 0 : 1;
  return count;
}

inline double turns_to_save(const Side& s) {
  int outside = 0;
  for (int i = 7; i < 26; ++i) outside += (i - 6) * s[i];
  return outside / ROLL_PIPS + 1.0;
}

inline double race_equity(const Side& on_roll, const Side& other) {
  int mine = effective_pips(on_roll), theirs = effective_pips(other);
  double spread = std::sqrt(2.3 * double(mine + theirs)) + 1.0;
  double p = 1.0 / (1.0 + std::exp(-1.7 * (double(theirs - mine) + 4.0) / spread));
  double equity = 2.0 * p - 1.0;
  if (!other[OFF]) equity += 1.0 / (1.0 + std::exp(-2.0 * (turns_to_save(other) - mine / ROLL_PIPS + 1.0)));
  if (!on_roll[OFF]) equity -= 1.0 / (1.0 + std::exp(-2.0 * (turns_to_save(on_roll) - theirs / ROLL_PIPS)));
  return equity;
}

// The nets (engine/games/backgammon_net.py): the weights from the generated arrays, the inputs, the sums and
// the sigmoids in the Python module's order. Net 0 is the default evaluation's contact net, 1 and 2 the
// learned evaluation's contact and race nets.
namespace net {
constexpr int POINT_UNITS = 4, SIDE_INPUTS = 24 * POINT_UNITS + 3, INPUTS = 2 * SIDE_INPUTS, OUTPUTS = 5;
constexpr int MAX_HIDDEN = 512;

// Whether the n numbers at d are a net of the inputs and outputs above and at most MAX_HIDDEN hidden units.
constexpr bool well_formed(const double* d, size_t n) {
  int hidden = int(d[1]);
  return int(d[0]) == INPUTS && int(d[2]) == OUTPUTS && hidden >= 1 && hidden <= MAX_HIDDEN &&
         n == size_t(3 + hidden + INPUTS * hidden + OUTPUTS + hidden * OUTPUTS);
}
static_assert(well_formed(NET_DATA, std::size(NET_DATA)), "the default contact net's sizes");
static_assert(well_formed(LEARNED_CONTACT_DATA, std::size(LEARNED_CONTACT_DATA)), "the learned contact net's sizes");
static_assert(well_formed(LEARNED_RACE_DATA, std::size(LEARNED_RACE_DATA)), "the learned race net's sizes");

struct Net {
  const double* data;
  size_t size;
  uint64_t checksum;  // the weights file's header's
  int hidden;
  const double *hidden_bias, *hidden_w, *output_bias, *output_w;  // hidden_w [INPUTS][hidden], output_w [hidden][OUTPUTS]
};
constexpr Net make(const double* d, size_t n, uint64_t checksum) {
  int h = int(d[1]);
  return {d, n, checksum, h, d + 3, d + 3 + h, d + 3 + h + INPUTS * h, d + 3 + h + INPUTS * h + OUTPUTS};
}
constexpr int DEFAULT_CONTACT = 0, LEARNED_CONTACT = 1, LEARNED_RACE = 2, NETS = 3;
inline const Net& net(int id) {
  static const Net nets[NETS] = {make(NET_DATA, std::size(NET_DATA), NET_DATA_CHECKSUM),
                                 make(LEARNED_CONTACT_DATA, std::size(LEARNED_CONTACT_DATA), LEARNED_CONTACT_DATA_CHECKSUM),
                                 make(LEARNED_RACE_DATA, std::size(LEARNED_RACE_DATA), LEARNED_RACE_DATA_CHECKSUM)};
  return nets[id];
}

// backgammon_net.py checksum: FNV-1a 64 over the numbers' little-endian doubles (this core is little-endian).
inline uint64_t checksum(const Net& n) { return fnv1a64(n.data, n.size * sizeof(double)); }

inline double sigmoid(double x) { return 1.0 / (1.0 + std::exp(-x)); }

// backgammon_net.py side_part: one side's contribution to each hidden sum, its inputs from `offset`.
inline void side_part(const Net& n, const Side& side, int offset, double* part) {
  const int hidden = n.hidden;
  for (int j = 0; j < hidden; ++j) part[j] = 0.0;
  auto add = [&](int i, double value) {
    const double* row = n.hidden_w + (offset + i) * hidden;
    for (int j = 0; j < hidden; ++j) part[j] += value * row[j];
  };
  for (int point = 1; point < 25; ++point) {
    int count = side[point];
    if (!count) continue;
    int base = (point - 1) * POINT_UNITS;
    add(base, 1.0);
    if (count > 1) add(base + 1, 1.0);
    if (count > 2) add(base + 2, 1.0);
    if (count > 3) add(base + 3, (count - 3) / 2.0);
  }
  constexpr int base = 24 * POINT_UNITS;
  if (side[BAR]) add(base, side[BAR] / 2.0);
  if (side[OFF]) add(base + 1, side[OFF] / 15.0);
  if (int total = pips(side)) add(base + 2, total / 100.0);
}

// FNV-1a over a side's counts, going on from the hash h: the key of the caches below.
constexpr uint64_t FNV_OFFSET = 0xCBF29CE484222325ull;
inline uint64_t fnv(uint64_t h, const Side& side) {
  for (int8_t n : side) h = (h ^ uint8_t(n)) * 0x100000001B3ull;
  return h;
}

// One net's side parts of the sides met lately, one table for each side's slot (so that the two parts of
// one evaluation never evict each other), as backgammon_net.py caches them: a search meets the same side
// under many rolls and positions. Direct-mapped on a hash of the counts; each thread its own tables.
class PartCache {
 public:
  explicit PartCache(const Net& n) : net_(n) {
    for (int slot = 0; slot < 2; ++slot) {
      slots_[slot].assign(size_t(1) << BITS, Entry{});
      parts_[slot].assign((size_t(1) << BITS) * n.hidden, 0.0);
    }
  }
  const double* part(const Side& side, int slot) {
    size_t i = fnv(FNV_OFFSET, side) >> (64 - BITS);
    Entry& e = slots_[slot][i];
    double* part = parts_[slot].data() + i * net_.hidden;
    if (!e.used || e.side != side) {
      side_part(net_, side, slot * SIDE_INPUTS, part);
      e.side = side, e.used = true;
    }
    return part;
  }

 private:
  static constexpr int BITS = 11;
  struct Entry {
    Side side{};
    bool used = false;
  };
  const Net& net_;
  std::vector<Entry> slots_[2];
  std::vector<double> parts_[2];
};

// backgammon_net.py Evaluator.equity: net `id`'s equity for the side on roll.
inline double forward(int id, const Side& on_roll, const Side& other) {
  thread_local PartCache caches[NETS] = {PartCache(net(0)), PartCache(net(1)), PartCache(net(2))};
  const Net& n = net(id);
  const double* mine = caches[id].part(on_roll, 0);
  const double* theirs = caches[id].part(other, 1);
  double hidden[MAX_HIDDEN], out[OUTPUTS];
  for (int j = 0; j < n.hidden; ++j) hidden[j] = sigmoid((n.hidden_bias[j] + mine[j]) + theirs[j]);
  for (int k = 0; k < OUTPUTS; ++k) {
    double acc = n.output_bias[k];
    for (int j = 0; j < n.hidden; ++j) acc += hidden[j] * n.output_w[j * OUTPUTS + k];
    out[k] = sigmoid(acc);
  }
  return 2.0 * out[0] - 1.0 + out[1] - out[3] + out[2] - out[4];
}

// The equities of the positions met lately by net `id` (backgammon.py caches equity by board likewise): a
// search evaluates the same board under each of the 21 rolls and again as a move-ordering child.
inline double equity(int id, const Side& on_roll, const Side& other) {
  struct Entry {
    Side on_roll{}, other{};
    bool used = false;
    double value = 0.0;
  };
  constexpr int BITS = 14;
  thread_local std::vector<Entry> entries[NETS] = {std::vector<Entry>(1 << BITS), std::vector<Entry>(1 << BITS),
                                                   std::vector<Entry>(1 << BITS)};
  Entry& e = entries[id][fnv(fnv(FNV_OFFSET, on_roll), other) >> (64 - BITS)];
  if (!e.used || e.on_roll != on_roll || e.other != other) e = {on_roll, other, true, forward(id, on_roll, other)};
  return e.value;
}
}  // namespace net

// The evaluations (backgammon.py NET, LEARNED).
constexpr int NET = 0, LEARNED = 1;

// The expected points of the side on roll, kept inside (-3, 3) (backgammon.py equity).
inline double equity(const Side& x, const Side& o, int turn, int evaluation) {
  const Side& on_roll = turn == 0 ? x : o;
  const Side& other = turn == 0 ? o : x;
  double value;
  if (evaluation == LEARNED)
    value = net::equity(contact(x, o) ? net::LEARNED_CONTACT : net::LEARNED_RACE, on_roll, other);
  else
    value = !contact(x, o) ? race_equity(on_roll, other) : net::equity(net::DEFAULT_CONTACT, on_roll, other);
  return std::max(-2.99, std::min(2.99, value));
}

// Random keys of (side, point, count) for the play finder's position hash (splitmix64 of a counter).
struct Keys {
  uint64_t key[2][26][CHECKERS + 1];
  Keys() {
    uint64_t x = 0x9E3779B97F4A7C15ull;
    for (auto& side : key)
      for (auto& point : side)
        for (uint64_t& k : point) {
          uint64_t z = (x += 0x9E3779B97F4A7C15ull);
          z = (z ^ z >> 30) * 0xBF58476D1CE4E5B9ull;
          z = (z ^ z >> 27) * 0x94D049BB133111EBull;
          k = z ^ z >> 31;
        }
  }
};
inline const Keys& keys() {
  static const Keys* built = new Keys();  // built once, on first use; never freed (static lifetime)
  return *built;
}

// What a play finder leaves: the positions found, and a hash table of them (slots stamped with the call
// that filled them, so that no call clears it), reused from call to call.
struct Found {
  Side me, op;
  int first_die;  // the die of the first step that reached it (0: a pass)
};
struct PlayScratch {
  std::vector<Found> found;
  std::vector<uint32_t> stamps;
  std::vector<int> slots;
  uint32_t now = 0;
};

// The positions one side can reach with its dice (backgammon.py PlayFinder): a depth-first search over the
// steps that keeps the positions reached with the most dice used, each once, in the order first reached.
class PlayFinder {
 public:
  PlayFinder(const Side& me, const Side& op, int high, int low, PlayScratch& scratch)
      : me_(me), op_(op), doubles_(high == low), keys_(keys()), s_(scratch) {
    s_.found.clear();
    if (s_.slots.empty()) s_.slots.assign(1024, 0), s_.stamps.assign(1024, 0);
    fresh();
    for (int i = 0; i < 26; ++i) hash_ ^= keys_.key[0][i][me_[i]] ^ keys_.key[1][i][op_[i]];
    if (doubles_) {
      int left[4] = {high, high, high, high};
      search(left, 4, 0, 24, 0);
    } else {
      int first[2] = {high, low}, second[2] = {low, high};
      search(first, 2, 0, 24, 0);
      search(second, 2, 0, 24, 0);
    }
    std::vector<Found>& found = s_.found;
    if (most_ == 1 && !doubles_ &&
        std::any_of(found.begin(), found.end(), [high](const Found& f) { return f.first_die == high; }))
      found.erase(std::remove_if(found.begin(), found.end(), [high](const Found& f) { return f.first_die != high; }),
                  found.end());
  }

 private:
  void set_me(int i, int count) {
    hash_ ^= keys_.key[0][i][me_[i]] ^ keys_.key[0][i][count];
    me_[i] = int8_t(count);
  }
  void set_op(int i, int count) {
    hash_ ^= keys_.key[1][i][op_[i]] ^ keys_.key[1][i][count];
    op_[i] = int8_t(count);
  }

  // Move one of me's checkers from src by die, if legal: the point reached (0: off) and whether it hit.
  bool step(int src, int die, int& to, bool& hit) {
    to = src - die;
    if (to > 0) {
      int there = op_[25 - to];
      if (there > 1) return false;
      set_me(src, me_[src] - 1), set_me(to, me_[to] + 1);
      hit = there != 0;
      if (hit) set_op(25 - to, 0), set_op(BAR, op_[BAR] + 1);
      return true;
    }
    for (int i = 7; i < 26; ++i)
      if (me_[i]) return false;
    if (to < 0)
      for (int i = src + 1; i < 7; ++i)
        if (me_[i]) return false;
    set_me(src, me_[src] - 1), set_me(OFF, me_[OFF] + 1);
    to = 0, hit = false;
    return true;
  }
  void undo(int src, int to, bool hit) {
    set_me(src, me_[src] + 1), set_me(to, me_[to] - 1);
    if (hit) set_op(25 - to, 1), set_op(BAR, op_[BAR] - 1);
  }

  // A new stamp: every slot is empty again.
  void fresh() {
    if (++s_.now == 0) std::fill(s_.stamps.begin(), s_.stamps.end(), 0), s_.now = 1;
  }

  void record(int used, int first_die) {
    if (used < most_) return;
    std::vector<Found>& found = s_.found;
    if (used > most_) {
      most_ = used;
      found.clear();
      fresh();
    }
    size_t mask = s_.slots.size() - 1;
    for (size_t i = hash_ & mask;; i = (i + 1) & mask) {
      if (s_.stamps[i] != s_.now) {
        s_.stamps[i] = s_.now, s_.slots[i] = int(found.size());
        found.push_back({me_, op_, first_die});
        break;
      }
      const Found& f = found[s_.slots[i]];
      if (f.me == me_ && f.op == op_) return;
    }
    if (found.size() * 2 > s_.slots.size()) grow();
  }

  // Twice the slots, every position found entered again.
  void grow() {
    size_t size = s_.slots.size() * 2, mask = size - 1;
    s_.slots.assign(size, 0), s_.stamps.assign(size, 0), s_.now = 1;
    const Keys& k = keys_;
    for (size_t n = 0; n < s_.found.size(); ++n) {
      uint64_t h = 0;
      for (int i = 0; i < 26; ++i) h ^= k.key[0][i][s_.found[n].me[i]] ^ k.key[1][i][s_.found[n].op[i]];
      size_t i = h & mask;
      while (s_.stamps[i] == s_.now) i = (i + 1) & mask;
      s_.stamps[i] = s_.now, s_.slots[i] = int(n);
    }
  }

  // Play the dice left[at..n) in order from points `top` and below, `at` steps played.
  void search(const int* left, int n, int at, int top, int first_die) {
    int die = left[at];
    bool moved = false;
    int from = me_[BAR] ? BAR : top, to_point = me_[BAR] ? BAR : 1;
    for (int src = from; src >= to_point; --src) {
      if (!me_[src]) continue;
      int to;
      bool hit;
      if (!step(src, die, to, hit)) continue;
      moved = true;
      int first = at == 0 ? die : first_die;
      if (at + 1 < n)
        search(left, n, at + 1, doubles_ ? src : 24, first);
      else
        record(at + 1, first);
      undo(src, to, hit);
    }
    if (!moved) record(at, first_die);
  }

  Side me_, op_;
  bool doubles_;
  int most_ = 0;
  uint64_t hash_ = 0;
  const Keys& keys_;
  PlayScratch& s_;
};

}  // namespace backgammon

class Backgammon {
 public:
  using Side = backgammon::Side;
  struct State {
    Side x, o;
    int8_t turn;
    int8_t high, low;  // the dice once rolled; 0, 0 at a chance node
  };
  struct Outcome {
    State state;
    double probability;
  };
  static constexpr int CHANCE = -1;
  static constexpr int ROLLS = 21;
  static constexpr double LOWEST = -3.0, HIGHEST = 3.0;  // a backgammon lost or won

  explicit Backgammon(int evaluation = backgammon::NET) : evaluation_(evaluation) {}

  int to_move(const State& s) const { return s.high == 0 ? CHANCE : s.turn; }
  bool is_terminal(const State& s) const {
    return s.x[backgammon::OFF] == backgammon::CHECKERS || s.o[backgammon::OFF] == backgammon::CHECKERS;
  }
  double utility(const State& s, int player) const {
    if (s.x[backgammon::OFF] == backgammon::CHECKERS) {
      int points = backgammon::winner_points(s.o);
      return player == 0 ? points : -points;
    }
    if (s.o[backgammon::OFF] == backgammon::CHECKERS) {
      int points = backgammon::winner_points(s.x);
      return player == 1 ? points : -points;
    }
    return 0.0;
  }
  // The expected points of `player`; exact at the end of the game. The dice are not looked at.
  double evaluate(const State& s, int player) const {
    if (is_terminal(s)) return utility(s, player);
    double value = backgammon::equity(s.x, s.o, s.turn, evaluation_);
    return player == s.turn ? value : -value;
  }

  // The states after each legal play of the player to move (dice set), in the Python game's order; a pass
  // is the one play when no checker can move.
  void children(const State& s, std::vector<State>& out) const {
    const Side& me = s.turn == 0 ? s.x : s.o;
    const Side& op = s.turn == 0 ? s.o : s.x;
    backgammon::PlayFinder(me, op, s.high, s.low, plays_);
    out.clear();
    for (const auto& f : plays_.found) {
      if (s.turn == 0)
        out.push_back({f.me, f.op, 1, 0, 0});
      else
        out.push_back({f.op, f.me, 0, 0, 0});
    }
  }
  // The 21 rolls in the Python game's order (high die first), with their probabilities.
  void outcomes(const State& s, Outcome* out) const {
    int n = 0;
    for (int a = 6; a >= 1; --a)
      for (int b = a; b >= 1; --b) {
        State rolled = s;
        rolled.high = int8_t(a), rolled.low = int8_t(b);
        out[n++] = {rolled, (a == b ? 1 : 2) / 36.0};
      }
  }
  // The indices of `children` (of `s`) best first for the mover, by the evaluation of each, ties in their
  // order (the Python game's ordered_actions: a stable sort on the negated evaluation).
  void order(const State& s, const std::vector<State>& children, std::vector<int>& out) const {
    out.resize(children.size());
    for (size_t i = 0; i < children.size(); ++i) out[i] = int(i);
    if (children.size() < 2) return;
    keys_.resize(children.size());
    for (size_t i = 0; i < children.size(); ++i) keys_[i] = -evaluate(children[i], s.turn);
    std::stable_sort(out.begin(), out.end(), [this](int a, int b) { return keys_[a] < keys_[b]; });
  }

 private:
  int evaluation_;                         // backgammon::NET or LEARNED
  mutable backgammon::PlayScratch plays_;  // scratch of children()
  mutable std::vector<double> keys_;                        // scratch of order()
};

}  // namespace tactician
