// Chess on bitboards: the rules and knowledge of engine/games/chess/ (board.py, position.py,
// evaluation.py and the Chess game's ordering), the same legal moves, states and numbers.
//
// Moves are Python's ints: from * 1024 + to * 8 + promotion, the squares those of the 10 x 12 mailbox in
// White's view (a8 = 21, h1 = 98; board.py), the promotion 1-4 for N, B, R, Q. A state holds the board
// (bitboards by colour and piece, and a square -> piece array), castling rights (bits by corner, as board.py's
// White view: a1 1, h1 2, h8 4, a8 8), the en passant square only when some pawn can take there legally,
// the fifty-move clock, the ply, the history (hashes of the positions since the last capture, pawn move or
// change of castling rights) and what position.py precomputes: check, status, repeats and the evaluation
// sums (from White's side here; Python keeps them from the mover's).
#pragma once

#include <algorithm>
#include <functional>
#include <cstdint>
#include <cstdlib>

#include "games/chess_activity.hpp"
#include "games/chess_bitboards.hpp"
#include "games/chess_eval.hpp"
#include "games/chess_threats.hpp"
#include "search/game.hpp"
#include "search/random.hpp"

namespace tactician {
namespace chess {

constexpr int mailbox(int s) { return 21 + 10 * (7 - rank_of(s)) + file_of(s); }
constexpr int from_mailbox(int m) { return 8 * (9 - m / 10) + m % 10 - 1; }
constexpr int move_code(int from, int to, int promotion) { return mailbox(from) * 1024 + mailbox(to) * 8 + promotion; }
constexpr int move_from(int code) { return from_mailbox(code >> 10); }
constexpr int move_to(int code) { return from_mailbox((code >> 3) & 127); }

enum Corner : uint8_t { A1_ROOK = 1, H1_ROOK = 2, H8_ROOK = 4, A8_ROOK = 8 };
constexpr int SQ_A1 = 0, SQ_E1 = 4, SQ_H1 = 7, SQ_A8 = 56, SQ_E8 = 60, SQ_H8 = 63;
constexpr uint64_t LIGHT_SQUARES = 0x55AA55AA55AA55AAull;

using tactician::splitmix;

struct Zobrist {
  uint64_t piece[2][6][64], rights[16], ep[64], black;
};

inline Zobrist build_zobrist() {
  Zobrist z{};
  uint64_t seed = 1;
  for (auto& colour : z.piece)
    for (auto& piece : colour)
      for (auto& square : piece) square = splitmix(seed++);
  for (auto& r : z.rights) r = splitmix(seed++);
  for (auto& e : z.ep) e = splitmix(seed++);
  z.black = splitmix(seed++);
  return z;
}

inline const Zobrist ZOBRIST = build_zobrist();

// A pseudo-legal move before its legality test.
struct Move {
  int from, to, promotion;
  bool en_passant, castle;
};

}  // namespace chess

class Chess {
 public:
  static constexpr int MAX_MOVES = 256;           // legal moves of a position (the most known is 218)
  static constexpr int MOVE_CODES = 120 * 1024;   // every move code is below this
  // The history's slots: (promotion, from, to) packed densely, so that the moves of one piece share cache
  // lines (their codes are 64 bytes apart).
  static constexpr int MOVE_SLOTS = 8 * 64 * 64;
  static int move_slot(int move) { return ((move & 7) * 64 + chess::move_from(move)) * 64 + chess::move_to(move); }
  static constexpr bool OUTCOME_GAME = true, KEY_FIXES_PLY = false;
  static constexpr int KEYED_CLOCK = 60;          // position.py's: the clock joins the table key from here
  static constexpr int MAX_HISTORY = 100;         // positions since an irreversible move: fewer than 100 plies
  enum Status : uint8_t { ONGOING, CHECKMATE, STALEMATE, INSUFFICIENT, FIFTY_MOVES, THREEFOLD };
  static constexpr int CENTIPAWNS_PER_UNIT = 10000;
  static constexpr double EVAL_LIMIT = 0.9;
  static constexpr int NOISY_FIRST = 100000, DELTA_MARGIN = 200;
  static constexpr double ASPIRATION_WIDTH = 35.0 / CENTIPAWNS_PER_UNIT;
  static constexpr double FUTILITY_MARGIN = 100.0 / CENTIPAWNS_PER_UNIT;
  static constexpr int KING_VALUE = 20000;  // exchange.py's: the king takes last, never into a recapture
  // The packed sort keys' fields: a move code is below CODE_SPAN (it is below MOVE_CODES), a capture's
  // expected gain within +-EXPECTED_SPAN / 2 centipawns (a queen's capture and promotion: 1956).
  static constexpr int CODE_BITS = 17;
  static constexpr int64_t CODE_SPAN = int64_t(1) << CODE_BITS, EXPECTED_SPAN = 1 << 12;
  static_assert(MOVE_CODES <= CODE_SPAN &&
                2 * (2 * chess::VICTIM[chess::QUEEN] - chess::VICTIM[chess::PAWN]) < EXPECTED_SPAN);

