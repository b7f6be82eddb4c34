// Chess knowledge: engine/games/chess/evaluation.py in C++, the same numbers. A tapered evaluation after
// PeSTO (Ronald Friederich's published tables): material and piece-square tables for the middle game and
// the endgame, blended by the game phase, plus the pawn-structure terms (doubled, isolated, passed pawns),
// and the score of the side ahead scaled down when its material seldom wins (drawish.py).
// Sums are kept from White's side (White's pieces minus Black's) and negated for Black.
#pragma once

#include "games/chess_bitboards.hpp"

namespace tactician {
namespace chess {

constexpr int MATERIAL_MG[6] = {82, 337, 365, 477, 1025, 0};
constexpr int MATERIAL_EG[6] = {94, 281, 297, 512, 936, 0};
constexpr int PHASE[6] = {0, 1, 1, 2, 4, 0};
constexpr int FULL_PHASE = 24;
// Move ordering's piece values (the chess game's VICTIM: the larger of the two materials; the king 0).
constexpr int VICTIM[7] = {94, 337, 365, 512, 1025, 0, 0};

// PeSTO's piece-square tables by piece, a8..h8 first, from White's side (evaluation.py's PST_MG, PST_EG).
constexpr int PST_MG[6][64] = {
    {0, 0, 0, 0, 0, 0, 0, 0, 98, 134, 61, 95, 68, 126, 34, -11, -6, 7, 26, 31, 65, 56, 25, -20, -14, 13, 6, 21, 23, 12, 17, -23, -27, -2, -5, 12, 17, 6, 10, -25, -26, -4, -4, -10, 3, 3, 33, -12, -35, -1, -20, -23, -15, 24, 38, -22, 0, 0, 0, 0, 0, 0, 0, 0},
    {-167, -89, -34, -49, 61, -97, -15, -107, -73, -41, 72, 36, 23, 62, 7, -17, -47, 60, 37, 65, 84, 129, 73, 44, -9, 17, 19, 53, 37, 69, 18, 22, -13, 4, 16, 13, 28, 19, 21, -8, -23, -9, 12, 10, 19, 17, 25, -16, -29, -53, -12, -3, -1, 18, -14, -19, -105, -21, -58, -33, -17, -28, -19, -23},
    {-29, 4, -82, -37, -25, -42, 7, -8, -26, 16, -18, -13, 30, 59, 18, -47, -16, 37, 43, 40, 35, 50, 37, -2, -4, 5, 19, 50, 37, 37, 7, -2, -6, 13, 13, 26, 34, 12, 10, 4, 0, 15, 15, 15, 14, 27, 18, 10, 4, 15, 16, 0, 7, 21, 33, 1, -33, -3, -14, -21, -13, -12, -39, -21},
    {32, 42, 32, 51, 63, 9, 31, 43, 27, 32, 58, 62, 80, 67, 26, 44, -5, 19, 26, 36, 17, 45, 61, 16, -24, -11, 7, 26, 24, 35, -8, -20, -36, -26, -12, -1, 9, -7, 6, -23, -45, -25, -16, -17, 3, 0, -5, -33, -44, -16, -20, -9, -1, 11, -6, -71, -19, -13, 1, 17, 16, 7, -37, -26},
    {-28, 0, 29, 12, 59, 44, 43, 45, -24, -39, -5, 1, -16, 57, 28, 54, -13, -17, 7, 8, 29, 56, 47, 57, -27, -27, -16, -16, -1, 17, -2, 1, -9, -26, -9, -10, -2, -4, 3, -3, -14, 2, -11, -2, -5, 2, 14, 5, -35, -8, 11, 2, 8, 15, -3, 1, -1, -18, -9, 10, -15, -25, -31, -50},
    {-65, 23, 16, -15, -56, -34, 2, 13, 29, -1, -20, -7, -8, -4, -38, -29, -9, 24, 2, -16, -20, 6, 22, -22, -17, -20, -12, -27, -30, -25, -14, -36, -49, -1, -27, -39, -46, -44, -33, -51, -14, -14, -22, -46, -44, -30, -15, -27, 1, 7, -8, -64, -43, -16, 9, 8, -15, 36, 12, -54, 8, -28, 24, 14},
};
constexpr int PST_EG[6][64] = {
    {0, 0, 0, 0, 0, 0, 0, 0, 178, 173, 158, 134, 147, 132, 165, 187, 94, 100, 85, 67, 56, 53, 82, 84, 32, 24, 13, 5, -2, 4, 17, 17, 13, 9, -3, -7, -7, -8, 3, -1, 4, 7, -6, 1, 0, -5, -1, -8, 13, 8, 8, 10, 13, 0, 2, -7, 0, 0, 0, 0, 0, 0, 0, 0},
    {-58, -38, -13, -28, -31, -27, -63, -99, -25, -8, -25, -2, -9, -25, -24, -52, -24, -20, 10, 9, -1, -9, -19, -41, -17, 3, 22, 22, 22, 11, 8, -18, -18, -6, 16, 25, 16, 17, 4, -18, -23, -3, -1, 15, 10, -3, -20, -22, -42, -20, -10, -5, -2, -20, -23, -44, -29, -51, -23, -15, -22, -18, -50, -64},
    {-14, -21, -11, -8, -7, -9, -17, -24, -8, -4, 7, -12, -3, -13, -4, -14, 2, -8, 0, -1, -2, 6, 0, 4, -3, 9, 12, 9, 14, 10, 3, 2, -6, 3, 13, 19, 7, 10, -3, -9, -12, -3, 8, 10, 13, 3, -7, -15, -14, -18, -7, -1, 4, -9, -15, -27, -23, -9, -23, -5, -9, -16, -5, -17},
    {13, 10, 18, 15, 12, 12, 8, 5, 11, 13, 13, 11, -3, 3, 8, 3, 7, 7, 7, 5, 4, -3, -5, -3, 4, 3, 13, 1, 2, 1, -1, 2, 3, 5, 8, 4, -5, -6, -8, -11, -4, 0, -5, -1, -7, -12, -8, -16, -6, -6, 0, 2, -9, -9, -11, -3, -9, 2, 3, -1, -5, -13, 4, -20},
    {-9, 22, 22, 27, 27, 19, 10, 20, -17, 20, 32, 41, 58, 25, 30, 0, -20, 6, 9, 49, 47, 35, 19, 9, 3, 22, 24, 45, 57, 40, 57, 36, -18, 28, 19, 47, 31, 34, 39, 23, -16, -27, 15, 6, 9, 17, 10, 5, -22, -23, -30, -16, -16, -23, -36, -32, -33, -28, -22, -43, -5, -32, -20, -41},
    {-74, -35, -18, -18, -11, 15, 4, -17, -12, 17, 14, 17, 17, 38, 23, 11, 10, 17, 23, 15, 20, 45, 44, 13, -8, 22, 24, 27, 26, 33, 26, 3, -18, -4, 21, 24, 27, 23, 9, -11, -19, -3, 11, 21, 23, 16, 7, -9, -27, -11, 4, 13, 14, 4, -5, -17, -53, -34, -21, -11, -28, -14, -24, -43},
};

// The table index of a square for a piece of `c`: White's tables read a8 first; Black's are White's
// flipped top to bottom (evaluation.py's board_table).
constexpr int pst_index(int c, int s) { return c == WHITE ? s ^ 56 : s; }
inline int piece_mg(int c, int p, int s) { return MATERIAL_MG[p] + PST_MG[p][pst_index(c, s)]; }
inline int piece_eg(int c, int p, int s) { return MATERIAL_EG[p] + PST_EG[p][pst_index(c, s)]; }

// Pawn structure (evaluation.py's structure), centipawns (middle game, endgame).
constexpr int DOUBLED_MG = 10, DOUBLED_EG = 20, ISOLATED_MG = 10, ISOLATED_EG = 15;
constexpr int PASSED_MG[8] = {0, 0, 0, 5, 10, 20, 35, 50};  // by the pawn's rank (1..8) from its side
constexpr int PASSED_EG[8] = {0, 0, 5, 10, 20, 35, 55, 80};

// The structure terms of the pawns `own` of colour `c` against the enemy pawns, added to mg and eg.
inline void side_structure(uint64_t own, uint64_t enemy, int c, int& mg, int& eg) {
  for (int f = 0; f < 8; ++f) {
    const int n = popcount(own & TABLES.file[f]);
    if (n == 0) continue;
    mg -= DOUBLED_MG * (n - 1), eg -= DOUBLED_EG * (n - 1);
    if (!(own & TABLES.adjacent_files[f])) mg -= ISOLATED_MG * n, eg -= ISOLATED_EG * n;
  }
  for (uint64_t b = own; b; b &= b - 1) {
    const int s = lsb(b);
    if (enemy & TABLES.ahead[c][s]) continue;
    const int rank = c == WHITE ? rank_of(s) + 1 : 8 - rank_of(s);
    mg += PASSED_MG[rank], eg += PASSED_EG[rank];
  }
}

// The tapered score in centipawns (evaluation.py's blend: the same division, so the same double).
inline double blend(int mg, int eg, int phase) {
  if (phase > FULL_PHASE) phase = FULL_PHASE;
  return double(mg * phase + eg * (FULL_PHASE - phase)) / FULL_PHASE;
}

// Drawish material (engine/games/chess/drawish.py, after Fruit 2.1's material.cpp): the multiplier, in
// sixteenths, of the score of a side with pieces `ours` against `theirs`, when it is the side ahead.
constexpr int FULL_MULTIPLIER = 16;
inline int draw_multiplier(const uint64_t (&ours)[6], const uint64_t (&theirs)[6]) {
  const int pawns = popcount(ours[PAWN]);
  if (pawns > 1) return FULL_MULTIPLIER;
  const int knights = popcount(ours[KNIGHT]), bishops = popcount(ours[BISHOP]);
  const int majors = 2 * popcount(ours[QUEEN]) + popcount(ours[ROOK]), minors = knights + bishops;
  int their_majors = 2 * popcount(theirs[QUEEN]) + popcount(theirs[ROOK]);
  int their_minors = popcount(theirs[KNIGHT]) + popcount(theirs[BISHOP]);
  if (pawns == 1) {  // the opponent gives a piece for the lone pawn
    if (their_minors) --their_minors;
    else if (theirs[ROOK]) --their_majors;
    else return FULL_MULTIPLIER;
  }
  const int total = 2 * majors + minors, their_total = 2 * their_majors + their_minors;
  if (total == 1) return pawns == 0 ? 0 : 4;
  if (total == 2 && knights == 2) return pawns == 1 ? 4 : their_total != 0 || !theirs[PAWN] ? 0 : 1;
  if (pawns == 0 && total == 2 && bishops == 2 && their_total == 1 && popcount(theirs[KNIGHT]) == 1) return 8;
  if (total - their_total <= 1 && majors <= 2) return pawns == 0 ? 2 : 8;
  return FULL_MULTIPLIER;
}

// `score` (centipawns, colour `mover`'s) times the multiplier of the side it favours, over 16 (drawish.py's
// scaled: the same operations, so the same double).
inline double scaled_for_draws(double score, const uint64_t (&pieces)[2][6], int mover) {
  if (score == 0) return score;
  const int ahead = score > 0 ? mover : mover ^ 1;
  if (popcount(pieces[ahead][PAWN]) > 1) return score;
  const int factor = draw_multiplier(pieces[ahead], pieces[ahead ^ 1]);
  return factor == FULL_MULTIPLIER ? score : score * factor / FULL_MULTIPLIER;
}

}  // namespace chess
}  // namespace tactician
