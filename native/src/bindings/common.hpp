// What the module's bindings share: the entry point each game provides, and its helpers.
#pragma once

#include <map>
#include <string>

#include <nanobind/nanobind.h>

#include "core/budget.hpp"
#include "core/request.hpp"
#include "core/result.hpp"

namespace tactician {

namespace nb = nanobind;

// A game's search entry: decode the Python state (the GIL held), then search with the GIL released.
using SearchEntry = Result (*)(nb::handle state, const Request& request, const Budget& budget);

// The games with a compiled core, by id: each game's binding file registers its entry.
using Entries = std::map<std::string, SearchEntry>;

// bindings/connect4.cpp: the "connect4" entry, and the rules for the equivalence tests.
void bind_connect4(nb::module_& m, Entries& entries);
// bindings/mnk.cpp: the "tictactoe" entry, likewise.
void bind_mnk(nb::module_& m, Entries& entries);

}  // namespace tactician
