// English checkers' compiled core: the "checkers" search entry, and the rules and knowledge for the
// equivalence tests (tests/native/test_checkers_native.py). A state comes from Python as
// Checkers.native_state(state): (black, white, kings, turn, history, no_progress_plies, man_move_resets), the
// boards in checkers.py's ghost layout and the history its positions (black, white, kings, turn), oldest
// first. Refused (the Python core runs them): no_progress_plies above checkers::MAX_TAIL (a state holds at
// most that many earlier positions).
#include <algorithm>
#include <stdexcept>
#include <utility>
#include <vector>

#include <nanobind/stl/vector.h>

#include "bindings/common.hpp"
#include "games/checkers.hpp"
#include "search/dispatch.hpp"

namespace tactician {
namespace {

using State = Checkers::State;

struct Position {
  uint64_t black, white, kings;
  int turn;
};

Position position_of(nb::handle value) {
  auto t = nb::cast<nb::tuple>(value);
  if (t.size() != 4) throw std::invalid_argument("a checkers position is (black, white, kings, turn)");
  Position p{nb::cast<uint64_t>(t[0]), nb::cast<uint64_t>(t[1]), nb::cast<uint64_t>(t[2]), nb::cast<int>(t[3])};
  using checkers::ON_BOARD;
  if ((p.black | p.white) & ~ON_BOARD || p.black & p.white || p.kings & ~(p.black | p.white) ||
      (p.turn != 0 && p.turn != 1) || checkers::popcount(p.black) > 12 || checkers::popcount(p.white) > 12)
    throw std::invalid_argument("not a checkers position: pieces off the 32 squares, two on one, a king without "
                                "a piece, more than 12 a side, or no player 0 or 1");
  return p;
}

// The game (its draw options) and the state of a native state: the tail is the history's last positions
// with the current men, their turns alternating back from the current one.
std::pair<Checkers, State> decode(nb::handle state) {
  auto t = nb::cast<nb::tuple>(state);
  if (t.size() != 7)
    throw std::invalid_argument("a checkers native state is (black, white, kings, turn, history, "
                                "no_progress_plies, man_move_resets)");
  const Position now = position_of(nb::make_tuple(t[0], t[1], t[2], t[3]));
  Checkers game(nb::cast<int>(t[5]), nb::cast<bool>(t[6]));
  auto history = nb::cast<nb::sequence>(t[4]);
  const size_t length = nb::len(history);
  if (length > size_t(game.limit())) throw std::invalid_argument("a checkers history is at most no_progress_plies long");
  State s;
  s.black = now.black, s.white = now.white, s.kings = now.kings, s.turn = now.turn, s.counted = int(length);
  const uint64_t men = Checkers::men(now.black, now.white, now.kings);
  size_t since = length;
  std::vector<Position> positions;
  for (size_t i = 0; i < length; ++i) positions.push_back(position_of(history[i]));
  while (since > 0 && Checkers::men(positions[since - 1].black, positions[since - 1].white, positions[since - 1].kings) == men)
    --since;
  if (length - since > size_t(checkers::MAX_TAIL))
    throw std::invalid_argument("more earlier positions with the current men than a native state holds");
  for (size_t i = since; i < length; ++i) {
    const Position& p = positions[i];
    if (p.turn != (now.turn ^ int((length - i) & 1)))
      throw std::invalid_argument("a checkers history alternates the player to move, ply by ply");
    const uint64_t e = Checkers::entry(p.black, p.white, p.kings);
    s.tail[s.tail_length++] = e;
    s.tail_hash += Checkers::entry_hash(e, p.turn);
  }
  game.complete(s);
  return {game, s};
}

// The state as its fields: (black, white, kings, turn, plies counted, drawn, tail, key).
nb::tuple encode(const Checkers& game, const State& s) {
  return nb::make_tuple(s.black, s.white, s.kings, s.turn, s.counted, s.drawn,
                        std::vector<uint64_t>(s.tail, s.tail + s.tail_length), game.key(s));
}

Result search(nb::handle state, const Request& request, const Budget& budget) {
  auto [game, s] = decode(state);
  nb::gil_scoped_release release;
  return run_search(game, s, request, budget);
}

const char* refusal(nb::handle state, const Request&) {
  auto t = nb::cast<nb::tuple>(state);
  if (t.size() == 7 && nb::cast<int>(t[5]) > checkers::MAX_TAIL)
    return "no native checkers search with no_progress_plies above 128 (a native state holds at most 128 earlier "
           "positions): not native yet";
  return nullptr;
}

std::vector<int> listed(int (Checkers::*list)(const State&, int*) const, nb::handle state) {
  auto [game, s] = decode(state);
  int moves[Checkers::MAX_MOVES];
  return std::vector<int>(moves, moves + (game.*list)(s, moves));
}

}  // namespace

void bind_checkers(nb::module_& m, Entries& entries) {
  entries["checkers"] = Entry(&search, &refusal);
  checkers::KingsTable::get();   // built here, at import (as checkers_kings.py's), so that no search pays for it
  m.def("checkers_state", [](nb::handle s) {
    auto [game, state] = decode(s);
    return encode(game, state);
  }, "(black, white, kings, turn, plies counted, drawn, tail, key) of a native state.");
  m.def("checkers_result", [](nb::handle s, int move) {
    auto [game, state] = decode(s);
    int moves[Checkers::MAX_MOVES], n = game.actions(state, moves);
    if (std::find(moves, moves + n, move) == moves + n) throw std::invalid_argument("not a legal move");
    return encode(game, game.result(state, move));
  });
  m.def("checkers_actions", [](nb::handle s) { return listed(&Checkers::actions, s); });
  m.def("checkers_ordered_actions", [](nb::handle s) { return listed(&Checkers::ordered_actions, s); });
  m.def("checkers_is_terminal", [](nb::handle s) {
    auto [game, state] = decode(s);
    return game.is_terminal(state);
  });
  m.def("checkers_evaluate", [](nb::handle s, int player) {
    auto [game, state] = decode(s);
    return game.evaluate(state, player);
  });
  m.def("checkers_utility", [](nb::handle s, int player) {
    auto [game, state] = decode(s);
    return game.utility(state, player);
  });
  m.def("checkers_plies_bound", [](nb::handle s) {
    auto [game, state] = decode(s);
    return game.plies_bound(state);
  });
  m.def("checkers_perft", [](nb::handle s, int depth) {
    auto [game, state] = decode(s);
    nb::gil_scoped_release release;
    return perft(game, state, depth);
  }, "The number of move sequences of `depth` plies from `s` (shorter where the game ends).");
  m.def("checkers_kings_table", []() {
    nb::dict table;
    const auto& kings = checkers::KingsTable::get();
    for (int i = 0; i < 32; ++i)
      for (int j = i + 1; j < 32; ++j)
        for (int one = 0; one < 32; ++one)
          for (int side = 0; side < 2; ++side) {
            const int plies = kings.plies(i, j, one, side);
            if (plies >= 0)
              table[nb::make_tuple(checkers::ghost_of_index(i) | checkers::ghost_of_index(j),
                                   checkers::ghost_of_index(one), side)] = plies;
          }
    return table;
  }, "The two-kings table as checkers_kings.table() gives it: {(two kings, lone king, side to move): plies}.");
}

}  // namespace tactician
