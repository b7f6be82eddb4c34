// The game interface of the native searches: the C++ twin of engine/game.py's Game, for two-player,
// zero-sum, alternating games without chance (Connect Four, m,n,k). A game is a class G with:
//
//   using State = ...;                 a small value type; result() returns a new one (no unmake)
//   static constexpr int MAX_MOVES;    the most legal moves a state can have; every move is in [0, MAX_MOVES)
//   static constexpr bool OUTCOME_GAME;  utilities are +1, 0, -1 (wins scored by their distance)
//   static constexpr bool KEY_FIXES_PLY; a key determines how many moves were played (GameType's
//                                      key_fixes_ply): with OUTCOME_GAME, the exact solver may run
//   int to_move(const State&) const;   0 or 1; the players alternate, one move each
//   bool is_terminal(const State&) const;
//   double utility(const State&, int player) const;
//   int actions(const State&, int* out) const;          the legal moves in the Python game's natural order
//   int ordered_actions(const State&, int* out) const;  the same set, in the Python game's ordering
//   State result(const State&, int move) const;
//   double evaluate(const State&, int player) const;    the Python game's evaluate, bit for bit
//       (zero-sum: utility and evaluate of one player are exactly the other's negated, so the searches
//       may work in negamax form and still match Python's minimax values bit for bit)
//   uint64_t key(const State&) const;                   a transposition-table key
//   int plies_bound(const State&) const;                the plies left at most; -1 when unknown
//
// Optional knowledge (a search uses it where the game defines it; see the detection traits below and the
// Python capabilities of the same names):
//
//   int immediate_win(const State&) const;              a move that wins at once, -1: none
//   int safe_children(const State&, Child* out) const;  (G::Child: {int score; int move; State state;})
//       the moves after which the opponent cannot win at once, best first, with their children; their number
//   bool has_safe_move(const State&) const;             whether safe_children would list any
//   bool outcome_bounds(const State&, double& lowest, double& highest) const;
//       whether a strategy argument bounds the result for the player to move (as utilities), and the bounds
//   template <class U> Playout random_playout(const State&, U& uniform) const;
//       uniformly random moves to the end, each drawn as the Python game draws it from uniform() (a callable
//       returning a double in [0, 1)): the final utilities of both players and the plies played
//   int candidate_actions(const State&, int* out, bool& complete) const;                       (CANDIDATES)
//       forward pruning: the few moves worth searching, in the order to search them, and their number;
//       `complete` tells whether they are every move that matters
//   bool forcing(const State&) const;                                                          (EXTENSIONS)
//       whether the reply is forced there, so that a search looks one ply deeper at no cost in width
//   bool forcing_move(const State&, int move) const;                                           (EXTENSIONS)
//       forcing(result(s, move)), found without making the move (chess: whether it gives check): the
//       futility test of the moves it would skip; without it the search makes the move to see
//   std::optional<std::vector<int>> threat_win(const State&, const Budget&, Stats&) const;     (THREATS)
//   std::optional<std::vector<int>> threat_defences(const State&, const Budget&, Stats&) const;
//       a threat-space search: the mover's forced win (its line: a proof), or nothing; the mover's moves that
//       may stop the opponent's forced win (perhaps none), or nothing when it found no such win. Both add the
//       positions they visit to stats.nodes and let Timeout through.
//   std::optional<Solution> solve_endgame(const State&, const Budget&, bool ordering, int64_t tt_capacity,
//                                         Stats&) const;                                       (ENDGAME_SOLVER)
//       a game's own exact solver, scored by the game (Othello: the final disc difference): the Solution
//       of the position for the player to move, or nothing when it is beyond the solver's reach; adds the
//       positions it visits to the stats and lets Timeout through (search/endgame.hpp uses it)
//   int noisy_actions(const State&, NoisyMove* out) const;                                     (QUIESCENCE)
//       the legal captures and promotions, in the order to search them, each with the most it may gain
//       (delta pruning); with it the enhanced search runs quiescence at its horizon and late-move reductions
//   int ordered_and_noisy_actions(const State&, int* out, NoisyMove* noisy, int& n_noisy) const;
//       ordered_actions and noisy_actions at once (one generation of the moves for the nodes that ask for
//       both); the ordered moves' number
//   double exchange(const State&, int move) const;                                             (EXCHANGE)
//       what a noisy move wins (negative: loses) when both sides go on capturing on its square; quiescence
//       skips the losing ones and the order puts them after the killers (with QUIESCENCE)
//   double futility_margin(const State&) const;                                                (FUTILITY)
//       how far a ply of search may move the evaluation: reverse futility and futility pruning (with
//       QUIESCENCE)
//   bool null_move(const State&, State& out) const;                                            (NULL_MOVE)
//       the state with the turn passed, in `out`; false where no pass is allowed (check, likely zugzwang)
//   uint64_t table_key(const State&) const;
//       the key the enhanced alpha-beta's transposition table keeps a score under (the Python game's
//       table_key); key() without it. Chess leaves the history out, so that transpositions share entries
//   bool repeated(const State&) const;                                                         (REPETITION)
//       whether the position occurred before in the state's history (scored as a draw below the root)
//   double aspiration_width(const State&) const;                                               (ASPIRATION)
//       the half-width of the aspiration window around the last iteration's score
//   static constexpr int MOVE_CODES;   when moves are not below MAX_MOVES: every move is below this
//   static constexpr int MOVE_SLOTS; static int move_slot(int move);
//                                      the move codes numbered densely (each below MOVE_SLOTS, one slot a
//                                      code) for the tables by move: chess's codes spread the few moves
//                                      a position has over a cache line each
//   static constexpr bool SPARSE_MOVE_CODES;  moves are codes too many to count in an array (checkers: a
//                                      jump's whole path); tables by move are hash maps then
//   unsigned knowledge() const;
//       which of CANDIDATES, EXTENSIONS and THREATS this instance lists, when that depends on the instance
//       (m,n,k: boards of 81 cells or more), as the Python game's capabilities do; without it, a game lists
//       every one it defines (see lists<K>)
//
// Every game here is declared alternating (engine/registry.py's GameType): mate-distance windows, the
// safe-children shortcuts and the exact solver rely on it.
// Every move is an int: the move's JSON form in the API (a column, a cell index).
#pragma once

