// Go's compiled core: the "go" search entry (MCTS with random playouts, games/go.hpp's; RAVE with the
// settings rave and rave_equivalence, and the playout policy with `playout`, "light" or "guided", which
// only the compiled core reads), and the rules for the tests
// (tests/native/test_go_native.py). A state comes from Python as engine/games/go's
// native_state(state): (size, komi, setup_black, setup_white, move_codes), the points of the setup stones
// and the moves since (codes row * size + col, PASS size * size), Black first; the core replays them.
#include <algorithm>
#include <stdexcept>
#include <string>
#include <vector>

#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include "bindings/common.hpp"
#include "games/go.hpp"
#include "search/dispatch.hpp"

namespace tactician {
namespace {

using State = Go::State;
const Go GAME, GUIDED(go::Policy::GUIDED);
constexpr go::Policy DEFAULT_POLICY = go::Policy::LIGHT;  // the searches' without a `playout` setting

// The game whose playouts follow `playout` ("light", "guided"; "": DEFAULT_POLICY's); std::invalid_argument
// for another name.
const Go& with_playouts(const std::string& playout) {
  if (playout == "light") return GAME;
  if (playout == "guided") return GUIDED;
  if (playout.empty()) return DEFAULT_POLICY == go::Policy::GUIDED ? GUIDED : GAME;
  throw std::invalid_argument("go's playout is 'light' or 'guided'");
}

State decode(nb::handle state) {
  auto tuple = nb::cast<nb::tuple>(state);
  if (tuple.size() != 5)
    throw std::invalid_argument("a go native state is (size, komi, setup_black, setup_white, move_codes)");
  return Go::replay(nb::cast<int>(tuple[0]), nb::cast<double>(tuple[1]), nb::cast<std::vector<int>>(tuple[2]),
                    nb::cast<std::vector<int>>(tuple[3]), nb::cast<std::vector<int>>(tuple[4]));
}

// (board, to_move, (Black's captures, White's), over): the board a value a point in code order, 0 empty,
// 1 Black, 2 White.
nb::tuple encode(const State& s) {
  const go::Board b(s);
  nb::list points;
  for (int code = 0; code < s.size * s.size; ++code) points.append(b.colour(b.point(code)));
  return nb::make_tuple(nb::tuple(points), s.player, nb::make_tuple(s.captures[0], s.captures[1]),
                        GAME.is_terminal(s));
}

// The searches this core runs on go: MCTS with random playouts (the others need an evaluation the
// Python engine's go defines; they run there).
const char* refusal(nb::handle, const Request& request) {
  if (request.algorithm != "mcts") return "the compiled core runs mcts on go; its depth-first searches are not native yet";
  if (request.rollout != "random") return "the compiled core's go playouts are random; heuristic ones are not native yet";
  if (!request.playout.empty() && request.playout != "light" && request.playout != "guided")
    return "the compiled core's go playouts are 'light' or 'guided'";
  return nullptr;
}

Result search(nb::handle state, const Request& request, const Budget& budget) {
  State s = decode(state);
  const Go& game = with_playouts(request.playout);
  nb::gil_scoped_release release;
  return run_search(game, s, request, budget);
}

std::vector<int> actions(const State& s) {
  std::vector<int> moves(Go::MAX_MOVES);
  moves.resize(size_t(GAME.actions(s, moves.data())));
  return moves;
}

}  // namespace

void bind_go(nb::module_& m, Entries& entries) {
  entries["go"] = Entry(&search, &refusal);
  m.def("go_state", [](nb::handle s) { return encode(decode(s)); },
        "(board, to_move, (Black's captures, White's), over) of a native state.");
  m.def("go_actions", [](nb::handle s) { return actions(decode(s)); },
        "The legal moves in code order, PASS last; none at the end.");
  m.def("go_result", [](nb::handle s, int move) {
    State state = decode(s);
    std::vector<int> legal = actions(state);
    if (std::find(legal.begin(), legal.end(), move) == legal.end()) throw std::invalid_argument("not a legal move");
    return encode(GAME.result(state, move));
  }, "go_state of the state after a legal move.");
  m.def("go_score", [](nb::handle s) { return GAME.score(decode(s)); },
        "Black's area minus White's minus komi (Tromp-Taylor), as the board stands.");
  m.def("go_utility", [](nb::handle s, int player) { return GAME.utility(decode(s), player); });
  m.def("go_evaluate", [](nb::handle s, int player) { return GAME.evaluate(decode(s), player); });
  bind_random_playout(m, "go_random_playout", GAME, decode);
  bind_perft(m, "go_perft", GAME, decode);
  m.def("go_playouts", [](nb::handle s, int n, uint64_t seed, const std::string& playout) {
    State state = decode(s);
    const Go& game = with_playouts(playout);
    nb::gil_scoped_release release;
    Random uniform(seed);
    int64_t plies = 0;
    for (int i = 0; i < n; ++i) plies += game.random_playout(state, uniform).plies;
    return plies;
  }, nb::arg("s"), nb::arg("n"), nb::arg("seed"), nb::arg("playout") = "light",
  "The plies of n playouts from `s` by the policy `playout` (the generator seeded with `seed`), on one "
  "thread: the benchmark's.");
  m.def("go_playout_move", [](nb::handle s, const std::string& playout, std::vector<double> draws) {
    State state = decode(s);
    size_t used = 0;
    auto uniform = [&]() {
      if (used == draws.size()) throw std::invalid_argument("the playout move drew more numbers than given");
      return draws[used++];
    };
    const go::Board b(state);
    const go::Seen seen(state.past.get(), 0);
    const int p = with_playouts(playout).playout_move(b, state.player + 1, seen, state.last, uniform);
    return nb::make_tuple(p ? b.code(p) : state.size * state.size, used);
  }, "(the move code, draws used) of the first playout move from `s` by the policy `playout`, drawing "
     "from `draws` in order; PASS when the policy passes.");
}

}  // namespace tactician
