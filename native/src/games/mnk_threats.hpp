// Threat-space search for the m,n,k-game (engine/games/tictactoe/threats.py, and tictactoe/__init__.py's threat_win and
// threat_defences): wins by continuous fours and threes, searched in the same order, with the same memory of
// failed positions, the same budgets and the same count of visited positions, so that the lines and the
// node counts are Python's. See the Python module for the words (window, four, three, completion, critical).
#pragma once

#include <algorithm>
#include <optional>
#include <unordered_map>
#include <utility>
#include <vector>

#include "core/budget.hpp"
#include "core/result.hpp"
#include "games/mnk.hpp"

namespace tactician {

template <int W>
class MnkThreats {
 public:
  using G = Mnk<W>;
  using B = typename G::B;
  using Line = std::vector<int>;
  static constexpr int THREES = 3, THREAT_BUDGET = 20000, REFUTATION_BUDGET = 5000;
  static constexpr uint64_t POLL_MASK = 7;  // the budget is checked every 8 positions
  struct Exhausted {};                      // a search visited its budget of positions

  explicit MnkThreats(const G& game) : game_(game), k_(game.k) {}

  // tictactoe/__init__.py's threat_win: a win by continuous threats for the player to move, or none (also when
  // the search runs out of positions). Adds the positions visited to stats.nodes; lets Timeout through.
  std::optional<Line> threat_win(const typename G::State& s, const Budget& budget, Stats& stats) const {
    auto [mine, theirs] = marks(s);
    try {
      return win(mine, theirs, THREES, THREAT_BUDGET, budget, stats);
    } catch (const Exhausted&) {
      return std::nullopt;
    }
  }

  // tictactoe/__init__.py's threat_defences: when the opponent would win by threats, the critical cells after which
  // its search finds no win, most promising first; else those where it ran out (undecided, and after a
  // Timeout every cell not yet checked); none when the opponent has no such win.
  std::optional<Line> threat_defences(const typename G::State& s, const Budget& budget, Stats& stats) const {
    auto [mine, theirs] = marks(s);
    std::optional<Line> line;
    try {
      line = win(theirs, mine, THREES, THREAT_BUDGET, budget, stats);
    } catch (const Exhausted&) {
      return std::nullopt;
    }
    if (!line) return std::nullopt;
    Line cells, defences, undecided;
    critical(*line, theirs, mine).each([&](int c) { cells.push_back(c); });
    std::sort(cells.begin(), cells.end(), [&](int a, int b) { return game_.rank_of(a) < game_.rank_of(b); });
    for (size_t i = 0; i < cells.size(); i++) {
      B after = mine | B::cell(cells[i]);
      B forced = completions(after, theirs, cells[i]);
      if (forced.several()) forced = B();  // two to block: the opponent wins at once or loses
      try {
        if (!win(theirs | forced, after, THREES, REFUTATION_BUDGET, budget, stats)) defences.push_back(cells[i]);
      } catch (const Exhausted&) {
        undecided.push_back(cells[i]);
      } catch (const Timeout&) {
        undecided.insert(undecided.end(), cells.begin() + i, cells.end());
        break;
      }
    }
    return defences.empty() ? undecided : defences;
  }

 private:
  const G& game_;
  int k_;

  std::pair<B, B> marks(const typename G::State& s) const { return s.ply & 1 ? std::pair{s.o, s.x} : std::pair{s.x, s.o}; }

  // Threats.completions: the empty cells that complete a window through `cell` for `player`.
  B completions(const B& player, const B& other, int cell) const {
    B found;
    game_.each_window_through(cell, [&](const B& w) {
      if (!(w & other).any() && (w & player).count() == k_ - 1) found |= w & ~player;
    });
    return found;
  }

  // Threats.critical: the defender moves that may stop the attacker's winning `line`.
  B critical(const Line& line, const B& mine, const B& theirs) const {
    B cells, replies;
    for (size_t i = 0; i < line.size(); i++) {
      cells.set(line[i]);
      if (i & 1) replies.set(line[i]);
    }
    typename G::Counts counts;
    game_.by_count(theirs | replies, mine, counts);
    B empty = game_.board() & ~(mine | theirs);
    return (cells | game_.covered(counts, k_ - 2, empty) | game_.covered(counts, k_ - 1, empty)) & empty;
  }