#include <cstdint>
#include <optional>
#include <type_traits>
#include <unordered_map>
#include <utility>
#include <vector>

#include "core/budget.hpp"
#include "core/result.hpp"

namespace tactician {

// What random_playout returns: the final utilities of players 0 and 1, and the moves played.
struct Playout {
  double utility[2];
  int plies;
};

// What a game's own endgame solver proves (engine.game.Solution): the score for the player to move, a
// perfect line, and the root moves' scores (exact, or upper bounds), the best first.
struct Solution {
  int score;
  std::vector<int> pv;
  std::vector<MoveValue> moves;
};

// A noisy move (noisy_actions) and the most it may gain, in the evaluation's units.
struct NoisyMove {
  double gain;
  int move;
};

// has_immediate_win<G>: G defines `int immediate_win(const State&) const` (-1: none), and so on.
#define TACTICIAN_DETECT(name, call)                                                        \
  template <class G, class = void>                                                          \
  struct has_##name : std::false_type {};                                                   \
  template <class G>                                                                        \
  struct has_##name<G, std::void_t<decltype(call)>> : std::true_type {};

#define TACTICIAN_STATE std::declval<const typename G::State&>()
TACTICIAN_DETECT(immediate_win, std::declval<const G&>().immediate_win(TACTICIAN_STATE))
TACTICIAN_DETECT(has_safe_move, std::declval<const G&>().has_safe_move(TACTICIAN_STATE))
TACTICIAN_DETECT(safe_children,
                 std::declval<const G&>().safe_children(TACTICIAN_STATE, std::declval<typename G::Child*>()))
TACTICIAN_DETECT(outcome_bounds, std::declval<const G&>().outcome_bounds(TACTICIAN_STATE, std::declval<double&>(),
                                                                         std::declval<double&>()))
TACTICIAN_DETECT(candidate_actions, std::declval<const G&>().candidate_actions(TACTICIAN_STATE, std::declval<int*>(),
                                                                                 std::declval<bool&>()))
TACTICIAN_DETECT(forcing, std::declval<const G&>().forcing(TACTICIAN_STATE))
TACTICIAN_DETECT(forcing_move, std::declval<const G&>().forcing_move(TACTICIAN_STATE, 0))
#define TACTICIAN_THREAT(call) std::declval<const G&>().call(TACTICIAN_STATE, std::declval<const Budget&>(), \
                                                              std::declval<Stats&>())