  // A state's fields but the history, copied whole (trivially copyable).
  struct Fixed {
    uint64_t pieces[2][6] = {}, occupancy[2] = {};
    int8_t board[64];           // the piece on each square (chess::NO_PIECE)
    uint64_t pieces_hash = 0;   // the pieces' Zobrist keys
    uint64_t hash = 0;          // the position: pieces, side to move, rights, en passant
    uint64_t history_hash = 0;  // the history's positions, in order
    int mg = 0, eg = 0, phase = 0;
    int clock = 0, ply = 0;
    int ep = -1;                // the square behind a pawn that just advanced two, if a pawn can take there
    uint8_t rights = 0, repeats = 0, history_length = 0;
    Status status = ONGOING;
    bool check = false;
  };
  // A copy takes the fixed fields and only the history's entries in use: the whole array (800 bytes) made
  // a copy some four times longer, and the search copies a state at every move it makes.
  struct State : Fixed {
    uint64_t history[MAX_HISTORY];

    State() = default;
    State(const State& other) : Fixed(other) { std::copy_n(other.history, other.history_length, history); }
    State& operator=(const State& other) {
      Fixed::operator=(other);
      std::copy_n(other.history, other.history_length, history);
      return *this;
    }
  };

  // --- building states ---------------------------------------------------------------------------

  static State empty_state() {
    State s;
    std::fill(s.board, s.board + 64, int8_t(chess::NO_PIECE));
    return s;
  }

  static void put(State& s, int c, int p, int sq) {
    s.pieces[c][p] |= chess::bit(sq), s.occupancy[c] |= chess::bit(sq), s.board[sq] = int8_t(p);
    s.pieces_hash ^= chess::ZOBRIST.piece[c][p][sq];
    const int sign = c == chess::WHITE ? 1 : -1;
    s.mg += sign * chess::piece_mg(c, p, sq), s.eg += sign * chess::piece_eg(c, p, sq), s.phase += chess::PHASE[p];
  }

  static void take(State& s, int c, int p, int sq) {
    s.pieces[c][p] &= ~chess::bit(sq), s.occupancy[c] &= ~chess::bit(sq), s.board[sq] = chess::NO_PIECE;
    s.pieces_hash ^= chess::ZOBRIST.piece[c][p][sq];
    const int sign = c == chess::WHITE ? 1 : -1;
    s.mg -= sign * chess::piece_mg(c, p, sq), s.eg -= sign * chess::piece_eg(c, p, sq), s.phase -= chess::PHASE[p];
  }

  static int mover(const State& s) { return s.ply & 1; }

  // The state's derived fields (position.py's build): hash, check, repeats and status; `ep` is kept only
  // when a pawn can take there legally (board.py's legal_ep).
  static void complete(State& s) {
    const int us = mover(s);
    if (s.ep >= 0 && !ep_usable(s, s.ep)) s.ep = -1;
    s.hash = s.pieces_hash ^ chess::ZOBRIST.rights[s.rights] ^ (s.ep >= 0 ? chess::ZOBRIST.ep[s.ep] : 0) ^
             (us == chess::BLACK ? chess::ZOBRIST.black : 0);
    s.check = attacked(s, king_square(s, us), us ^ 1, all(s), ~uint64_t(0));
    int repeats = 0;
    if (s.history_length >= 4)
      for (int i = s.history_length - 2; i >= 0; i -= 2) repeats += s.history[i] == s.hash;
    s.repeats = uint8_t(repeats);
    const bool movable = has_legal_move(s);
    s.status = !movable && s.check ? CHECKMATE
               : insufficient(s)   ? INSUFFICIENT
               : !movable          ? STALEMATE
               : s.clock >= 100    ? FIFTY_MOVES
               : repeats >= 2      ? THREEFOLD
                                   : ONGOING;
  }

