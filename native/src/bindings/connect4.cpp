// Placeholder until the game's compiled core lands: registers nothing.
#include "bindings/common.hpp"

namespace tactician {
void bind_connect4(nb::module_&, Entries&) {}
}  // namespace tactician
