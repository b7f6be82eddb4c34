// Chess bitboards: square 0 is a1, 7 h1, 63 h8 (bit s of a 64-bit set). Attack sets of the leapers from
// tables, of the sliders from magic tables (PEXT-free): the blockers on a square's relevant rays, times a
// magic number, shifted, index the square's attack sets. The tables are filled at start-up by the
// classical ray method (each direction's ray from the square, cut at its first blocker:
// the lowest set bit on rays that go up the board, the highest on rays that go down), the
// reference the fill checks each magic against.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <vector>

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

inline uint64_t ray_rook_attacks(int s, uint64_t occupied) {
  return ray_attacks(s, 0, occupied) | ray_attacks(s, 2, occupied) | ray_attacks(s, 4, occupied) |
         ray_attacks(s, 6, occupied);
}

inline uint64_t ray_bishop_attacks(int s, uint64_t occupied) {
  return ray_attacks(s, 1, occupied) | ray_attacks(s, 3, occupied) | ray_attacks(s, 5, occupied) |
         ray_attacks(s, 7, occupied);
}

// One square's magic lookup for one kind of slider: attacks[((occupied & mask) * magic) >> shift].
struct Magic {
  uint64_t mask, magic;
  const uint64_t* attacks;
  int shift;
  uint64_t operator()(uint64_t occupied) const { return attacks[((occupied & mask) * magic) >> shift]; }
};

struct MagicTables {
  Magic rook[64], bishop[64];
  std::vector<uint64_t> attacks;  // every square's attack sets, both kinds, one after the other
};

// The relevant blockers of a slider's rays (even directions for a rook, odd for a bishop): each ray but
// its last square, whose occupant changes nothing.
inline uint64_t relevant_mask(int s, int first_direction) {
  uint64_t mask = 0;
  for (int d = first_direction; d < 8; d += 2) {
    const uint64_t ray = TABLES.ray[d][s];
    if (ray) mask |= ray & ~bit(UPWARD(d) ? msb(ray) : lsb(ray));
  }
  return mask;
}