  // --- the game interface (search/game.hpp) ------------------------------------------------------

  int to_move(const State& s) const { return mover(s); }
  bool is_terminal(const State& s) const { return s.status != ONGOING; }
  double utility(const State& s, int player) const {
    if (s.status != CHECKMATE) return 0.0;
    return player == mover(s) ? -1.0 : 1.0;
  }
  int plies_bound(const State&) const { return -1; }

  // The legal moves in board.py's generation order: the mover's pieces square by square in the mover's
  // view (a8..h1 for White; the board turned round for Black), each piece's moves direction by direction
  // (board.py's tables), castling last.
  int actions(const State& s, int* out) const {
    chess::Move moves[MAX_MOVES];
    const int n = legal_moves(s, false, moves);
    std::pair<int, int> keyed[MAX_MOVES];
    for (int i = 0; i < n; ++i) keyed[i] = {natural_rank(s, moves[i]), code(moves[i])};
    std::sort(keyed, keyed + n);
    for (int i = 0; i < n; ++i) out[i] = keyed[i].second;
    return n;
  }

  // The Chess game's ordered_actions: captures and promotions first, most valuable victim then least
  // valuable attacker, then the quiet moves by the middle-game piece-square gain; ties by the larger code.
  // (An en passant capture, whose target square is empty, counts as quiet there, as in Python.)
  int ordered_actions(const State& s, int* out) const {
    chess::Move moves[MAX_MOVES];
    return ordered(s, moves, legal_moves(s, false, moves), out);
  }

  // The Chess game's noisy_actions: the legal captures and promotions, MVV-LVA first, each with the gain
  // it may bring at most (the victim and the promotion, less the capturing piece when it is worth more
  // and the square is guarded, plus DELTA_MARGIN), in evaluation units.
  int noisy_actions(const State& s, NoisyMove* out) const {
    chess::Move moves[MAX_MOVES];
    return noisy(s, moves, legal_moves(s, true, moves), out);
  }

  // ordered_actions and noisy_actions from one generation of the legal moves (a node the search expands
  // asks for both): the ordered moves' number, and the noisy ones' in `n_noisy`. The noisy moves are those
  // the noisy generation lists: captures (en passant too) and promotions.
  // GCC 12 at -O3 says `captures` "may be used uninitialized" when handed to noisy(), which reads only the
  // k entries written before; clearing the array at every node the search expands would cost more than it
  // says, so the warning (an error: -Werror) is silenced here alone.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
  int ordered_and_noisy_actions(const State& s, int* out, NoisyMove* noisy_out, int& n_noisy) const {
    chess::Move moves[MAX_MOVES], captures[MAX_MOVES];
    const int n = legal_moves(s, false, moves);
    int k = 0;
    for (int i = 0; i < n; ++i)
      if (moves[i].en_passant || moves[i].promotion || s.board[moves[i].to] != chess::NO_PIECE) captures[k++] = moves[i];
    n_noisy = noisy(s, captures, k, noisy_out);
    return ordered(s, moves, n, out);
  }
#pragma GCC diagnostic pop

  // ordered_actions' order of the `n` legal `moves`, their codes in `out`.
  static int ordered(const State& s, const chess::Move* moves, int n, int* out) {
    int64_t keys[MAX_MOVES];  // (score, code), packed so that one integer comparison orders them
    const int us = mover(s);
    for (int i = 0; i < n; ++i) {
      const chess::Move& m = moves[i];
      const int p = s.board[m.from], q = s.board[m.to];
      int score;
      if (q != chess::NO_PIECE || m.promotion)
        score = NOISY_FIRST + 10 * (chess::VICTIM[q] + promotion_gain(m.promotion)) - chess::VICTIM[p];
      else
        score = chess::PST_MG[p][chess::pst_index(us, m.to)] - chess::PST_MG[p][chess::pst_index(us, m.from)];
      keys[i] = int64_t(score) * CODE_SPAN + code(m);
    }
    std::sort(keys, keys + n, std::greater<int64_t>());
    for (int i = 0; i < n; ++i) out[i] = int(keys[i] & (CODE_SPAN - 1));
    return n;
  }