TACTICIAN_DETECT(threat_search, (TACTICIAN_THREAT(threat_win), TACTICIAN_THREAT(threat_defences)))
#undef TACTICIAN_THREAT
TACTICIAN_DETECT(knowledge, std::declval<const G&>().knowledge())
TACTICIAN_DETECT(solve_endgame, std::declval<const G&>().solve_endgame(TACTICIAN_STATE, std::declval<const Budget&>(),
                                                                         true, int64_t(0), std::declval<Stats&>()))
TACTICIAN_DETECT(noisy_actions, std::declval<const G&>().noisy_actions(TACTICIAN_STATE, std::declval<NoisyMove*>()))
TACTICIAN_DETECT(ordered_and_noisy_actions,
                 std::declval<const G&>().ordered_and_noisy_actions(TACTICIAN_STATE, std::declval<int*>(),
                                                                    std::declval<NoisyMove*>(), std::declval<int&>()))
TACTICIAN_DETECT(null_move, std::declval<const G&>().null_move(TACTICIAN_STATE, std::declval<typename G::State&>()))
TACTICIAN_DETECT(exchange, std::declval<const G&>().exchange(TACTICIAN_STATE, 0))
TACTICIAN_DETECT(futility_margin, std::declval<const G&>().futility_margin(TACTICIAN_STATE))
TACTICIAN_DETECT(repeated, std::declval<const G&>().repeated(TACTICIAN_STATE))
TACTICIAN_DETECT(table_key, std::declval<const G&>().table_key(TACTICIAN_STATE))
TACTICIAN_DETECT(aspiration_width, std::declval<const G&>().aspiration_width(TACTICIAN_STATE))
TACTICIAN_DETECT(move_codes, G::MOVE_CODES)
TACTICIAN_DETECT(sparse_move_codes, G::SPARSE_MOVE_CODES)
TACTICIAN_DETECT(move_slot, (G::MOVE_SLOTS, G::move_slot(0)))
#undef TACTICIAN_STATE

// The knowledge of the searches' enhancements, named as the Python capabilities.
enum Knowledge : unsigned { CANDIDATES = 1, EXTENSIONS = 2, THREATS = 4 };

// Whether `game` lists knowledge K: it defines the calls, and this instance lists it (knowledge()).
template <Knowledge K, class G>
bool lists(const G& game) {
  constexpr bool defined = K == CANDIDATES   ? has_candidate_actions<G>::value
                           : K == EXTENSIONS ? has_forcing<G>::value
                                             : has_threat_search<G>::value;
  if constexpr (!defined)
    return false;
  else if constexpr (has_knowledge<G>::value)
    return (game.knowledge() & K) != 0;
  else
    return true;
}

// The number of slots of a table by move: every move's slot is below it (G::MOVE_SLOTS, else G::MOVE_CODES,
// else G::MAX_MOVES).
template <class G>
constexpr int move_slots() {
  if constexpr (has_move_slot<G>::value)
    return G::MOVE_SLOTS;
  else if constexpr (has_move_codes<G>::value)
    return G::MOVE_CODES;
  else
    return G::MAX_MOVES;
}

// A move's slot in a table by move: G::move_slot's, else the move itself.
template <class G>
int move_slot(int move) {
  if constexpr (has_move_slot<G>::value)
    return G::move_slot(move);
  else
    return move;
}

// A count by move (the history heuristic's): an array over the move slots, or a hash map for a game
// whose codes are sparse (Python's dict in either case).
template <class G, bool SPARSE = has_sparse_move_codes<G>::value>
class MoveCounts {
 public:
  MoveCounts() : counts_(move_slots<G>(), 0) {}
  int64_t get(int move) const { return counts_[move_slot<G>(move)]; }
  void add(int move, int64_t amount) { counts_[move_slot<G>(move)] += amount; }

 private:
  std::vector<int64_t> counts_;
};
template <class G>
class MoveCounts<G, true> {
 public:
  int64_t get(int move) const {
    auto found = counts_.find(move);
    return found == counts_.end() ? 0 : found->second;
  }
  void add(int move, int64_t amount) { counts_[move] += amount; }

 private:
  std::unordered_map<int, int64_t> counts_;
};

// child_type<G>::type: G::Child, or for a game without safe children a struct of the same fields.
template <class G, class = void>
struct child_type {
  struct type {
    int score, move;
    typename G::State state;
  };
};
template <class G>
struct child_type<G, std::void_t<typename G::Child>> {
  using type = typename G::Child;
};
#undef TACTICIAN_DETECT

}  // namespace tactician