// The magics, found once by trial (sparse random numbers, xorshift from 0x2545F4914F6CDD1D, kept when no two
// blocker sets with different attacks share an index) and written here: finding them takes half a second,
// too long for every start. Filling the tables checks them again.
constexpr uint64_t ROOK_MAGICS[64] = {
    0x008000908064c000ull, 0x0040200040001000ull, 0x0180100080a0010aull, 0x8880041000800800ull,
    0x1200100201200804ull, 0x0200020004011008ull, 0x2180010000800600ull, 0x0200005088210204ull,
    0x0400800040008021ull, 0x0400400020005000ull, 0x8240801000200080ull, 0x8611001004200900ull,
    0x008180800c001800ull, 0x0100800200800400ull, 0x0a02000102000408ull, 0x8020802300104280ull,
    0x0080004000402000ull, 0xe010104000402000ull, 0x0800808010002000ull, 0xa280210008100100ull,
    0x0001818014000800ull, 0xa002010100080400ull, 0x0080240001020870ull, 0x0001020004048845ull,
    0x0081826280004004ull, 0x2020810900284000ull, 0x0200100080802000ull, 0x0200080080100080ull,
    0x8083080100100500ull, 0x4406000901000400ull, 0x0005020080800100ull, 0x0090204200008114ull,
    0x0010400094800420ull, 0x0900804000802002ull, 0x0201001841002000ull, 0x4100080080801000ull,
    0x4540040080800800ull, 0x0002001004040020ull, 0x0281195814001002ull, 0x1240800040800100ull,
    0x0880042000524004ull, 0x02c080410206002cull, 0x0801200241050010ull, 0x8400080010008080ull,
    0x0008000500090010ull, 0x0082009084020008ull, 0x4012000108020004ull, 0x9000104d08860004ull,
    0x2004204114800100ull, 0x0148802112400300ull, 0x0202842000100880ull, 0x001b080080900080ull,
    0x001a002008100600ull, 0x0004008004020080ull, 0x5181000600040300ull, 0x0000044401128a00ull,
    0x8044110480002441ull, 0x2008110084402202ull, 0x90806005090010c1ull, 0x000420310a004a42ull,
    0x0023001004020801ull, 0x0882001008040102ull, 0x000230088118020cull, 0x0000019025040042ull,
};
constexpr uint64_t BISHOP_MAGICS[64] = {
    0x0045010808008680ull, 0x2002080204004898ull, 0x0210009a10400006ull, 0x0824050200810200ull,
    0x0006061105004090ull, 0x00010108c0000000ull, 0x0814040282104004ull, 0x0012012201106800ull,
    0x10823014100c1040ull, 0x0080c2088802808cull, 0x0281108410404000ull, 0x0101212041826200ull,
    0x0020141028221058ull, 0x2201020202200202ull, 0x000082a801482000ull, 0x0000008401411044ull,
    0x0007103014300404ull, 0x0002091110010100ull, 0x42140012040c0808ull, 0x0800808802004020ull,
    0x90c4004210140000ull, 0x0800200900a01000ull, 0x00d0400201108810ull, 0x80820183814412a0ull,
    0x00a01008202202b4ull, 0x01c2021a09500402ull, 0x0084440208042400ull, 0x800400400c090100ull,
    0xba10040010802100ull, 0xd182009006005000ull, 0x5011021001009004ull, 0x0020420200510400ull,
    0x0292104000468800ull, 0x00043009091c0500ull, 0x0280441000020025ull, 0x0042820080080080ull,
    0x0440101010010040ull, 0x1000900100808080ull, 0x0108108120089800ull, 0x0044010200012682ull,
    0xc002500420900400ull, 0x0040482210710800ull, 0x0002060024000200ull, 0x0281020a44000800ull,
    0xa0021200a4000200ull, 0x0001301000840840ull, 0x2868500108444220ull, 0x0004111041000200ull,
    0x8044020842080200ull, 0x0000220104210200ull, 0x0000021201044000ull, 0x0000280884040028ull,
    0x4012114010858003ull, 0x0000081004082b88ull, 0x3892700508208002ull, 0x00220a041b060400ull,
    0x0812020284014881ull, 0x010434a282103100ull, 0x0490400824020800ull, 0x4a20002c00208800ull,
    0x000000a011020200ull, 0x4002940a02482202ull, 0x5100100202140406ull, 0x02102000840540c1ull,
};

inline MagicTables build_magic_tables() {
  MagicTables t;
  size_t offsets[2][64], total = 0;
  for (int kind = 0; kind < 2; ++kind)
    for (int s = 0; s < 64; ++s) offsets[kind][s] = total, total += size_t(1) << popcount(relevant_mask(s, kind));
  t.attacks.assign(total, 0);
  std::vector<bool> filled;
  for (int kind = 0; kind < 2; ++kind)
    for (int s = 0; s < 64; ++s) {
      Magic& m = (kind == 0 ? t.rook : t.bishop)[s];
      m.mask = relevant_mask(s, kind);
      m.magic = (kind == 0 ? ROOK_MAGICS : BISHOP_MAGICS)[s];
      m.shift = 64 - popcount(m.mask);
      uint64_t* table = t.attacks.data() + offsets[kind][s];
      m.attacks = table;
      filled.assign(size_t(1) << popcount(m.mask), false);
      uint64_t subset = 0;
      do {  // every subset of the mask (the carry-rippler)
        const uint64_t attacks = kind == 0 ? ray_rook_attacks(s, subset) : ray_bishop_attacks(s, subset);
        const size_t index = (subset * m.magic) >> m.shift;
        if (filled[index] && table[index] != attacks) throw std::logic_error("a chess magic that does not fit");
        filled[index] = true, table[index] = attacks;
        subset = (subset - m.mask) & m.mask;
      } while (subset);
    }
  return t;
}

inline const MagicTables MAGICS = build_magic_tables();

inline uint64_t rook_attacks(int s, uint64_t occupied) { return MAGICS.rook[s](occupied); }
inline uint64_t bishop_attacks(int s, uint64_t occupied) { return MAGICS.bishop[s](occupied); }

}  // namespace chess
}  // namespace tactician