  // noisy_actions' order and gains of the `n` legal noisy `moves`, in `out`.
  static int noisy(const State& s, const chess::Move* moves, int n, NoisyMove* out) {
    int64_t keys[MAX_MOVES];  // (order, expected, code), packed as in ordered_actions
    const int us = mover(s);
    for (int i = 0; i < n; ++i) {
      const chess::Move& m = moves[i];
      const int victim = m.en_passant ? int(chess::PAWN) : int(s.board[m.to]);
      const int gain = chess::VICTIM[victim] + promotion_gain(m.promotion);
      const int attacker = chess::VICTIM[s.board[m.from]];
      const bool guarded = attacker > gain && attacked(s, m.to, us ^ 1, all(s), ~uint64_t(0));
      const int expected = guarded ? gain - attacker : gain;
      keys[i] = (int64_t(10 * gain - attacker) * EXPECTED_SPAN + expected + EXPECTED_SPAN / 2) * CODE_SPAN + code(m);
    }
    std::sort(keys, keys + n, std::greater<int64_t>());
    for (int i = 0; i < n; ++i) {
      const int expected = int((keys[i] >> CODE_BITS) & (EXPECTED_SPAN - 1)) - EXPECTED_SPAN / 2;  // (floor)
      out[i] = {double(expected + DELTA_MARGIN) / CENTIPAWNS_PER_UNIT, int(keys[i] & (CODE_SPAN - 1))};
    }
    return n;
  }

  State result(const State& s, int move) const {
    State n = s;
    play(s, move, n);
    return n;
  }

  // Makes `move` on `n`, a copy of `s` (result's work, for the games built on Chess's state).
  static void play(const State& s, int move, State& n) {
    using namespace chess;
    const int us = mover(s), them = us ^ 1;
    const int from = move_from(move), to = move_to(move), promotion = move & 7;
    const int p = s.board[from], q = s.board[to];
    const bool irreversible = p == PAWN || q != NO_PIECE;
    if (q != NO_PIECE) take(n, them, q, to);
    take(n, us, p, from);
    put(n, us, promotion ? promotion : p, to);
    n.ep = -1;
    if (p == PAWN) {
      if (to == s.ep) take(n, them, PAWN, to + (us == WHITE ? -8 : 8));
      if (std::abs(to - from) == 16) n.ep = (from + to) / 2;
    } else if (p == KING) {
      n.rights &= us == WHITE ? ~(A1_ROOK | H1_ROOK) : ~(A8_ROOK | H8_ROOK);
      if (std::abs(to - from) == 2) {  // castling: the rook jumps over the king
        const int rook = to > from ? from + 3 : from - 4, rook_to = to > from ? from + 1 : from - 1;
        take(n, us, ROOK, rook);
        put(n, us, ROOK, rook_to);
      }
    }
    for (int corner : {SQ_A1, SQ_H1, SQ_H8, SQ_A8})
      if (from == corner || to == corner) n.rights &= ~corner_bit(corner);
    if (irreversible || n.rights != s.rights) {
      n.history_length = 0, n.history_hash = 0;
    } else {
      n.history[n.history_length++] = s.hash;
      n.history_hash = chess::splitmix(n.history_hash ^ s.hash);
    }
    n.clock = irreversible ? 0 : s.clock + 1;
    ++n.ply;
    complete(n);
  }

  // The position with the turn passed (position.py's passed, for null-move pruning): no en passant, no
  // history. None (false) in check, and when the mover has only pawns and king (zugzwang is likely).
  // `S`: Chess's state, or one built on it (ChessNnue's, whose accumulators a pass leaves as they are).
  template <class S>
  bool null_move(const S& s, S& out) const {
    const auto& own = s.pieces[mover(s)];
    if (s.check || !(own[chess::KNIGHT] | own[chess::BISHOP] | own[chess::ROOK] | own[chess::QUEEN])) return false;
    out = s;
    out.ep = -1, out.history_length = 0, out.history_hash = 0;
    ++out.ply;
    complete(out);
    return true;
  }

  double evaluate(const State& s, int player) const {
    if (s.status != ONGOING) return utility(s, player);
    int mg = s.mg, eg = s.eg;
    const uint64_t white = s.pieces[chess::WHITE][chess::PAWN], black = s.pieces[chess::BLACK][chess::PAWN];
    int white_mg = 0, white_eg = 0, black_mg = 0, black_eg = 0;
    chess::side_structure(white, black, chess::WHITE, white_mg, white_eg);
    chess::side_structure(black, white, chess::BLACK, black_mg, black_eg);
    const chess::Army army{s.pieces, s.occupancy};
    chess::Attacks white_attacks, black_attacks;
    chess::side_activity(army, chess::WHITE, castle_squares(s, chess::WHITE), white_mg, white_eg, white_attacks);
    chess::side_activity(army, chess::BLACK, castle_squares(s, chess::BLACK), black_mg, black_eg, black_attacks);
    chess::threats(army, white_attacks, black_attacks, white_mg, white_eg, black_mg, black_eg);
    mg += white_mg - black_mg, eg += white_eg - black_eg;
    if (mover(s) == chess::BLACK) mg = -mg, eg = -eg;  // the mover's side, as Python sums it
    return bounded(chess::blend(mg, eg, s.phase), s, player);
  }

