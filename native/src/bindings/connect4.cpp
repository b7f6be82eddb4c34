// Connect Four's compiled core: the "connect4" search entry, and the rules for the equivalence tests
// (tests/native/test_connect4_native.py). A state comes from Python as Connect4.native_state(state): the
// pair (current, mask), the stones of the player to move and all stones; the rest follows from them.
#include <stdexcept>
#include <vector>

#include <nanobind/stl/vector.h>

#include "bindings/common.hpp"
#include "games/connect4.hpp"
#include "search/dispatch.hpp"

namespace tactician {
namespace {

using State = Connect4::State;
const Connect4 GAME;

State decode(nb::handle state) {
  auto pair = nb::cast<nb::tuple>(state);
  if (pair.size() != 2) throw std::invalid_argument("a connect4 native state is the pair (current, mask)");
  uint64_t current = nb::cast<uint64_t>(pair[0]), mask = nb::cast<uint64_t>(pair[1]);
  if ((mask & ~Connect4::BOARD) || (current & ~mask) || (mask & ~(mask << 1) & ~Connect4::BOTTOM))
    throw std::invalid_argument("not a connect4 position: stones off the board or floating");
  return Connect4::from_boards(current, mask);
}

// The state as engine/games/connect4.py's tuple: (current, mask, ply, status, mine, theirs, key).
nb::tuple encode(const State& s) {
  return nb::make_tuple(s.current, s.mask, s.ply, int(s.status), s.mine, s.theirs, GAME.key(s));
}

Result search(nb::handle state, const Request& request, const Budget& budget) {
  State s = decode(state);
  nb::gil_scoped_release release;
  return run_search(GAME, s, request, budget);
}

std::vector<int> listed(int (Connect4::*list)(const State&, int*) const, const State& s) {
  int moves[Connect4::MAX_MOVES];
  return std::vector<int>(moves, moves + (GAME.*list)(s, moves));
}

nb::object optional_move(int move) { return move < 0 ? nb::object(nb::none()) : nb::object(nb::int_(move)); }

}  // namespace

void bind_connect4(nb::module_& m, Entries& entries) {
  entries["connect4"] = &search;
  m.def("connect4_state", [](nb::handle s) { return encode(decode(s)); },
        "The full state tuple of engine/games/connect4.py for a native state.");
  m.def("connect4_result", [](nb::handle s, int move) { return encode(GAME.result(decode(s), move)); });
  m.def("connect4_actions", [](nb::handle s) { return listed(&Connect4::actions, decode(s)); });
  m.def("connect4_ordered_actions", [](nb::handle s) { return listed(&Connect4::ordered_actions, decode(s)); });
  m.def("connect4_safe_children", [](nb::handle s) {
    Connect4::Child children[Connect4::MAX_MOVES];
    int n = GAME.safe_children(decode(s), children);
    nb::list out;
    for (int i = 0; i < n; ++i)
      out.append(nb::make_tuple(children[i].score, children[i].move, encode(children[i].state)));
    return out;
  });
  m.def("connect4_immediate_win", [](nb::handle s) { return optional_move(GAME.immediate_win(decode(s))); });
  m.def("connect4_has_safe_move", [](nb::handle s) { return GAME.has_safe_move(decode(s)); });
  m.def("connect4_outcome_bounds", [](nb::handle s) -> nb::object {
    double lowest, highest;
    if (!GAME.outcome_bounds(decode(s), lowest, highest)) return nb::none();
    return nb::make_tuple(lowest, highest);
  });
  m.def("connect4_evaluate", [](nb::handle s, int player) { return GAME.evaluate(decode(s), player); });
  m.def("connect4_utility", [](nb::handle s, int player) { return GAME.utility(decode(s), player); });
  bind_random_playout(m, "connect4_random_playout", GAME, decode);
  bind_perft(m, "connect4_perft", GAME, decode);
}

}  // namespace tactician
