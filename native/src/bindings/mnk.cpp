// Placeholder until the game's compiled core lands: registers nothing.
#include "bindings/common.hpp"

namespace tactician {
void bind_mnk(nb::module_&, Entries&) {}
}  // namespace tactician