  // An ongoing state's evaluation for `player` from `score`, the mover's centipawns: scaled down in drawish
  // material, in evaluation units, within EVAL_LIMIT (the Chess game's evaluate).
  static double bounded(double score, const State& s, int player) {
    double v = chess::scaled_for_draws(score, s.pieces, mover(s)) / CENTIPAWNS_PER_UNIT;
    v = v > EVAL_LIMIT ? EVAL_LIMIT : v < -EVAL_LIMIT ? -EVAL_LIMIT : v;
    return player == mover(s) ? v : -v;
  }

  // The squares colour c's king may still castle to (b1 and g1 of its side), by the castling rights.
  static uint64_t castle_squares(const State& s, int c) {
    using namespace chess;
    if (c == WHITE) return (s.rights & A1_ROOK ? bit(1) : 0) | (s.rights & H1_ROOK ? bit(6) : 0);
    return (s.rights & A8_ROOK ? bit(57) : 0) | (s.rights & H8_ROOK ? bit(62) : 0);
  }

  // The state's key: the position, the clock, the ply and the history (position.py's key), equal only
  // for the same state.
  uint64_t key(const State& s) const {
    return chess::splitmix(s.hash ^ chess::splitmix(s.history_hash ^ (uint64_t(s.clock) << 32 | uint64_t(s.ply))));
  }
  // The search's table key (the Chess game's table_key): the position with the side to move, and the clock
  // from KEYED_CLOCK on, without the history, so that transpositions share entries.
  uint64_t table_key(const State& s) const {
    return chess::splitmix(s.hash ^ (s.clock >= KEYED_CLOCK ? chess::splitmix(uint64_t(s.clock)) : 0));
  }

  // The Chess game's exchange (engine/games/chess/exchange.py): what `move` wins on its target square when
  // both sides go on capturing there, each with its cheapest piece and free to stop, seeing through the
  // pieces that have taken (x-rays) but not pins, checks or later promotions; in evaluation units.
  double exchange(const State& s, int move) const { return double(static_exchange(s, move)) / CENTIPAWNS_PER_UNIT; }
  double futility_margin(const State&) const { return FUTILITY_MARGIN; }

  // The exchange in centipawns.
  static int static_exchange(const State& s, int move) {
    using namespace chess;
    const int from = move_from(move), to = move_to(move), promotion = move & 7, us = mover(s);
    uint64_t occupied = all(s) & ~bit(from);
    int piece = s.board[from];
    int gains[40], n = 1;  // (at most 32 pieces take part)
    if (piece == PAWN && to == s.ep) {
      gains[0] = VICTIM[PAWN];
      occupied &= ~bit(to + (us == WHITE ? -8 : 8));  // the pawn taken, behind the target square
    } else {
      gains[0] = s.board[to] == NO_PIECE ? 0 : VICTIM[s.board[to]];
    }
    if (promotion) gains[0] += VICTIM[promotion] - VICTIM[PAWN], piece = promotion;
    int on_square = worth(piece);
    for (int side = us ^ 1;; side ^= 1) {
      const int attacker = cheapest_attacker(s, to, side, occupied);
      if (attacker < 0) break;
      gains[n] = on_square - gains[n - 1];  // the score if this capture is made, for its side
      ++n;
      on_square = worth(s.board[attacker]);
      occupied &= ~bit(attacker);
    }
    for (int k = n - 1; k > 0; --k) gains[k - 1] = -std::max(-gains[k - 1], gains[k]);  // each side takes only
    return gains[0];                                                                    // when that does not lose
  }

  static int worth(int piece) { return piece == chess::KING ? KING_VALUE : chess::VICTIM[piece]; }

