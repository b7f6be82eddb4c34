// Othello's compiled core: the "othello" search entry, and the rules, evaluation and endgame solver for
// the equivalence tests (tests/native/test_othello_native.py). A state comes from Python as
// Othello.native_state(state): the triple (me, them, player), the discs of the player to move, of the other,
// and the player to move (the rest follows from them); fourth, "patterns" when the state is valued by the
// learned pattern tables (absent: the classic evaluation).
#include <cstdio>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include "bindings/common.hpp"
#include "games/othello.hpp"
#include "games/othello_endgame.hpp"
#include "search/dispatch.hpp"

namespace tactician {
namespace {

using State = Othello::State;
const Othello GAME, PATTERNS_GAME(true);

State decode(nb::handle state) {
  auto triple = nb::cast<nb::tuple>(state);
  if (triple.size() != 3 && triple.size() != 4)
    throw std::invalid_argument("an othello native state is (me, them, player) or (me, them, player, evaluation)");
  uint64_t me = nb::cast<uint64_t>(triple[0]), them = nb::cast<uint64_t>(triple[1]);
  int player = nb::cast<int>(triple[2]);
  if ((me & them) || (player != 0 && player != 1))
    throw std::invalid_argument("not an othello position: a square with two discs, or no player 0 or 1");
  return Othello::make_state(me, them, player);
}

// The game valuing a native state: the one its fourth field names.
const Othello& game_of(nb::handle state) {
  auto t = nb::cast<nb::tuple>(state);
  if (t.size() < 4) return GAME;
  if (nb::cast<std::string>(t[3]) != "patterns") throw std::invalid_argument("an othello evaluation is \"patterns\" or left out");
  return PATTERNS_GAME;
}

// The embedded pattern tables against their weights file's checksum and shape: a core built from a file that
// does not match its header refuses to load.
void verify_patterns() {
  if (!othello::patterns::embedded_whole())
    throw std::runtime_error("othello patterns: the embedded tables are not the layout's size");
  if (othello::patterns::checksum() != othello::patterns::CHECKSUM)
    throw std::runtime_error("othello patterns: the embedded numbers do not match their checksum");
}

// The state as engine/games/othello/__init__.py's tuple without its key: (me, them, player, legal, over).
nb::tuple encode(const State& s) { return nb::make_tuple(s.me, s.them, s.player, s.legal, s.over); }

Result search(nb::handle state, const Request& request, const Budget& budget) {
  State s = decode(state);
  const Othello& game = game_of(state);
  nb::gil_scoped_release release;
  return run_search(game, s, request, budget);
}

std::vector<int> listed(int (Othello::*list)(const State&, int*) const, const State& s) {
  int moves[Othello::MAX_MOVES];
  return std::vector<int>(moves, moves + (GAME.*list)(s, moves));
}

}  // namespace

void bind_othello(nb::module_& m, Entries& entries) {
  verify_patterns();
  entries["othello"] = &search;
  m.def("othello_patterns_checksum", [] {
    char hex[17];
    std::snprintf(hex, sizeof hex, "%016llx", (unsigned long long)othello::patterns::checksum());
    return std::string(hex);
  }, "The FNV-1a 64 checksum of the pattern tables this core embedded, as 16 hex digits.");
  m.def("othello_state", [](nb::handle s) { return encode(decode(s)); },
        "The state tuple of engine/games/othello/__init__.py, without its key, for a native state.");
  m.def("othello_result", [](nb::handle s, int move) {
    State state = decode(s);
    int moves[Othello::MAX_MOVES], n = GAME.actions(state, moves);
    if (std::find(moves, moves + n, move) == moves + n) throw std::invalid_argument("not a legal move");
    return encode(GAME.result(state, move));
  });
  m.def("othello_actions", [](nb::handle s) { return listed(&Othello::actions, decode(s)); });
  m.def("othello_ordered_actions", [](nb::handle s) { return listed(&Othello::ordered_actions, decode(s)); });
  m.def("othello_evaluate", [](nb::handle s, int player) { return game_of(s).evaluate(decode(s), player); });
  m.def("othello_utility", [](nb::handle s, int player) { return GAME.utility(decode(s), player); });
  bind_random_playout(m, "othello_random_playout", GAME, decode);
  bind_perft(m, "othello_perft", GAME, decode);
  m.def("othello_solve_endgame", [](nb::handle s, bool ordering, int64_t tt_capacity, std::optional<double> seconds)
            -> nb::object {
    State state = decode(s);
    Token token;
    Budget budget(seconds ? *seconds : -1.0, &token);
    Stats stats;
    std::optional<Solution> solution;
    bool timed_out = false;
    {
      nb::gil_scoped_release release;
      try {
        solution = GAME.solve_endgame(state, budget, ordering, tt_capacity, stats);
      } catch (Timeout&) {
        timed_out = true;
      }
    }
    nb::dict counts;
    counts["nodes"] = stats.nodes, counts["leaves"] = stats.leaves, counts["cutoffs"] = stats.cutoffs;
    counts["tt_hits"] = stats.tt_hits, counts["max_depth"] = stats.max_depth, counts["timed_out"] = timed_out;
    if (!solution) return nb::make_tuple(nb::none(), counts);
    nb::list moves;
    for (const MoveValue& mv : solution->moves) moves.append(nb::make_tuple(mv.move, int(mv.value), bound_name(mv.bound)));
    return nb::make_tuple(nb::make_tuple(solution->score, solution->pv, moves), counts);
  }, "The endgame solver's (score, pv, moves) or None (beyond its reach, or out of time), and its counts.");
}

}  // namespace tactician
