// Chess bitboards: square 0 is a1, 7 h1, 63 h8 (bit s of a 64-bit set). Attack sets of the leapers from
// tables, of the sliders by the classical ray method (PEXT-free): each direction's ray from the square, cut
// at its first blocker (the lowest set bit on rays that go up the board, the highest on rays that go down).
#pragma once

#include <cstdint>

namespace tactician {
namespace chess {

enum Piece : int8_t { PAWN, KNIGHT, BISHOP, ROOK, QUEEN, KING, NO_PIECE };
enum Colour : int8_t { WHITE, BLACK };

inline int lsb(uint64_t b) { return __builtin_ctzll(b); }
inline int msb(uint64_t b) { return 63 - __builtin_clzll(b); }
inline int popcount(uint64_t b) { return __builtin_popcountll(b); }
constexpr uint64_t bit(int s) { return uint64_t(1) << s; }
constexpr int rank_of(int s) { return s >> 3; }
constexpr int file_of(int s) { return s & 7; }

// Directions, as (rank step, file step): the four rook directions at even indices, bishop ones at odd.
constexpr int DIR_RANK[8] = {1, 1, 0, -1, -1, -1, 0, 1};
constexpr int DIR_FILE[8] = {0, 1, 1, 1, 0, -1, -1, -1};
constexpr bool UPWARD(int d) { return d == 0 || d == 1 || d == 2 || d == 7; }  // towards higher squares

struct AttackTables {
  uint64_t knight[64], king[64], pawn[2][64], ray[8][64];
  uint64_t file[8], adjacent_files[8];
  uint64_t ahead[2][64];  // the squares ahead of a pawn of that colour on its file and the files beside it
};

inline AttackTables build_attack_tables() {
  AttackTables t{};
  auto on = [](int r, int f) { return 0 <= r && r < 8 && 0 <= f && f < 8; };
  const int knight[8][2] = {{2, 1}, {1, 2}, {-1, 2}, {-2, 1}, {-2, -1}, {-1, -2}, {1, -2}, {2, -1}};
  for (int s = 0; s < 64; ++s) {
    const int r = rank_of(s), f = file_of(s);
    for (const auto& k : knight)
      if (on(r + k[0], f + k[1])) t.knight[s] |= bit(8 * (r + k[0]) + f + k[1]);
    for (int d = 0; d < 8; ++d) {
      if (on(r + DIR_RANK[d], f + DIR_FILE[d])) t.king[s] |= bit(8 * (r + DIR_RANK[d]) + f + DIR_FILE[d]);
      for (int i = 1; on(r + i * DIR_RANK[d], f + i * DIR_FILE[d]); ++i)
        t.ray[d][s] |= bit(8 * (r + i * DIR_RANK[d]) + f + i * DIR_FILE[d]);
    }
    for (int df : {-1, 1}) {
      if (on(r + 1, f + df)) t.pawn[WHITE][s] |= bit(8 * (r + 1) + f + df);
      if (on(r - 1, f + df)) t.pawn[BLACK][s] |= bit(8 * (r - 1) + f + df);
    }
  }
  for (int f = 0; f < 8; ++f) t.file[f] = uint64_t(0x0101010101010101) << f;
  for (int f = 0; f < 8; ++f)
    t.adjacent_files[f] = (f > 0 ? t.file[f - 1] : 0) | (f < 7 ? t.file[f + 1] : 0);
  for (int s = 0; s < 64; ++s) {
    const uint64_t files = t.file[file_of(s)] | t.adjacent_files[file_of(s)];
    for (int r = 0; r < 8; ++r) {
      const uint64_t row = uint64_t(0xff) << (8 * r);
      if (r > rank_of(s)) t.ahead[WHITE][s] |= files & row;
      if (r < rank_of(s)) t.ahead[BLACK][s] |= files & row;
    }
  }
  return t;
}

inline const AttackTables TABLES = build_attack_tables();

inline uint64_t ray_attacks(int s, int d, uint64_t occupied) {
  uint64_t ray = TABLES.ray[d][s], blockers = ray & occupied;
  if (blockers) ray ^= TABLES.ray[d][UPWARD(d) ? lsb(blockers) : msb(blockers)];
  return ray;
}

inline uint64_t rook_attacks(int s, uint64_t occupied) {
  return ray_attacks(s, 0, occupied) | ray_attacks(s, 2, occupied) | ray_attacks(s, 4, occupied) |
         ray_attacks(s, 6, occupied);
}

inline uint64_t bishop_attacks(int s, uint64_t occupied) {
  return ray_attacks(s, 1, occupied) | ray_attacks(s, 3, occupied) | ray_attacks(s, 5, occupied) |
         ray_attacks(s, 7, occupied);
}

}  // namespace chess
}  // namespace tactician
