// What the module's bindings share: the entry point each game provides, and its helpers.
#pragma once

#include <nanobind/nanobind.h>

#include "core/budget.hpp"
#include "core/request.hpp"
#include "core/result.hpp"

namespace tactician {

namespace nb = nanobind;

// A game's search entry: decode the Python state (the GIL held), then search with the GIL released.
using SearchEntry = Result (*)(nb::handle state, const Request& request, const Budget& budget);

// bindings/connect4.cpp
Result search_connect4(nb::handle state, const Request& request, const Budget& budget);
void bind_connect4(nb::module_& m);
// bindings/mnk.cpp
Result search_mnk(nb::handle state, const Request& request, const Budget& budget);
void bind_mnk(nb::module_& m);

}  // namespace tactician