  // Threats.win: with at most `depth` threes, fewer first; positions visited added to stats.nodes however
  // it ends (the root at least).
  std::optional<Line> win(const B& mine, const B& theirs, int depth, int budget, const Budget& clock,
                          Stats& stats) const {
    if (k_ < 3) return std::nullopt;
    Search search{*this, budget, clock, 0, {}};
    struct Count {  // Python's finally
      Search& s;
      Stats& stats;
      ~Count() { stats.nodes += std::max<uint64_t>(s.visited, 1); }
    } count{search, stats};
    B empty = game_.board() & ~(mine | theirs);
    typename G::Counts own, defender;
    game_.by_count(mine, theirs, own);
    B wins = game_.covered(own, k_ - 1, empty);
    if (wins.any()) return Line{wins.lowest()};
    game_.by_count(theirs, mine, defender);
    B blocks = game_.covered(defender, k_ - 1, empty);
    for (int threes = 0; threes <= depth; threes++)
      if (auto line = search.attack(mine, theirs, threes, blocks)) return line;
    return std::nullopt;
  }

  struct Hash {
    size_t operator()(const std::pair<B, B>& p) const {
      uint64_t h = 0;
      for (int i = 0; i < W; i++) h = (h ^ p.first.w[i]) * 0x9E3779B97F4A7C15ULL ^ p.second.w[i] * 0xC2B2AE3D27D4EB4FULL;
      return size_t(h ^ h >> 31);
    }
  };

  // One search's budget and its memory of the positions it found no win from (Python's Search).
  struct Search {
    const MnkThreats& t;
    int budget;
    const Budget& clock;
    uint64_t visited = 0;
    std::unordered_map<std::pair<B, B>, int, Hash> failed;  // the most threes that failed there

    std::optional<Line> attack(const B& mine, const B& theirs, int threes, const B& blocks) {
      if (++visited > uint64_t(budget)) throw Exhausted{};
      if ((visited & POLL_MASK) == 0) clock.check();
      auto key = std::pair{mine, theirs};
      auto seen = failed.find(key);
      if (blocks.several() || (seen != failed.end() && seen->second >= threes)) return std::nullopt;
      const G& game = t.game_;
      int k = t.k_;
      B empty = game.board() & ~(mine | theirs);
      typename G::Counts own;
      game.by_count(mine, theirs, own);
      B fours = game.covered(own, k - 2, empty);
      B moves = fours | (threes ? game.covered(own, k - 3, empty) : B());
      if (blocks.any()) moves &= blocks;
      for (B left = moves; left.any();) {
        int a = left.pop();
        B after = mine | B::cell(a);
        auto line = fours.test(a) ? four(a, after, theirs, threes, blocks) : three(a, after, theirs, threes, blocks);
        if (line) return line;
      }
      failed[key] = threes;
      return std::nullopt;
    }

    std::optional<Line> reply(const B& mine, const B& theirs, int cell, int threes, const B& blocks) {
      B after = theirs | B::cell(cell);
      return attack(mine, after, threes, (blocks & ~B::cell(cell)) | t.completions(after, mine, cell));
    }

    std::optional<Line> four(int a, const B& after, const B& theirs, int threes, const B& blocks) {
      B made = t.completions(after, theirs, a);
      int block = made.lowest();
      if (made.several()) return Line{a, block, (made & ~B::cell(block)).lowest()};
      auto line = reply(after, theirs, block, threes, blocks & ~B::cell(a));
      if (!line) return std::nullopt;
      line->insert(line->begin(), {a, block});
      return line;
    }

    std::optional<Line> three(int a, const B& after, const B& theirs, int threes, B blocks) {
      blocks &= ~B::cell(a);
      auto follow = attack(after, theirs, 0, blocks);
      if (!follow) return std::nullopt;
      B on_line;
      for (int c : *follow) on_line.set(c);
      Line tries = *follow;
      (t.critical(*follow, after, theirs) & ~on_line).each([&](int c) { tries.push_back(c); });
      std::optional<Line> longest;
      for (int cell : tries) {
        auto line = reply(after, theirs, cell, threes - 1, blocks);
        if (!line) return std::nullopt;
        if (!longest || line->size() + 1 > longest->size()) {
          line->insert(line->begin(), cell);
          longest = std::move(line);
        }
      }
      longest->insert(longest->begin(), a);
      return longest;
    }
  };
};

}  // namespace tactician
