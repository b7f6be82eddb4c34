// The game interface of the native searches: the C++ twin of engine/game.py's Game, for two-player,
// zero-sum, alternating games without chance (Connect Four, m,n,k). A game is a class G with:
//
//   using State = ...;                 a small value type; result() returns a new one (no unmake)
//   static constexpr int MAX_MOVES;    the most legal moves a state can have
//   static constexpr bool OUTCOME_GAME;  utilities are +1, 0, -1 (wins scored by their distance)
//   int to_move(const State&) const;   0 or 1
//   bool is_terminal(const State&) const;
//   double utility(const State&, int player) const;
//   int actions(const State&, int* out) const;          the legal moves in the Python game's natural order
//   int ordered_actions(const State&, int* out) const;  the same set, in the Python game's ordering
//   State result(const State&, int move) const;
//   double evaluate(const State&, int player) const;    the Python game's evaluate, bit for bit
//   uint64_t key(const State&) const;                   a transposition-table key
//   int plies_bound(const State&) const;                the plies left at most; -1 when unknown
//
// Optional knowledge (a search uses it where the game defines it; see the detection traits below and the
// Python capabilities of the same names): immediate_win, safe_children, has_safe_move, outcome_bounds,
// random_playout. Every move is an int: the move's JSON form in the API (a column, a cell index).
#pragma once

#include <type_traits>
#include <utility>

namespace tactician {

// has_immediate_win<G>: G defines `int immediate_win(const State&) const` (-1: none), and so on.
#define TACTICIAN_DETECT(name, call)                                                        \
  template <class G, class = void>                                                          \
  struct has_##name : std::false_type {};                                                   \
  template <class G>                                                                        \
  struct has_##name<G, std::void_t<decltype(call)>> : std::true_type {};

TACTICIAN_DETECT(immediate_win, std::declval<const G&>().immediate_win(std::declval<const typename G::State&>()))
TACTICIAN_DETECT(has_safe_move, std::declval<const G&>().has_safe_move(std::declval<const typename G::State&>()))
#undef TACTICIAN_DETECT

}  // namespace tactician
