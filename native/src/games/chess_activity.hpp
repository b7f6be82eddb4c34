// Piece activity and king safety after Fruit 2.1 (Fabien Letouzey's published values): engine/games/chess/
// activity.py in C++ on bitboards, the same integers (see there for each term): mobility, the bishop pair,
// rooks on files and near the enemy king, rooks and queens on the seventh rank, the attack on the enemy
// king's zone, and the pawn shelter and storm of the side's own king.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstdlib>

#include "games/chess_bitboards.hpp"

namespace tactician {
namespace chess {

constexpr int MOBILITY_UNIT[6] = {0, 4, 6, 7, 13, 0};
constexpr int MOBILITY_MG[6] = {0, 4, 5, 2, 1, 0}, MOBILITY_EG[6] = {0, 4, 5, 4, 2, 0};
constexpr int BISHOP_PAIR_MG = 50, BISHOP_PAIR_EG = 50;
constexpr int ROOK_CLOSED_FILE = -10, ROOK_SEMI_OPEN_FILE = 10, ROOK_OPEN_FILE = 10;  // both phases alike
constexpr int ROOK_NEAR_KING_FILE = 10, ROOK_ON_KING_FILE = 20;                      // middle game
constexpr int SEVENTH_MG[6] = {0, 0, 0, 20, 10, 0}, SEVENTH_EG[6] = {0, 0, 0, 40, 20, 0};
constexpr int KING_ATTACK_UNIT[6] = {0, 1, 1, 2, 4, 0};
constexpr int KING_ATTACK = 20;
constexpr int KING_ATTACK_WEIGHT[16] = {0, 0, 128, 192, 224, 240, 248, 252, 254, 255, 256, 256, 256, 256, 256, 256};
constexpr int WEAK_BACK_RANK = 11;
constexpr int STORM[8] = {0, 0, 0, 10, 30, 60, 0, 0};  // by the enemy pawn's rank (0-based) from its side

// The pieces and occupancy of both colours (the chess state's bitboards).
struct Army {
  const uint64_t (&pieces)[2][6];
  const uint64_t (&occupancy)[2];
};

// The squares a colour attacks: by its pawns, by its knights and bishops, by its rooks and queens, by any
// piece (threats.py's attacks). side_activity fills them in as it reaches each piece's moves, for the
// threats (chess_threats.hpp).
struct Attacks {
  uint64_t pawn = 0, minor = 0, major = 0, all = 0;
};

constexpr int relative_rank(int c, int s) { return c == WHITE ? rank_of(s) : 7 - rank_of(s); }

// Fruit's MatKingFlag: colour `c` has a queen and at least one more piece.
inline bool can_attack_king(const Army& a, int c) {
  const auto& p = a.pieces[c];
  return p[QUEEN] && popcount(p[KNIGHT] | p[BISHOP] | p[ROOK] | p[QUEEN]) >= 2;
}

// 36 - (8 - rank)^2 of colour c's nearest pawn on `file` on or ahead of relative rank `rank` (0-based); 36
// without one.
inline int shelter_file(uint64_t pawns, int c, int file, int rank) {
  int nearest = 8;  // 1-based rank
  for (uint64_t b = pawns & TABLES.file[file]; b; b &= b - 1) {
    const int r = relative_rank(c, lsb(b));
    if (r >= rank) nearest = std::min(nearest, r + 1);
  }
  return 36 - (8 - nearest) * (8 - nearest);
}

// The storm penalty of the enemy's (colour c ^ 1) most advanced pawn on `file`.
inline int storm_file(uint64_t enemy_pawns, int c, int file) {
  const uint64_t b = enemy_pawns & TABLES.file[file];
  if (!b) return 0;
  return STORM[relative_rank(c ^ 1, c == WHITE ? lsb(b) : msb(b))];
}

// Fruit's shelter_square: the penalty (>= 0) of colour c's king on `square`.
inline int shelter(const Army& a, int c, int square) {
  const uint64_t own = a.pieces[c][PAWN], enemy = a.pieces[c ^ 1][PAWN];
  const int file = file_of(square), rank = relative_rank(c, square);
  int penalty = 0, storm = 0;
  for (int f = std::max(file - 1, 0); f <= std::min(file + 1, 7); ++f) {
    penalty += shelter_file(own, c, f, rank) * (f == file ? 2 : 1);
    storm += storm_file(enemy, c, f);
  }
  return (penalty == 0 ? WEAK_BACK_RANK : penalty) + storm;
}

// Colour c's terms, added to mg and eg, and the squares it attacks, in `found`; `castle_squares`: the
// squares its king may still castle to (b1 and g1 of its side, by its rights).
inline void side_activity(const Army& a, int c, uint64_t castle_squares, int& mg, int& eg, Attacks& found) {
  const auto& own = a.pieces[c];
  const uint64_t occupied = a.occupancy[0] | a.occupancy[1], mine = a.occupancy[c];
  const uint64_t own_pawns = own[PAWN], enemy_pawns = a.pieces[c ^ 1][PAWN];
  const int enemy_king = lsb(a.pieces[c ^ 1][KING]), enemy_king_file = file_of(enemy_king);
  const uint64_t zone = TABLES.king[enemy_king] | bit(enemy_king);
  const bool attacking = can_attack_king(a, c);
  const uint64_t seventh = uint64_t(0xff) << (c == WHITE ? 48 : 8);
  const bool seventh_matters = (enemy_pawns & seventh) || relative_rank(c, enemy_king) == 7;
  int attackers = 0, units = 0;
  for (int p = KNIGHT; p <= QUEEN; ++p)
    for (uint64_t b = own[p]; b; b &= b - 1) {
      const int s = lsb(b);
      const uint64_t attacks = p == KNIGHT   ? TABLES.knight[s]
                               : p == BISHOP ? bishop_attacks(s, occupied)
                               : p == ROOK   ? rook_attacks(s, occupied)
                                             : rook_attacks(s, occupied) | bishop_attacks(s, occupied);
      (p <= BISHOP ? found.minor : found.major) |= attacks;
      const int reach = popcount(attacks & ~mine) - MOBILITY_UNIT[p];
      mg += reach * MOBILITY_MG[p], eg += reach * MOBILITY_EG[p];
      if (attacks & zone) ++attackers, units += KING_ATTACK_UNIT[p];
      if (p == ROOK) {
        const uint64_t file = TABLES.file[file_of(s)];
        mg += ROOK_CLOSED_FILE, eg += ROOK_CLOSED_FILE;
        if (!(own_pawns & file)) {
          mg += ROOK_SEMI_OPEN_FILE, eg += ROOK_SEMI_OPEN_FILE;
          if (!(enemy_pawns & file)) mg += ROOK_OPEN_FILE, eg += ROOK_OPEN_FILE;
          const int distance = std::abs(file_of(s) - enemy_king_file);
          if (attacking && distance <= 1) mg += distance == 0 ? ROOK_ON_KING_FILE : ROOK_NEAR_KING_FILE;
        }
      }
      if (relative_rank(c, s) == 6 && seventh_matters) mg += SEVENTH_MG[p], eg += SEVENTH_EG[p];
    }
  for (uint64_t b = own_pawns; b; b &= b - 1) found.pawn |= TABLES.pawn[c][lsb(b)];
  found.all = found.pawn | found.minor | found.major | TABLES.king[lsb(own[KING])];
  if (popcount(own[BISHOP]) >= 2) mg += BISHOP_PAIR_MG, eg += BISHOP_PAIR_EG;
  if (attacking) mg += units * KING_ATTACK * KING_ATTACK_WEIGHT[attackers] / 256;
  if (can_attack_king(a, c ^ 1)) {
    const int here = shelter(a, c, lsb(own[KING]));
    int best = here;
    for (uint64_t b = castle_squares; b; b &= b - 1) best = std::min(best, shelter(a, c, lsb(b)));
    mg -= (here + best) / 2;
  }
}

}  // namespace chess
}  // namespace tactician
