// What a search returns, field for field the Python engine's (engine/result.py): the chosen move, its
// value from the point of view of the perspective player (in the API's units: proven wins and losses as
// +1 and -1 in win/draw/loss games), a proof when there is one, every root move's value and bound, and
// the statistics. The binding turns it into a dict that engine/search/native.py reads.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace tactician {

// Why a search stopped (engine.result's constants).
inline const char* const COMPLETED = "completed";
inline const char* const SOLVED = "solved";
inline const char* const TIME_LIMIT = "time_limit";
inline const char* const ITERATION_LIMIT = "iteration_limit";

// How a root move's value relates to its true value.
enum class Bound { Exact, Lower, Upper, Estimate };

inline const char* bound_name(Bound b) {
  switch (b) {
    case Bound::Exact: return "exact";
    case Bound::Lower: return "lower";
    case Bound::Upper: return "upper";
    default: return "estimate";
  }
}

// Counters every search keeps, as engine.result.Stats defines them: nodes counts visits (a
// transposition hit is a visit, the root included), leaves the nodes valued without expanding them,
// cutoffs the prunings, max_depth the deepest ply visited, depth_completed the deepest finished iteration.
struct Stats {
  uint64_t nodes = 0;
  uint64_t leaves = 0;
  int depth_completed = 0;
  int max_depth = 0;
  uint64_t cutoffs = 0;
  uint64_t tt_hits = 0;
  int64_t iterations = -1;  // MCTS only
  bool timed_out = false;
  std::string stop_reason = COMPLETED;
};

struct MoveValue {
  int move;
  double value;
  Bound bound = Bound::Exact;
  int64_t visits = -1;  // MCTS only
};

// One of the best root moves of a multi-PV search (engine.result.Line, request.multi_pv > 1): the move, its
// exact value from the perspective, its principal variation, and its proof where the search has one.
struct Line {
  int move;
  double value;
  Bound bound = Bound::Exact;
  std::vector<int> pv;
  std::string outcome;    // "win", "draw", "loss" when proven; else empty
  int plies_to_end = -1;  // with a proven outcome, when its distance is known; else -1
  int64_t visits = -1;    // MCTS only
};

struct Result {
  int move = -1;
  double value = 0.0;
  std::string outcome;     // "win", "draw", "loss" for the perspective player when proven; else empty
  int plies_to_end = -1;   // with a proven outcome, when its distance is known; else -1
  std::vector<int> pv;
  std::vector<MoveValue> moves;
  Stats stats;
  std::vector<Line> lines;  // multi-PV only: the request.multi_pv best root moves, best first
};

}  // namespace tactician
