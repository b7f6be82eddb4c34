// Threats to pieces: engine/games/chess/threats.py in C++ on bitboards, the same integers (see there for
// each term): knights and bishops attacked by pawns, by knights or bishops, or unguarded and attacked by
// rooks or queens; rooks attacked by lesser pieces; queens attacked; unguarded pawns attacked.
#pragma once

#include <cstdint>

#include "games/chess_activity.hpp"
#include "games/chess_bitboards.hpp"

namespace tactician {
namespace chess {

constexpr int MINOR_BY_PAWN_MG = 54, MINOR_BY_PAWN_EG = 39;
constexpr int MINOR_BY_MINOR_MG = 10, MINOR_BY_MINOR_EG = 34;
constexpr int WEAK_MINOR_BY_MAJOR_MG = 13, WEAK_MINOR_BY_MAJOR_EG = 27;
constexpr int ROOK_BY_LESSER_MG = 42, ROOK_BY_LESSER_EG = 18;
constexpr int QUEEN_ATTACKED_MG = 50, QUEEN_ATTACKED_EG = 44;
constexpr int WEAK_PAWN_MG = 3, WEAK_PAWN_EG = 15;

// The threat penalties of colour c's pieces, whose squares it attacks are `ours` and the enemy `theirs`,
// subtracted from mg and eg.
inline void side_threats(const Army& a, int c, const Attacks& ours, const Attacks& theirs, int& mg, int& eg) {
  const auto& own = a.pieces[c];
  const uint64_t minors = own[KNIGHT] | own[BISHOP];
  const auto charge = [&](uint64_t hit, int term_mg, int term_eg) {
    const int n = popcount(hit);
    mg -= n * term_mg, eg -= n * term_eg;
  };
  charge(minors & theirs.pawn, MINOR_BY_PAWN_MG, MINOR_BY_PAWN_EG);
  charge(minors & theirs.minor, MINOR_BY_MINOR_MG, MINOR_BY_MINOR_EG);
  charge(minors & theirs.major & ~ours.all, WEAK_MINOR_BY_MAJOR_MG, WEAK_MINOR_BY_MAJOR_EG);
  charge(own[ROOK] & (theirs.pawn | theirs.minor), ROOK_BY_LESSER_MG, ROOK_BY_LESSER_EG);
  charge(own[QUEEN] & theirs.all, QUEEN_ATTACKED_MG, QUEEN_ATTACKED_EG);
  charge(own[PAWN] & theirs.all & ~ours.all, WEAK_PAWN_MG, WEAK_PAWN_EG);
}

// Both colours' threat penalties, given the squares each attacks (side_activity's): white's subtracted from
// white_mg and white_eg, black's from black's.
inline void threats(const Army& a, const Attacks& white, const Attacks& black, int& white_mg, int& white_eg,
                    int& black_mg, int& black_eg) {
  side_threats(a, WHITE, white, black, white_mg, white_eg);
  side_threats(a, BLACK, black, white, black_mg, black_eg);
}

}  // namespace chess
}  // namespace tactician