  // The square of `side`'s least valuable piece still on `occupied` that attacks `sq`, or -1.
  static int cheapest_attacker(const State& s, int sq, int side, uint64_t occupied) {
    using namespace chess;
    const auto& p = s.pieces[side];
    const uint64_t diagonal = bishop_attacks(sq, occupied), straight = rook_attacks(sq, occupied);
    const uint64_t by_piece[6] = {TABLES.pawn[side ^ 1][sq] & p[PAWN], TABLES.knight[sq] & p[KNIGHT],
                                  diagonal & p[BISHOP], straight & p[ROOK], (diagonal | straight) & p[QUEEN],
                                  TABLES.king[sq] & p[KING]};
    for (uint64_t b : by_piece)
      if (b & occupied) return lsb(b & occupied);
    return -1;
  }

  bool forcing(const State& s) const { return s.check; }

  // Whether the mover's legal `move` gives check (forcing(result(s, move))), without making it: the moved
  // piece's attack from its new square (the promoted piece's; castling's rook's) and the mover's other
  // pieces seen through the squares the move empties (discovered checks; en passant empties the taken
  // pawn's square too).
  bool forcing_move(const State& s, int move) const {
    using namespace chess;
    const int us = mover(s), from = move_from(move), to = move_to(move), promotion = move & 7;
    const int king = king_square(s, us ^ 1), moved = s.board[from];
    uint64_t occupied = (all(s) & ~bit(from)) | bit(to), staying = ~bit(from);
    int piece = promotion ? promotion : moved, square = to;
    if (moved == PAWN && to == s.ep) {
      occupied &= ~bit(to + (us == WHITE ? -8 : 8));
    } else if (moved == KING && std::abs(to - from) == 2) {  // castling: the rook jumps over the king
      const int rook = to > from ? from + 3 : from - 4;
      piece = ROOK, square = to > from ? from + 1 : from - 1;
      occupied = (occupied & ~bit(rook)) | bit(square), staying &= ~bit(rook);
    }
    const uint64_t reach = piece == PAWN     ? TABLES.pawn[us][square]
                           : piece == KNIGHT ? TABLES.knight[square]
                           : piece == BISHOP ? bishop_attacks(square, occupied)
                           : piece == ROOK   ? rook_attacks(square, occupied)
                           : piece == QUEEN  ? bishop_attacks(square, occupied) | rook_attacks(square, occupied)
                                             : 0;  // (a king gives no check)
    return (reach & bit(king)) || attacked(s, king, us, occupied, staying);
  }
  bool repeated(const State& s) const { return s.repeats > 0; }
  double aspiration_width(const State&) const { return ASPIRATION_WIDTH; }

  // --- the rules' parts -------------------------------------------------------------------------------

  static uint64_t all(const State& s) { return s.occupancy[0] | s.occupancy[1]; }
  static int king_square(const State& s, int c) { return chess::lsb(s.pieces[c][chess::KING]); }
  static uint8_t corner_bit(int corner) {
    return corner == chess::SQ_A1 ? chess::A1_ROOK : corner == chess::SQ_H1 ? chess::H1_ROOK
           : corner == chess::SQ_H8 ? chess::H8_ROOK : chess::A8_ROOK;
  }
  static int promotion_gain(int promotion) {
    return promotion ? chess::VICTIM[promotion] - chess::VICTIM[chess::PAWN] : 0;
  }
  static int code(const chess::Move& m) { return chess::move_code(m.from, m.to, m.promotion); }

  // Whether `by` attacks `sq` on `occupied`, counting only `by`'s pieces in `present` (a capture's victim
  // is not).
  static bool attacked(const State& s, int sq, int by, uint64_t occupied, uint64_t present) {
    using namespace chess;
    const auto& p = s.pieces[by];
    return (TABLES.pawn[by ^ 1][sq] & p[PAWN] & present) || (TABLES.knight[sq] & p[KNIGHT] & present) ||
           (TABLES.king[sq] & p[KING] & present) ||
           (bishop_attacks(sq, occupied) & (p[BISHOP] | p[QUEEN]) & present) ||
           (rook_attacks(sq, occupied) & (p[ROOK] | p[QUEEN]) & present);
  }

  // Whether the mover's pseudo-legal move leaves its king safe.
  static bool legal(const State& s, const chess::Move& m) {
    const int us = mover(s);
    const uint64_t victim = chess::bit(m.en_passant ? m.to + (us == chess::WHITE ? -8 : 8) : m.to);
    const uint64_t occupied = (all(s) & ~chess::bit(m.from) & ~victim) | chess::bit(m.to);
    const int king = s.board[m.from] == chess::KING ? m.to : king_square(s, us);
    return !attacked(s, king, us ^ 1, occupied, ~victim);
  }

