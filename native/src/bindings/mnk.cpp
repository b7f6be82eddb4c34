// The "tictactoe" entry: the m,n,k-game's compiled core (games/mnk.hpp), and its rules for the
// equivalence tests. A Python state arrives as TicTacToe.native_state returns it: (rows, cols, k, x, o),
// the marks as little-endian bytes. Boards of up to 64 cells run on one-word bitboards, larger ones on
// two, four or six words.
//
// Coverage: every board (1 x 1 to 19 x 19, any k) for mcts (random and heuristic rollouts), minimax,
// textbook and enhanced alpha-beta, which on boards of Mnk::PRUNED_FROM (81) cells or more prunes to the
// candidate moves, extends forcing moves and runs the threat phase as the Python search does (pvs.hpp with
// the game's knowledge). Refused (see refusal): the enhanced alpha-beta's exact solve on those boards.
#include <stdexcept>
#include <string>

#include <nanobind/stl/optional.h>
#include <nanobind/stl/pair.h>
#include <nanobind/stl/vector.h>

#include "bindings/common.hpp"
#include "games/mnk.hpp"
#include "games/mnk_threats.hpp"
#include "search/dispatch.hpp"

namespace tactician {
namespace {

struct Board {
  int rows, cols, k;
  nb::bytes x, o;
};

Board board_of(nb::handle state) {
  auto t = nb::cast<nb::tuple>(state);
  if (t.size() != 5) throw std::invalid_argument("a tictactoe native state is (rows, cols, k, x, o)");
  Board b{nb::cast<int>(t[0]), nb::cast<int>(t[1]), nb::cast<int>(t[2]), nb::cast<nb::bytes>(t[3]),
          nb::cast<nb::bytes>(t[4])};
  constexpr int side = Mnk<1>::MAX_SIDE;
  if (b.rows < 1 || b.rows > side || b.cols < 1 || b.cols > side || b.k < 1 || b.k > std::max(b.rows, b.cols))
    throw std::invalid_argument("a tictactoe board is 1 to 19 cells a side, k from 1 to its longer side");
  return b;
}

template <int W>
Bits<W> bits_of(const nb::bytes& bytes, int cells) {
  Bits<W> b;
  const auto* p = static_cast<const unsigned char*>(bytes.data());
  for (size_t i = 0; i < bytes.size(); i++)
    for (int j = 0; j < 8; j++)
      if (p[i] >> j & 1) {
        int c = int(i) * 8 + j;
        if (c >= cells) throw std::invalid_argument("a mark beyond the board");
        b.set(c);
      }
  return b;
}

template <int W>
nb::bytes bytes_of(const Bits<W>& b, int cells) {
  std::string out((cells + 7) / 8, '\0');
  b.each([&](int c) { out[c / 8] |= char(1 << (c % 8)); });
  return nb::bytes(out.data(), out.size());
}

// Calls f(game, state) with the game of the board's size on the fewest words that hold it.
template <class F>
decltype(auto) with_game(nb::handle py_state, F&& f) {
  Board b = board_of(py_state);
  auto run = [&](auto words) -> decltype(auto) {
    constexpr int W = decltype(words)::value;
    Mnk<W> game(b.rows, b.cols, b.k);
    int cells = b.rows * b.cols;
    return f(game, game.make(bits_of<W>(b.x, cells), bits_of<W>(b.o, cells)));
  };
  int cells = b.rows * b.cols;
  if (cells <= 64) return run(std::integral_constant<int, 1>{});
  if (cells <= 128) return run(std::integral_constant<int, 2>{});
  if (cells <= 256) return run(std::integral_constant<int, 4>{});
  return run(std::integral_constant<int, 6>{});
}

// The searches this core refuses: on boards of PRUNED_FROM cells or more, an enhanced alpha-beta that
// would give the exact solver its turn (solves_first, at the longest gate): pvs.py's solve there covers
// every root move beyond the candidates (engine/search/solver.py), this core's not yet, so the Python core
// runs it.
const char* refusal(nb::handle py_state, const Request& request) {
  Board b = board_of(py_state);
  const int cells = b.rows * b.cols;
  if (cells < Mnk<1>::PRUNED_FROM || request.algorithm != "alphabeta" || request.textbook()) return nullptr;
  int marks = 0;
  for (const nb::bytes* side : {&b.x, &b.o}) {
    const auto* bytes = static_cast<const unsigned char*>(side->data());
    for (size_t i = 0; i < side->size(); i++) marks += __builtin_popcount(bytes[i]);
  }
  if (!solves_first(request, cells - marks, LONG_SOLVE_MAX_PLIES)) return nullptr;
  return "no native exact solve of the enhanced alphabeta on tictactoe boards of 81 cells or more (no depth "
         "limit and at most 42 plies left): the compiled solver does not yet cover the root's moves beyond "
         "the candidates; not native yet";
}

Result search_entry(nb::handle py_state, const Request& request, const Budget& budget) {
  return with_game(py_state, [&](const auto& game, const auto& state) {
    nb::gil_scoped_release release;
    return run_search(game, state, request, budget);
  });
}

}  // namespace

void bind_mnk(nb::module_& m, Entries& entries) {
  entries["tictactoe"] = Entry(&search_entry, &refusal);
  m.def("mnk_perft", [](nb::handle s, int depth) {
    return with_game(s, [&](const auto& game, const auto& state) {
      nb::gil_scoped_release release;
      return perft(game, state, depth);
    });
  }, "The leaves of the game tree `depth` plies deep (terminal states end a branch early).");
  m.def("mnk_actions", [](nb::handle s) {
    return with_game(s, [](const auto& game, const auto& state) {
      int moves[Mnk<1>::MAX_MOVES];
      return std::vector<int>(moves, moves + game.actions(state, moves));
    });
  });
  m.def("mnk_ordered_actions", [](nb::handle s) {
    return with_game(s, [](const auto& game, const auto& state) {
      int moves[Mnk<1>::MAX_MOVES];
      return std::vector<int>(moves, moves + game.ordered_actions(state, moves));
    });
  });
  m.def("mnk_candidate_actions", [](nb::handle s) {
    return with_game(s, [](const auto& game, const auto& state) {
      int moves[Mnk<1>::MAX_MOVES];
      bool complete;
      int n = game.candidate_actions(state, moves, complete);
      return std::pair{std::vector<int>(moves, moves + n), complete};
    });
  }, "candidate_actions as the Python game's on boards of 81 cells or more: (moves, complete).");
  m.def("mnk_result", [](nb::handle s, int move) {
    return with_game(s, [&](const auto& game, const auto& state) {
      auto t = game.result(state, move);
      return nb::make_tuple(bytes_of(t.x, game.cells), bytes_of(t.o, game.cells), t.ply, t.status);
    });
  }, "The state after `move`: (x, o, ply, status) with the marks as bytes, the status as tictactoe/__init__.py's.");
  m.def("mnk_status", [](nb::handle s) {
    return with_game(s, [](const auto&, const auto& state) { return state.status; });
  });
  m.def("mnk_forcing", [](nb::handle s) {
    return with_game(s, [](const auto& game, const auto& state) { return game.forcing(state); });
  });
  // The threat searches as tictactoe/__init__.py's threat_win and threat_defences: (the line or cells or None, the
  // positions they visited).
  m.def("mnk_threat_win", [](nb::handle s) {
    return with_game(s, [](const auto& game, const auto& state) {
      Stats stats;
      auto line = MnkThreats(game).threat_win(state, Budget(-1, nullptr), stats);
      return std::pair{line, stats.nodes};
    });
  });
  m.def("mnk_threat_defences", [](nb::handle s) {
    return with_game(s, [](const auto& game, const auto& state) {
      Stats stats;
      auto cells = MnkThreats(game).threat_defences(state, Budget(-1, nullptr), stats);
      return std::pair{cells, stats.nodes};
    });
  });
  m.def("mnk_evaluate", [](nb::handle s, int player) {
    return with_game(s, [&](const auto& game, const auto& state) { return game.evaluate(state, player); });
  });
}

}  // namespace tactician
