// What the module's bindings share: the entry point each game provides, and its helpers.
#pragma once

#include <cstdint>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include <nanobind/nanobind.h>
#include <nanobind/stl/vector.h>

#include "core/budget.hpp"
#include "core/request.hpp"
#include "core/result.hpp"
#include "search/game.hpp"

namespace tactician {

namespace nb = nanobind;

// A game's search entry: decode the Python state (the GIL held), then search with the GIL released.
using SearchEntry = Result (*)(nb::handle state, const Request& request, const Budget& budget);

// Why the compiled core does not run `request` on the Python state (a search it does not cover), or
// nullptr when it does. Asked before a search, so that the bridge can choose the Python core instead.
using Refusal = const char* (*)(nb::handle state, const Request& request);

// A game's entry: its search and, where the core covers only some of its searches, what it refuses.
struct Entry {
  SearchEntry search = nullptr;
  Refusal refusal = nullptr;
  Entry() = default;
  Entry(SearchEntry search, Refusal refusal = nullptr) : search(search), refusal(refusal) {}
};

// The games with a compiled core, by id: each game's binding file registers its entry.
using Entries = std::map<std::string, Entry>;

// The move sequences of `depth` plies from `s` (shorter where the game ends): the rules' test count.
template <class G>
uint64_t perft(const G& game, const typename G::State& s, int depth) {
  if (depth == 0 || game.is_terminal(s)) return 1;
  int moves[G::MAX_MOVES];
  const int n = game.actions(s, moves);
  uint64_t total = 0;
  for (int i = 0; i < n; ++i) total += perft(game, game.result(s, moves[i]), depth - 1);
  return total;
}

// Binds `name`(s, depth): perft of the Python state `s` (`decode` reads it), with the GIL released.
template <class G, class Decode>
void bind_perft(nb::module_& m, const char* name, const G& game, Decode decode) {
  m.def(name, [&game, decode](nb::handle s, int depth) {
    typename G::State state = decode(s);
    nb::gil_scoped_release release;
    return perft(game, state, depth);
  }, "The number of move sequences of `depth` plies from `s` (shorter where the game ends).");
}

// Binds `name`(s, draws): the game's random_playout from the Python state `s`, drawing its numbers from
// `draws` in order, as ((utilities), plies, draws used), so that a test can give it Python's draws.
template <class G, class Decode>
void bind_random_playout(nb::module_& m, const char* name, const G& game, Decode decode) {
  m.def(name, [&game, decode](nb::handle s, std::vector<double> draws) {
    size_t used = 0;
    auto uniform = [&]() {
      if (used == draws.size()) throw std::invalid_argument("random_playout drew more numbers than given");
      return draws[used++];
    };
    Playout p = game.random_playout(decode(s), uniform);
    return nb::make_tuple(nb::make_tuple(p.utility[0], p.utility[1]), p.plies, used);
  }, "((utilities), plies, draws used) of a playout that draws its numbers from `draws` in order.");
}

// bindings/connect4.cpp: the "connect4" entry, and the rules for the equivalence tests.
void bind_connect4(nb::module_& m, Entries& entries);
// bindings/mnk.cpp: the "tictactoe" entry, likewise.
void bind_mnk(nb::module_& m, Entries& entries);
// bindings/othello.cpp: the "othello" entry, likewise.
void bind_othello(nb::module_& m, Entries& entries);
// bindings/chess.cpp: the "chess" entry, likewise.
void bind_chess(nb::module_& m, Entries& entries);
// bindings/twenty48.cpp: the "2048" entry, likewise.
void bind_twenty48(nb::module_& m, Entries& entries);
// bindings/checkers.cpp: the "checkers" entry, likewise.
void bind_checkers(nb::module_& m, Entries& entries);
// bindings/backgammon.cpp: the "backgammon" entry, likewise.
void bind_backgammon(nb::module_& m, Entries& entries);
// bindings/go.cpp: the "go" entry, likewise.
void bind_go(nb::module_& m, Entries& entries);

}  // namespace tactician
