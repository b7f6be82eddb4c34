// Othello's learned evaluation, engine/games/othello/patterns.py entry for entry: the same patterns, their
// instances under the board's eight symmetries in the same order, the same slots, and the same integer sums,
// so that both cores give the same doubles. The tables are engine/games/othello/othello_patterns.txt,
// embedded at build time (native/CMakeLists.txt) with its header's checksum, which the core verifies.
#pragma once
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <iterator>
#include <utility>
#include <vector>

#include "core/weights.hpp"
#include "othello_patterns_data.hpp"  // generated from engine/games/othello/othello_patterns.txt

namespace tactician::othello::patterns {

constexpr int ANCHORS[] = {48, 36, 24, 12};
constexpr int N_ANCHORS = 4, STEP = 12, UNIT = 32, MOBILITY_CLIP = 20;
constexpr double SQUASH = 32.0;

using Square = std::pair<int, int>;  // (row, column), row 0 the top

// patterns.py PATTERNS, in its order.
inline std::vector<std::vector<Square>> base_patterns() {
  std::vector<std::vector<Square>> out;
  std::vector<Square> edge;
  for (int c = 0; c < 8; ++c) edge.push_back({0, c});
  edge.push_back({1, 1}), edge.push_back({1, 6});
  out.push_back(edge);
  std::vector<Square> corner;
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 3; ++c) corner.push_back({r, c});
  out.push_back(corner);
  for (int r = 1; r <= 3; ++r) {
    std::vector<Square> row;
    for (int c = 0; c < 8; ++c) row.push_back({r, c});
    out.push_back(row);
  }
  for (int offset = 0; offset <= 4; ++offset) {
    std::vector<Square> diagonal;
    for (int i = 0; i + offset < 8; ++i) diagonal.push_back({i, i + offset});
    out.push_back(diagonal);
  }
  return out;
}

// patterns.py SYMMETRIES, in its order.
inline Square symmetry(int k, Square sq) {
  auto [r, c] = sq;
  switch (k) {
    case 0: return {r, c};
    case 1: return {r, 7 - c};
    case 2: return {7 - r, c};
    case 3: return {7 - r, 7 - c};
    case 4: return {c, r};
    case 5: return {c, 7 - r};
    case 6: return {7 - c, r};
    default: return {7 - c, 7 - r};
  }
}

inline std::vector<std::vector<int>> orderings(const std::vector<Square>& squares) {
  std::vector<std::vector<int>> out;
  for (int k = 0; k < 8; ++k) {
    std::vector<int> ordering;
    for (Square sq : squares) {
      Square image = symmetry(k, sq);
      ordering.push_back(8 * image.first + image.second);
    }
    out.push_back(ordering);
  }
  return out;
}

inline std::vector<int> sorted_copy(std::vector<int> v) {
  std::sort(v.begin(), v.end());
  return v;
}

struct Layout {
  std::vector<std::vector<int>> instances;  // each instance's squares, in reading order
  std::vector<int> instance_table;          // the table valuing each instance
  std::vector<std::vector<int>> slot_of;    // per pattern, each configuration's slot
  std::vector<int> offset;                  // where each table starts in an anchor's row
  int row = 0;                              // an anchor's slots, every table's
};

// patterns.py slots: a configuration's slot is the rank of the smallest configuration its pattern's own
// symmetries map it to, among those that are their own smallest.
inline std::vector<int> pattern_slots(const std::vector<Square>& squares, int* count) {
  const auto all = orderings(squares);
  const int n = int(squares.size());
  std::vector<std::vector<int>> perms;  // positions: reading `o` reads position perm[k] as position k
  for (const auto& o : all) {
    if (sorted_copy(o) != sorted_copy(all[0])) continue;
    std::vector<int> perm;
    for (int sq : o) perm.push_back(int(std::find(all[0].begin(), all[0].end(), sq) - all[0].begin()));
    perms.push_back(perm);
  }
  int size = 1;
  for (int k = 0; k < n; ++k) size *= 3;
  std::vector<int> smallest(size), digits(n), slot(size);
  for (int idx = 0; idx < size; ++idx) {
    for (int k = 0, x = idx; k < n; ++k, x /= 3) digits[k] = x % 3;
    int best = idx;
    for (const auto& p : perms) {
      int value = 0;
      for (int k = n - 1; k >= 0; --k) value = 3 * value + digits[p[k]];
      best = std::min(best, value);
    }
    smallest[idx] = best;
  }
  int rank = 0;
  std::vector<int> rank_of(size, -1);
  for (int idx = 0; idx < size; ++idx)
    if (smallest[idx] == idx) rank_of[idx] = rank++;
  for (int idx = 0; idx < size; ++idx) slot[idx] = rank_of[smallest[idx]];
  *count = rank;
  return slot;
}

