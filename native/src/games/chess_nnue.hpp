// Chess's learned evaluation: engine/games/chess/nnue.py's net (format version 1) in C++, the same integers.
// The weights come from Python once (bindings/chess.cpp's chess_nnue_install: the arrays nnue.py read and
// verified, so no accumulator leaves int16 and no output int32), never parsed here. A state keeps both
// perspectives' accumulators, White's entries first, then Black's, and a move updates them by the features
// it adds and removes (no feature depends on a king's square: every move is incremental).
//
// ChessNnue is the Chess game with that state and evaluation; everything else (rules, ordering, the search's
// knowledge) is Chess's, read through the state's Chess part.
#pragma once

#include <algorithm>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "games/chess.hpp"

namespace tactician {
namespace chess {

constexpr int NNUE_INPUTS = 768, NNUE_QA = 255, NNUE_QB = 64, NNUE_SCALE = 400;
constexpr int NNUE_MAX_HIDDEN = 512;  // the hidden units a state has room for (bindings refuse more)
constexpr int NNUE_MAX_CHANGES = 2;   // features a move adds, and removes, at most (castling: king and rook)

struct Network {
  int hidden = 0;
  std::vector<int16_t> w1;  // NNUE_INPUTS x hidden, a feature's weights a row
  std::vector<int16_t> b1;  // hidden
  std::vector<int16_t> w2;  // 2 x hidden: the mover's accumulator's weights, then the other side's
  int32_t b2 = 0;
  std::string sha256;       // the payload's digest: the name Python's states give the net
  std::vector<int16_t> zero;  // a row of zeros (the update's padding)

  const int16_t* row(int feature) const { return w1.data() + size_t(feature) * size_t(hidden); }
};

// nnue.py's feature: a piece of colour c and type t on square s, seen from `perspective`.
constexpr int nnue_feature(int perspective, int c, int t, int s) {
  return (c != perspective) * 384 + t * 64 + (perspective == WHITE ? s : s ^ 56);
}

// The accumulators of `pieces` from scratch: b1 plus the rows of every piece's features.
inline void nnue_refresh(const Network& net, const uint64_t (&pieces)[2][6], int16_t* acc) {
  const int h = net.hidden;
  for (int p : {WHITE, BLACK}) {
    int16_t* out = acc + p * h;
    std::copy_n(net.b1.data(), h, out);
    for (int c : {WHITE, BLACK})
      for (int t = 0; t < 6; ++t)
        for (uint64_t b = pieces[c][t]; b; b &= b - 1) {
          const int16_t* row = net.row(nnue_feature(p, c, t, lsb(b)));
          for (int i = 0; i < h; ++i) out[i] = int16_t(out[i] + row[i]);
        }
  }
}

// `to` = `from` plus the features of `after` that `before` lacks, less those it lost (a move's changes,
// found from the bitboards, so every kind of move is one case).
inline void nnue_update(const Network& net, const uint64_t (&before)[2][6], const uint64_t (&after)[2][6],
                        const int16_t* __restrict from, int16_t* __restrict to) {
  int added[NNUE_MAX_CHANGES * 3], removed[NNUE_MAX_CHANGES * 3], n_added = 0, n_removed = 0;  // (c * 6 + t) * 64 + s
  for (int c : {WHITE, BLACK})
    for (int t = 0; t < 6; ++t) {
      for (uint64_t b = after[c][t] & ~before[c][t]; b; b &= b - 1) added[n_added++] = (c * 6 + t) * 64 + lsb(b);
      for (uint64_t b = before[c][t] & ~after[c][t]; b; b &= b - 1) removed[n_removed++] = (c * 6 + t) * 64 + lsb(b);
    }
  const int h = net.hidden;
  for (int p : {WHITE, BLACK}) {
    const int16_t* rows[2 * NNUE_MAX_CHANGES];
    for (int k = 0; k < NNUE_MAX_CHANGES; ++k) {
      const int a = k < n_added ? added[k] : -1, r = k < n_removed ? removed[k] : -1;
      rows[k] = a < 0 ? net.zero.data() : net.row(nnue_feature(p, a / 384, a / 64 % 6, a % 64));
      rows[NNUE_MAX_CHANGES + k] = r < 0 ? net.zero.data() : net.row(nnue_feature(p, r / 384, r / 64 % 6, r % 64));
    }
    const int16_t *a0 = rows[0], *a1 = rows[1], *r0 = rows[2], *r1 = rows[3];
    const int16_t* in = from + p * h;
    int16_t* out = to + p * h;
    for (int i = 0; i < h; ++i) out[i] = int16_t(in[i] + a0[i] + a1[i] - r0[i] - r1[i]);
  }
}

// The net's centipawns for the side to move `us` (nnue.py's centipawns): b2 plus the clipped accumulators
// (the mover's first) dotted with W2, times scale over qa * qb, truncated toward zero.
inline int nnue_centipawns(const Network& net, const int16_t* acc, int us) {
  const int h = net.hidden;
  const int16_t *mine = acc + us * h, *theirs = acc + (us ^ 1) * h, *w = net.w2.data();
  int32_t out = net.b2;
  for (int i = 0; i < h; ++i) out += int32_t(std::clamp<int16_t>(mine[i], 0, NNUE_QA)) * w[i];
  for (int i = 0; i < h; ++i) out += int32_t(std::clamp<int16_t>(theirs[i], 0, NNUE_QA)) * w[h + i];
  return int(int64_t(out) * NNUE_SCALE / (NNUE_QA * NNUE_QB));
}

}  // namespace chess

// Chess valued by a net (engine/games/chess/__init__.py's NnueChess): Chess's rules and knowledge, the state
// with the accumulators, the evaluation the net's centipawns scaled and bounded as the classic one.
class ChessNnue : public Chess {
 public:
  // Chess's state and the accumulators; a copy takes only the entries in use (2 x hidden).
  struct State : Chess::State {
    int width = 0;
    alignas(64) int16_t acc[2 * chess::NNUE_MAX_HIDDEN];

    State() = default;
    State(const State& other) : Chess::State(other), width(other.width) { std::copy_n(other.acc, width, acc); }
    State& operator=(const State& other) {
      Chess::State::operator=(other);
      width = other.width;
      std::copy_n(other.acc, width, acc);
      return *this;
    }
  };

  explicit ChessNnue(std::shared_ptr<const chess::Network> net) : net_(std::move(net)) {}

  // A Chess state with its accumulators computed from scratch.
  State with_accumulators(const Chess::State& s) const {
    State out;
    static_cast<Chess::State&>(out) = s;
    out.width = 2 * net_->hidden;
    chess::nnue_refresh(*net_, s.pieces, out.acc);
    return out;
  }

  // Chess's result, its accumulators `s`'s plus the features the move adds less those it removes (one
  // pass, no copy of `s`'s first). The null move is Chess's: a pass changes no feature.
  State result(const State& s, int move) const {
    State n;
    static_cast<Chess::State&>(n) = s;
    play(s, move, n);
    n.width = s.width;
    chess::nnue_update(*net_, s.pieces, n.pieces, s.acc, n.acc);
    return n;
  }

  // The net's centipawns for the side to move (nnue.py's centipawns).
  int centipawns(const State& s) const { return chess::nnue_centipawns(*net_, s.acc, mover(s)); }

  // The Chess game's evaluate with the net's centipawns in place of the classic score (NnueChess's).
  double evaluate(const State& s, int player) const {
    if (s.status != ONGOING) return utility(s, player);
    return bounded(double(centipawns(s)), s, player);
  }

 private:
  std::shared_ptr<const chess::Network> net_;
};

}  // namespace tactician
