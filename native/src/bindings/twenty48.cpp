// 2048's compiled core: the "2048" search entry (expectimax), and the rules for the equivalence tests
// (tests/native/test_twenty48_native.py). A state comes from Python as Twenty48.native_state(state): the
// triple (board, chance, tiles), the board without the chance flag, whether it is an afterstate, and the
// spawn tiles ((exponent, probability), ...) of the request.
#include <stdexcept>
#include <vector>

#include <nanobind/stl/vector.h>

#include "bindings/common.hpp"
#include "games/twenty48.hpp"
#include "search/expectimax.hpp"

namespace tactician {
namespace {

using State = Twenty48::State;

struct Decoded {
  Twenty48 game;
  State state;
};

Decoded decode(nb::handle py_state) {
  auto triple = nb::cast<nb::tuple>(py_state);
  if (triple.size() != 3) throw std::invalid_argument("a 2048 native state is the triple (board, chance, tiles)");
  std::vector<Twenty48::Tile> tiles;
  for (nb::handle tile : nb::cast<nb::tuple>(triple[2])) {
    auto pair = nb::cast<nb::tuple>(tile);
    tiles.push_back({nb::cast<int>(pair[0]), nb::cast<double>(pair[1])});
  }
  return {Twenty48(std::move(tiles)), {nb::cast<uint64_t>(triple[0]), nb::cast<bool>(triple[1])}};
}

nb::tuple encode(const State& s) { return nb::make_tuple(s.board, s.chance); }

// The searches this core refuses, which the Python core runs (or rejects, naming the field).
const char* refusal(nb::handle py_state, const Request& request) {
  if (request.algorithm != "expectimax") return "the compiled core runs expectimax on 2048; not native yet";
  if (decode(py_state).state.chance) return "at a chance node nobody chooses: the python core says so";
  if (request.utility != "linear") return "expectimax's utility transforms run on the python core; not native yet";
  if (request.opponent_model) return "2048 has no opponent: the python core reads opponent_model and epsilon";
  return nullptr;
}

Result search(nb::handle py_state, const Request& request, const Budget& budget) {
  Decoded d = decode(py_state);
  nb::gil_scoped_release release;
  if (d.game.is_terminal(d.state)) throw std::invalid_argument("the game is over: no move to search");
  return expectimax(d.game, d.state, request, budget);
}

}  // namespace

void bind_twenty48(nb::module_& m, Entries& entries) {
  entries["2048"] = Entry(&search, &refusal);
  m.def("twenty48_actions", [](nb::handle s) {
    Decoded d = decode(s);
    int moves[Twenty48::MAX_MOVES];
    return std::vector<int>(moves, moves + d.game.actions(d.state, moves));
  }, "A player's moves, 0-3 for up, down, left, right, where they change the board.");
  m.def("twenty48_result", [](nb::handle s, int move) {
    Decoded d = decode(s);
    if (move < 0 || move >= Twenty48::MAX_MOVES) throw std::invalid_argument("a 2048 move is 0-3");
    return encode(d.game.result(d.state, move));
  });
  m.def("twenty48_outcomes", [](nb::handle s) {
    Decoded d = decode(s);
    if (!d.state.chance) throw std::invalid_argument("only an afterstate has spawns");
    std::vector<Twenty48::Outcome> out(d.game.max_outcomes());
    int n = d.game.outcomes(d.state, out.data());
    nb::list listed;
    for (int i = 0; i < n; ++i) listed.append(nb::make_tuple(encode(out[i].state), out[i].probability));
    return listed;
  }, "A chance node's spawns: ((board, chance), probability), in the Python game's order.");
  m.def("twenty48_is_terminal", [](nb::handle s) { Decoded d = decode(s); return d.game.is_terminal(d.state); });
  m.def("twenty48_evaluate", [](nb::handle s) { Decoded d = decode(s); return d.game.evaluate(d.state); });
  m.def("twenty48_utility", [](nb::handle s) { Decoded d = decode(s); return d.game.utility(d.state); });
}

}  // namespace tactician