inline Layout make_layout() {
  Layout layout;
  const auto patterns = base_patterns();
  std::vector<int> sizes;
  for (size_t t = 0; t < patterns.size(); ++t) {
    std::vector<std::vector<int>> seen;
    for (const auto& o : orderings(patterns[t])) {
      if (std::find(seen.begin(), seen.end(), sorted_copy(o)) != seen.end()) continue;
      seen.push_back(sorted_copy(o));
      layout.instances.push_back(o);
      layout.instance_table.push_back(int(t));
    }
    int count = 0;
    layout.slot_of.push_back(pattern_slots(patterns[t], &count));
    sizes.push_back(count);
  }
  sizes.push_back(2 * MOBILITY_CLIP + 1), sizes.push_back(2);
  for (int size : sizes) layout.offset.push_back(layout.row), layout.row += size;
  return layout;
}

inline const Layout& layout() {
  static const Layout instance = make_layout();
  return instance;
}

inline uint64_t checksum() { return fnv1a64(DATA, sizeof DATA); }
inline bool embedded_whole() { return std::size(DATA) == size_t(N_ANCHORS) * size_t(layout().row); }

// patterns.py anchor_weights: up to two (anchor, weight) pairs, weights summing to STEP; returns how many.
inline int anchor_weights(int empties, int anchor[2], int weight[2]) {
  if (empties >= ANCHORS[0]) return anchor[0] = 0, weight[0] = STEP, 1;
  for (int j = 0; j + 1 < N_ANCHORS; ++j) {
    if (empties > ANCHORS[j + 1]) {
      const int t = ANCHORS[j] - empties;
      anchor[0] = j, weight[0] = STEP - t;
      if (!t) return 1;
      anchor[1] = j + 1, weight[1] = t;
      return 2;
    }
  }
  return anchor[0] = N_ANCHORS - 1, weight[0] = STEP, 1;
}

// patterns.py features: the global slot (table offset + slot) of each feature of the side to move's position.
inline int features(uint64_t me, uint64_t them, int mobility, int empties, int* out) {
  const Layout& l = layout();
  int n = 0;
  for (size_t i = 0; i < l.instances.size(); ++i) {
    const auto& squares = l.instances[i];
    int idx = 0;
    for (auto it = squares.rbegin(); it != squares.rend(); ++it)
      idx = 3 * idx + int(me >> *it & 1) + 2 * int(them >> *it & 1);
    const int t = l.instance_table[i];
    out[n++] = l.offset[t] + l.slot_of[t][idx];
  }
  const int tables = int(l.slot_of.size());
  out[n++] = l.offset[tables] + std::clamp(mobility, -MOBILITY_CLIP, MOBILITY_CLIP) + MOBILITY_CLIP;
  out[n++] = l.offset[tables + 1] + (empties & 1);
  return n;
}

// patterns.py raw: the estimate in units of 1 / (STEP * UNIT) disc.
inline int64_t raw(uint64_t me, uint64_t them, int mobility, int empties) {
  int found[64], anchor[2], weight[2];
  const int n = features(me, them, mobility, empties, found);
  const int anchors = anchor_weights(empties, anchor, weight);
  int64_t total = 0;
  for (int a = 0; a < anchors; ++a) {
    const int16_t* row = DATA + size_t(anchor[a]) * size_t(layout().row);
    int64_t sum = 0;
    for (int f = 0; f < n; ++f) sum += row[found[f]];
    total += weight[a] * sum;
  }
  return total;
}

// patterns.py evaluate_for_mover: d / (|d| + SQUASH), d the estimated final disc difference.
inline double evaluate_for_mover(uint64_t me, uint64_t them, int mobility, int empties) {
  const double d = double(raw(me, them, mobility, empties)) / double(STEP * UNIT);
  return d / (std::fabs(d) + SQUASH);
}

}  // namespace tactician::othello::patterns
