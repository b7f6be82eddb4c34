// Chess's compiled core: the "chess" search entry, and the rules for the equivalence tests
// (tests/native/test_chess_native.py). A state comes from Python as Chess.native_state(state): the tuple
// (board, rights, ep, clock, ply, history) of position.py, the board a 120-character string in the mover's
// view (board.py), the history its position keys (each board + chr(48 + rights) + chr(ep)). Refused (the
// Python core runs them): MCTS (its playouts draw numbers as the Python game does), and minimax and the
// textbook alpha-beta without a depth limit (see refusal). A state valued by the learned net
// (NnueChess.native_state) carries the net's sha256 seventh; the net itself is handed over once
// (chess_nnue_install: the arrays engine/games/chess/nnue.py verified), and a state naming another is refused.
#include <algorithm>
#include <cctype>
#include <cstring>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include <nanobind/ndarray.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include "bindings/common.hpp"
#include "games/chess.hpp"
#include "games/chess_nnue.hpp"
#include "search/dispatch.hpp"

namespace tactician {
namespace {

using State = Chess::State;
const Chess GAME;
// The net Python installed (none: "nnue" states are refused). Replaced only while no search runs (under
// the GIL); a search holds its own reference.
std::shared_ptr<const chess::Network> NET;
const char* const PIECES = "PNBRQK";

// A mailbox square of the mover's view -> the absolute square (0 = a1).
int absolute_square(int view, bool black) { return chess::from_mailbox(black ? 119 - view : view); }

// The pieces, rights and en passant square of a position in the mover's view (ply's parity: the mover).
State parse_position(const std::string& board, int rights, int ep, int ply) {
  if (board.size() != 120) throw std::invalid_argument("a chess native board is 120 characters (board.py)");
  if (rights < 0 || rights > 15 || ep < 0 || ep > 119) throw std::invalid_argument("chess rights or ep out of range");
  const bool black = ply & 1;
  State s = Chess::empty_state();
  for (int row = 2; row < 10; ++row)
    for (int col = 1; col < 9; ++col) {
      const char c = board[10 * row + col];
      if (c == '.') continue;
      const char* found = std::strchr(PIECES, std::toupper(c));
      if (c == 0 || found == nullptr) throw std::invalid_argument("not a chess board square: " + std::string(1, c));
      const bool ours = std::isupper(c);
      Chess::put(s, ours == !black ? chess::WHITE : chess::BLACK, int(found - PIECES), absolute_square(10 * row + col, black));
    }
  for (int c : {chess::WHITE, chess::BLACK})
    if (chess::popcount(s.pieces[c][chess::KING]) != 1) throw std::invalid_argument("a chess position has one king a side");
  s.rights = uint8_t(black ? (rights >> 2 | (rights & 3) << 2) : rights);
  s.ep = ep ? absolute_square(ep, black) : -1;
  s.ply = ply;
  return s;
}

State decode(nb::handle state) {
  auto t = nb::cast<nb::tuple>(state);
  if (t.size() != 6 && t.size() != 7)
    throw std::invalid_argument("a chess native state is (board, rights, ep, clock, ply, history[, net's sha256])");
  const int clock = nb::cast<int>(t[3]), ply = nb::cast<int>(t[4]);
  if (clock < 0 || ply < 0) throw std::invalid_argument("chess clock and ply are not negative");
  State s = parse_position(nb::cast<std::string>(t[0]), nb::cast<int>(t[1]), nb::cast<int>(t[2]), ply);
  s.clock = clock;
  auto history = nb::cast<std::vector<std::string>>(t[5]);
  if (history.size() > size_t(Chess::MAX_HISTORY) || history.size() > size_t(ply))
    throw std::invalid_argument("a chess history holds fewer than 100 positions, none before the first ply");
  for (size_t i = 0; i < history.size(); ++i) {
    const std::string& key = history[i];
    if (key.size() != 122) throw std::invalid_argument("a chess position key is 122 characters (position.py)");
    State earlier = parse_position(key.substr(0, 120), key[120] - 48, key[121], ply - int(history.size() - i));
    Chess::complete(earlier);
    s.history[s.history_length++] = earlier.hash;
    s.history_hash = chess::splitmix(s.history_hash ^ earlier.hash);
  }
  Chess::complete(s);
  return s;
}

// The board in the mover's view, as board.py writes it: White's view, turned round (reversed, the case
// swapped) for Black.
std::string view_board(const State& s) {
  std::string out;
  for (int row = 0; row < 12; ++row) out += row < 2 || row > 9 ? std::string(9, ' ') + "\n" : " ........\n";
  for (int sq = 0; sq < 64; ++sq) {
    if (s.board[sq] == chess::NO_PIECE) continue;
    const char c = PIECES[int(s.board[sq])];
    out[chess::mailbox(sq)] = s.occupancy[chess::WHITE] & chess::bit(sq) ? c : char(std::tolower(c));
  }
  if (Chess::mover(s) == chess::BLACK) {
    std::reverse(out.begin(), out.end());
    for (char& c : out) c = std::isupper(c) ? char(std::tolower(c)) : char(std::toupper(c));
  }
  return out;
}

// The state as position.py's fields: (board, rights, ep, clock, ply, len(history), check, status, repeats,
// mg, eg, phase), each in the mover's view as Python keeps them, and the native key.
nb::tuple encode(const State& s) {
  const bool black = Chess::mover(s) == chess::BLACK;
  const int rights = black ? (s.rights >> 2 | (s.rights & 3) << 2) : s.rights;
  const int ep = s.ep < 0 ? 0 : black ? 119 - chess::mailbox(s.ep) : chess::mailbox(s.ep);
  const int sign = black ? -1 : 1;
  return nb::make_tuple(view_board(s), rights, ep, s.clock, s.ply, int(s.history_length), s.check, int(s.status),
                        int(s.repeats), sign * s.mg, sign * s.eg, s.phase, GAME.key(s));
}

// The net a state is valued by: none for a classic state (six fields), the installed net for one that
// names it by its sha256; std::invalid_argument when the state names a net the core does not hold.
std::shared_ptr<const chess::Network> net_of(nb::handle state) {
  auto t = nb::cast<nb::tuple>(state);
  if (t.size() != 7) return nullptr;
  const std::string digest = nb::cast<std::string>(t[6]);
  if (!NET) throw std::invalid_argument("no chess NNUE was handed to the compiled core (chess_nnue_install)");
  if (NET->sha256 != digest) throw std::invalid_argument("the compiled core holds chess NNUE " + NET->sha256 + ", not " + digest);
  return NET;
}

Result search(nb::handle state, const Request& request, const Budget& budget) {
  State s = decode(state);
  if (auto net = net_of(state)) {
    const ChessNnue game(net);
    const ChessNnue::State root = game.with_accumulators(s);
    nb::gil_scoped_release release;
    return run_search(game, root, request, budget);
  }
  nb::gil_scoped_release release;
  return run_search(GAME, s, request, budget);
}

template <class T>
using Weights = nb::ndarray<const T, nb::ndim<1>, nb::c_contig, nb::device::cpu>;

// The net of nnue.py's arrays, copied: W1 (768 x hidden), b1 (hidden), W2 (2 x hidden) int16, b2.
std::shared_ptr<const chess::Network> network(nb::ndarray<const int16_t, nb::ndim<2>, nb::c_contig, nb::device::cpu> w1,
                                              Weights<int16_t> b1, Weights<int16_t> w2, int32_t b2,
                                              const std::string& sha256) {
  const int hidden = int(b1.shape(0));
  if (hidden <= 0 || hidden > chess::NNUE_MAX_HIDDEN)
    throw std::invalid_argument("the compiled core takes a chess NNUE of 1 to " + std::to_string(chess::NNUE_MAX_HIDDEN) +
                                " hidden units");
  if (w1.shape(0) != size_t(chess::NNUE_INPUTS) || w1.shape(1) != size_t(hidden) || w2.shape(0) != size_t(2 * hidden))
    throw std::invalid_argument("a chess NNUE is W1 (768, H), b1 (H,), W2 (2H,)");
  auto net = std::make_shared<chess::Network>();
  net->hidden = hidden;
  net->w1.assign(w1.data(), w1.data() + w1.size());
  net->b1.assign(b1.data(), b1.data() + hidden);
  net->w2.assign(w2.data(), w2.data() + 2 * hidden);
  net->b2 = b2;
  net->sha256 = sha256;
  net->zero.assign(size_t(hidden), 0);
  return net;
}

// The net's evaluations along `line` from `state` (a "nnue" one), each move made incrementally as the
// searches make it: (centipawns, evaluate for the mover) of the root and after each move.
nb::list nnue_line(nb::handle state, const std::vector<int>& line) {
  auto net = net_of(state);
  if (!net) throw std::invalid_argument("chess_nnue_line takes a state valued by the net (seven fields)");
  const ChessNnue game(net);
  ChessNnue::State s = game.with_accumulators(decode(state));
  nb::list out;
  for (size_t i = 0;; ++i) {
    out.append(nb::make_tuple(game.centipawns(s), game.evaluate(s, Chess::mover(s))));
    if (i == line.size()) return out;
    s = game.result(s, line[i]);
  }
}

const char* refusal(nb::handle, const Request& request) {
  if (request.algorithm == "mcts") return "no native MCTS for chess (its playouts draw as the Python game does): not native yet";
  const bool depth_first = request.algorithm == "minimax" || (request.algorithm == "alphabeta" && request.textbook());
  if (depth_first && request.depth < 0)  // (the compiled core recurses on its stack, a ply a frame)
    return "no native depth-first chess search without a depth limit: its first line runs to the game's end, "
           "thousands of plies; not native yet";
  return nullptr;
}

uint64_t perft(const State& s, int depth) {
  if (depth == 0) return 1;
  int moves[Chess::MAX_MOVES], n = GAME.actions(s, moves);
  if (depth == 1) return uint64_t(n);
  uint64_t count = 0;
  for (int i = 0; i < n; ++i) count += perft(GAME.result(s, moves[i]), depth - 1);
  return count;
}

std::vector<int> listed(int (Chess::*list)(const State&, int*) const, const State& s) {
  int moves[Chess::MAX_MOVES];
  return std::vector<int>(moves, moves + (GAME.*list)(s, moves));
}

}  // namespace

void bind_chess(nb::module_& m, Entries& entries) {
  entries["chess"] = Entry(&search, &refusal);
  m.def("chess_state", [](nb::handle s) { return encode(decode(s)); },
        "position.py's fields of a native state (see bindings/chess.cpp's encode).");
  m.def("chess_result", [](nb::handle s, int move) { return encode(GAME.result(decode(s), move)); });
  m.def("chess_null_move", [](nb::handle s) -> nb::object {
    State out;
    if (!GAME.null_move(decode(s), out)) return nb::none();
    return encode(out);
  });
  m.def("chess_actions", [](nb::handle s) { return listed(&Chess::actions, decode(s)); });
  m.def("chess_ordered_actions", [](nb::handle s) { return listed(&Chess::ordered_actions, decode(s)); });
  m.def("chess_noisy_actions", [](nb::handle s) {
    NoisyMove moves[Chess::MAX_MOVES];
    const int n = GAME.noisy_actions(decode(s), moves);
    nb::list out;
    for (int i = 0; i < n; ++i) out.append(nb::make_tuple(moves[i].gain, moves[i].move));
    return out;
  });
  m.def("chess_ordered_and_noisy_actions", [](nb::handle s) {
    int moves[Chess::MAX_MOVES], n_noisy;
    NoisyMove noisy[Chess::MAX_MOVES];
    const int n = GAME.ordered_and_noisy_actions(decode(s), moves, noisy, n_noisy);
    nb::list out;
    for (int i = 0; i < n_noisy; ++i) out.append(nb::make_tuple(noisy[i].gain, noisy[i].move));
    return nb::make_tuple(std::vector<int>(moves, moves + n), out);
  }, "Chess::ordered_and_noisy_actions: (the ordered moves, the noisy ones with their gains), at once.");
  m.def("chess_exchange", [](nb::handle s, int move) { return GAME.exchange(decode(s), move); },
        "Static exchange evaluation of `move` in `s` (Chess::exchange), in evaluation units.");
  m.def("chess_forcing_move", [](nb::handle s, int move) { return GAME.forcing_move(decode(s), move); },
        "Whether `move` gives check (Chess::forcing_move), found without making it.");
  m.def("chess_evaluate", [](nb::handle s, int player) {
    if (auto net = net_of(s)) {
      const ChessNnue game(net);
      return game.evaluate(game.with_accumulators(decode(s)), player);
    }
    return GAME.evaluate(decode(s), player);
  }, "The evaluation of `s` for `player` (the classic one, or the net's for a state that names it).");
  m.def("chess_nnue_install", [](nb::ndarray<const int16_t, nb::ndim<2>, nb::c_contig, nb::device::cpu> w1,
                                 Weights<int16_t> b1, Weights<int16_t> w2, int32_t b2, const std::string& sha256) {
    NET = network(w1, b1, w2, b2, sha256);
  }, "Hand the core the chess NNUE that engine/games/chess/nnue.py read and verified (the arrays, its sha256).");
  m.def("chess_nnue_clear", [] { NET.reset(); }, "Forget the chess NNUE: states that name one are refused.");
  m.def("chess_nnue_line", &nnue_line,
        "(centipawns, evaluation for the mover) of `s` and after each move of `line`, made incrementally.");
  m.def("chess_utility", [](nb::handle s, int player) { return GAME.utility(decode(s), player); });
  m.def("chess_perft", [](nb::handle s, int depth) {
    State state = decode(s);
    nb::gil_scoped_release release;
    return perft(state, depth);
  }, "The number of legal move sequences of `depth` plies from `s` (perft: game ends are not checked).");
}

}  // namespace tactician