  // board.py's legal_ep: whether a pawn of the mover can take en passant on `ep` legally.
  static bool ep_usable(const State& s, int ep) {
    const int us = mover(s);
    for (uint64_t b = chess::TABLES.pawn[us ^ 1][ep] & s.pieces[us][chess::PAWN]; b; b &= b - 1)
      if (legal(s, {chess::lsb(b), ep, 0, true, false})) return true;
    return false;
  }

  // The pseudo-legal moves (noisy: only captures and promotions), each passed to emit(move); emit
  // returns false to stop.
  template <class Emit>
  static bool pseudo_moves(const State& s, bool noisy, Emit&& emit) {
    using namespace chess;
    const int us = mover(s), them = us ^ 1;
    const uint64_t own = s.occupancy[us], enemy = s.occupancy[them], occupied = own | enemy;
    const uint64_t targets = noisy ? enemy : ~own;
    const int forward = us == WHITE ? 8 : -8, start_rank = us == WHITE ? 1 : 6, last_rank = us == WHITE ? 7 : 0;
    for (uint64_t b = s.pieces[us][PAWN]; b; b &= b - 1) {
      const int from = lsb(b), ahead = from + forward;
      const bool promotes = rank_of(ahead) == last_rank;
      auto pawn_to = [&](int to, bool ep) {
        if (!promotes) return emit(Move{from, to, 0, ep, false});
        for (int promotion : {QUEEN, KNIGHT, ROOK, BISHOP})
          if (!emit(Move{from, to, promotion, false, false})) return false;
        return true;
      };
      if (!(occupied & bit(ahead)) && (promotes || !noisy)) {
        if (!pawn_to(ahead, false)) return false;
        if (!noisy && rank_of(from) == start_rank && !(occupied & bit(ahead + forward)))
          if (!emit(Move{from, ahead + forward, 0, false, false})) return false;
      }
      const uint64_t ep = s.ep >= 0 ? bit(s.ep) : 0;
      for (uint64_t c = TABLES.pawn[us][from] & (enemy | ep); c; c &= c - 1)
        if (!pawn_to(lsb(c), lsb(c) == s.ep)) return false;
    }
    for (int p = KNIGHT; p <= KING; ++p)
      for (uint64_t b = s.pieces[us][p]; b; b &= b - 1) {
        const int from = lsb(b);
        const uint64_t reach = p == KNIGHT ? TABLES.knight[from]
                               : p == BISHOP ? bishop_attacks(from, occupied)
                               : p == ROOK   ? rook_attacks(from, occupied)
                               : p == QUEEN  ? bishop_attacks(from, occupied) | rook_attacks(from, occupied)
                                             : TABLES.king[from];
        for (uint64_t t = reach & targets; t; t &= t - 1)
          if (!emit(Move{from, lsb(t), 0, false, false})) return false;
      }
    if (noisy || s.check) return true;
    // Castling (board.py's castlings): the king on its square, the rook on its corner with the right, the
    // squares between them empty, and the squares the king crosses and reaches not attacked.
    const int king = us == WHITE ? SQ_E1 : SQ_E8;
    if (!(s.pieces[us][KING] & bit(king))) return true;
    for (int side : {-1, 1}) {
      const int corner = side < 0 ? king - 4 : king + 3;
      if (!(s.rights & corner_bit(corner)) || !(s.pieces[us][ROOK] & bit(corner))) continue;
      bool clear = true;
      for (int sq = std::min(king, corner) + 1; sq < std::max(king, corner); ++sq) clear &= !(occupied & bit(sq));
      if (clear && !attacked(s, king + side, them, occupied, ~uint64_t(0)) &&
          !attacked(s, king + 2 * side, them, occupied, ~uint64_t(0)))
        if (!emit(Move{king, king + 2 * side, 0, false, true})) return false;
    }
    return true;
  }

  // The mover's pieces pinned to its king: each the only piece between the king and an enemy slider.
  static uint64_t pinned(const State& s) {
    using namespace chess;
    const int us = mover(s), king = king_square(s, us);
    const auto& p = s.pieces[us ^ 1];
    const uint64_t occupied = all(s);
    uint64_t pins = 0;
    auto along = [&](uint64_t snipers, uint64_t (*attacks)(int, uint64_t)) {
      for (; snipers; snipers &= snipers - 1) {
        const int sniper = lsb(snipers);
        const uint64_t between = attacks(king, bit(sniper)) & attacks(sniper, bit(king)) & occupied;
        if (between && !(between & (between - 1)) && (between & s.occupancy[us])) pins |= between;
      }
    };
    along(rook_attacks(king, 0) & (p[ROOK] | p[QUEEN]), rook_attacks);
    along(bishop_attacks(king, 0) & (p[BISHOP] | p[QUEEN]), bishop_attacks);
    return pins;
  }

