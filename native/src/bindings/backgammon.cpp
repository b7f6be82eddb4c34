// Backgammon's compiled core: the "backgammon" search entry (expectimax, with the minimax opponent model:
// search/expectiminimax.hpp), and the rules for the equivalence tests (tests/native/test_backgammon_native.py).
// A state comes from Python as Backgammon.native_state(state): (x, o, turn, dice), each side's 26 counts
// from its own side, the player 0 or 1, and the dice (high, low) or None at a chance node; fifth, "learned"
// when the state is valued by the learned evaluation (absent: the default, "net"). A move is a play's
// index among the legal plays in the Python game's order.
#include <cstdio>
#include <stdexcept>
#include <string>
#include <vector>

#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include "bindings/common.hpp"
#include "games/backgammon.hpp"
#include "search/expectiminimax.hpp"

namespace tactician {
namespace {

using State = Backgammon::State;
using Side = Backgammon::Side;

Side side_of(nb::handle value) {
  auto counts = nb::cast<std::vector<int>>(value);
  if (counts.size() != 26) throw std::invalid_argument("a backgammon side is 26 counts");
  Side side;
  int total = 0;
  for (int i = 0; i < 26; ++i) {
    if (counts[i] < 0 || counts[i] > backgammon::CHECKERS)
      throw std::invalid_argument("a backgammon count is 0 to 15");
    side[i] = int8_t(counts[i]), total += counts[i];
  }
  if (total != backgammon::CHECKERS) throw std::invalid_argument("a backgammon side has 15 checkers");
  return side;
}

State decode(nb::handle py_state) {
  auto t = nb::cast<nb::tuple>(py_state);
  if (t.size() != 4 && t.size() != 5)
    throw std::invalid_argument("a backgammon native state is (x, o, turn, dice) or (x, o, turn, dice, evaluation)");
  State s{side_of(t[0]), side_of(t[1]), 0, 0, 0};
  int turn = nb::cast<int>(t[2]);
  if (turn != 0 && turn != 1) throw std::invalid_argument("a backgammon turn is 0 or 1");
  s.turn = int8_t(turn);
  if (!t[3].is_none()) {
    auto dice = nb::cast<nb::tuple>(t[3]);
    if (dice.size() != 2) throw std::invalid_argument("backgammon dice are (high, low), each 1-6");
    int high = nb::cast<int>(dice[0]), low = nb::cast<int>(dice[1]);
    if (low < 1 || high > 6 || low > high)
      throw std::invalid_argument("backgammon dice are (high, low), each 1-6");
    s.high = int8_t(high), s.low = int8_t(low);
  }
  return s;
}

// The evaluation a native state names (backgammon::NET without a fifth field).
int evaluation_of(nb::handle py_state) {
  auto t = nb::cast<nb::tuple>(py_state);
  if (t.size() < 5) return backgammon::NET;
  if (nb::cast<std::string>(t[4]) != "learned") throw std::invalid_argument("a backgammon evaluation is \"learned\" or left out");
  return backgammon::LEARNED;
}

nb::tuple encode(const State& s) {
  std::vector<int> x(s.x.begin(), s.x.end()), o(s.o.begin(), s.o.end());
  nb::object dice = s.high ? nb::object(nb::make_tuple(int(s.high), int(s.low))) : nb::none();
  return nb::make_tuple(nb::tuple(nb::cast(x)), nb::tuple(nb::cast(o)), int(s.turn), dice);
}

// The searches this core refuses, which the Python core runs (or rejects, naming the field).
const char* refusal(nb::handle py_state, const Request& request) {
  if (request.algorithm != "expectimax") return "the compiled core runs expectimax on backgammon; not native yet";
  if (decode(py_state).high == 0) return "at a chance node nobody chooses: the python core says so";
  if (request.utility != "linear") return "expectimax's utility transforms run on the python core; not native yet";
  if (request.opponent_model) return "the compiled core models the opponent as minimax only; not native yet";
  if (request.multi_pv > 1) return "several best moves (multi_pv) on backgammon run on the python core; not native yet";
  return nullptr;
}

Result search(nb::handle py_state, const Request& request, const Budget& budget) {
  State s = decode(py_state);
  const int evaluation = evaluation_of(py_state);
  nb::gil_scoped_release release;
  Backgammon game(evaluation);  // one per search: its scratch buffers are the search's own
  if (game.is_terminal(s)) throw std::invalid_argument("the game is over: no move to search");
  return expectiminimax(game, s, request, budget);
}

// Each embedded net's numbers against its weights file's checksum: a core built from files that do not
// match their headers refuses to load.
void verify_nets() {
  for (int id = 0; id < backgammon::net::NETS; ++id) {
    const auto& n = backgammon::net::net(id);
    if (backgammon::net::checksum(n) != n.checksum)
      throw std::runtime_error("backgammon net " + std::to_string(id) + ": the embedded numbers do not match their checksum");
  }
}

}  // namespace

void bind_backgammon(nb::module_& m, Entries& entries) {
  verify_nets();
  entries["backgammon"] = Entry(&search, &refusal);
  m.def("backgammon_children", [](nb::handle py_state) {
    State s = decode(py_state);
    if (!s.high) throw std::invalid_argument("a chance node has rolls, not plays");
    Backgammon game;
    std::vector<State> children;
    game.children(s, children);
    nb::list out;
    for (const State& c : children) out.append(encode(c));
    return out;
  }, "The states after each legal play, in the Python game's order.");
  m.def("backgammon_ordered", [](nb::handle py_state) {
    State s = decode(py_state);
    if (!s.high) throw std::invalid_argument("a chance node has rolls, not plays");
    Backgammon game(evaluation_of(py_state));
    std::vector<State> children;
    std::vector<int> order;
    game.children(s, children);
    game.order(s, children, order);
    return order;
  }, "The plays' indices best first, as the Python game's ordered_actions.");
  m.def("backgammon_outcomes", [](nb::handle py_state) {
    State s = decode(py_state);
    Backgammon::Outcome outcomes[Backgammon::ROLLS];
    Backgammon().outcomes(s, outcomes);
    nb::list out;
    for (const auto& o : outcomes) out.append(nb::make_tuple(encode(o.state), o.probability));
    return out;
  }, "The rolls' states with their probabilities, in the Python game's order.");
  m.def("backgammon_is_terminal", [](nb::handle s) { return Backgammon().is_terminal(decode(s)); });
  m.def("backgammon_evaluate", [](nb::handle s, int player) { return Backgammon(evaluation_of(s)).evaluate(decode(s), player); });
  m.def("backgammon_net_checksums", [] {
    std::vector<std::string> out;
    char hex[17];
    for (int id = 0; id < backgammon::net::NETS; ++id) {
      std::snprintf(hex, sizeof hex, "%016llx", (unsigned long long)backgammon::net::checksum(backgammon::net::net(id)));
      out.push_back(hex);
    }
    return out;
  }, "The checksums of the embedded nets (the default contact net, the learned contact and race nets), computed.");
  m.def("backgammon_utility", [](nb::handle s, int player) { return Backgammon().utility(decode(s), player); });
}

}  // namespace tactician