  // The legal moves among the pseudo-legal ones: castling is tested as it is generated; a move of a piece
  // other than the king, neither pinned (`pins`) nor taking en passant, with the mover not in check, is
  // legal at once; any other goes through legal's test.
  static int legal_moves(const State& s, bool noisy, chess::Move* out) {
    int n = 0;
    const uint64_t pins = pinned(s);
    pseudo_moves(s, noisy, [&](const chess::Move& m) {
      if (m.castle || (!s.check && !m.en_passant && !(pins & chess::bit(m.from)) && s.board[m.from] != chess::KING) ||
          legal(s, m))
        out[n++] = m;
      return true;
    });
    return n;
  }

  static bool has_legal_move(const State& s) {
    return !pseudo_moves(s, false, [&](const chess::Move& m) { return !(m.castle || legal(s, m)); });
  }

  // position.py's insufficient (python-chess's rule): only kings and minor pieces, and either a lone
  // knight or bishops all on squares of one colour.
  static bool insufficient(const State& s) {
    using namespace chess;
    uint64_t heavy = 0, knights = 0, minors = 0;
    for (int c : {WHITE, BLACK}) {
      heavy |= s.pieces[c][PAWN] | s.pieces[c][ROOK] | s.pieces[c][QUEEN];
      knights |= s.pieces[c][KNIGHT];
      minors |= s.pieces[c][KNIGHT] | s.pieces[c][BISHOP];
    }
    if (heavy) return false;
    if (knights) return popcount(minors) == 1;
    return !(minors & LIGHT_SQUARES) || !(minors & ~LIGHT_SQUARES);
  }

  // A move's place in board.py's generation order (see actions): the from-square in the mover's view,
  // then the direction (board.py's tables, in the mover's view) and the distance along it.
  static int natural_rank(const State& s, const chess::Move& m) {
    using namespace chess;
    static constexpr int KING_DIRS[8][2] = {{1, 0}, {0, 1}, {-1, 0}, {0, -1}, {1, 1}, {-1, 1}, {-1, -1}, {1, -1}};
    static constexpr int KNIGHT_DIRS[8][2] = {{2, 1}, {1, 2}, {-1, 2}, {-2, 1}, {-2, -1}, {-1, -2}, {1, -2}, {2, -1}};
    const bool black = mover(s) == BLACK;
    const int view_from = black ? m.from ^ 7 : m.from ^ 56;
    int dr = rank_of(m.to) - rank_of(m.from), df = file_of(m.to) - file_of(m.from);
    if (black) dr = -dr, df = -df;
    if (m.castle) return (1 << 20) + (df > 0);
    const int distance = std::max(std::abs(dr), std::abs(df));
    auto index = [](const int (*dirs)[2], int count, int r, int f) {
      for (int i = 0; i < count; ++i)
        if (dirs[i][0] == r && dirs[i][1] == f) return i;
      return count;
    };
    const int sr = (dr > 0) - (dr < 0), sf = (df > 0) - (df < 0);
    int rank;
    switch (s.board[m.from]) {
      case PAWN: {
        const int base = df == 0 ? (distance == 2) : df < 0 ? 2 : 3;
        const int promotion = m.promotion == QUEEN ? 0 : m.promotion == KNIGHT ? 1 : m.promotion == ROOK ? 2
                              : m.promotion == BISHOP ? 3 : 0;
        rank = base * 4 + promotion;
        break;
      }
      case KNIGHT: rank = index(KNIGHT_DIRS, 8, dr, df); break;
      case KING: rank = index(KING_DIRS, 8, dr, df); break;
      case BISHOP: rank = (index(KING_DIRS + 4, 4, sr, sf)) * 8 + distance - 1; break;
      case ROOK: rank = index(KING_DIRS, 4, sr, sf) * 8 + distance - 1; break;
      default: rank = index(KING_DIRS, 8, sr, sf) * 8 + distance - 1; break;
    }
    return view_from * 64 + rank;
  }
};

}  // namespace tactician
