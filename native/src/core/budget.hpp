// The budget of a search: a wall-clock deadline, a cancellation token shared with Python, and the sink
// that progress reports go to. As in the Python engine (engine/deadline.py), a search polls the budget
// every so many nodes and unwinds with Timeout once it has run out; the caller owns time control.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <vector>

#include "core/result.hpp"

namespace tactician {

// Thrown at a poll once the budget has run out or was cancelled; the search driver catches it.
struct Timeout {};

// Cancellation from another thread (a client went away, the worker stops): cancel() expires every
// budget that holds the token at its next poll. Python holds it too (tactician_native.Token).
struct Token {
  std::atomic<bool> cancelled{false};
  void cancel() { cancelled.store(true, std::memory_order_relaxed); }
  bool is_cancelled() const { return cancelled.load(std::memory_order_relaxed); }
};

// What a search knows after one more iteration: the fields of engine.result.Progress (the time is added
// by Python). Values are from the point of view of the search's perspective player, in API units.
struct Progress {
  int depth = 0;
  double value = 0.0;
  int move = -1;
  std::vector<int> pv;
  uint64_t nodes = 0;
  int seldepth = 0;
  int64_t iterations = -1;  // MCTS only
  std::vector<Line> lines;  // multi-PV: the iteration's best lines
};
using ProgressSink = std::function<void(const Progress&)>;

using Clock = std::chrono::steady_clock;

class Budget {
 public:
  // Nodes between two polls of the clock (a power of two): a clock read costs some 20 ns, a node of
  // Connect Four about 50, so polls take well under 1% of the time and overshoot by microseconds.
  static constexpr uint64_t CHECK_EVERY = 256;

  // seconds < 0: no deadline (cancellation still stops the search). max_nodes: the node budget
  // (algorithm.nodes, a multiple of CHECK_EVERY; 0: none), tested as engine/deadline.py's Deadline.count.
  Budget(double seconds, const Token* token, const ProgressSink* sink = nullptr, uint64_t max_nodes = 0)
      : start_(Clock::now()), unlimited_(seconds < 0), token_(token), sink_(sink),
        max_nodes_(max_nodes ? max_nodes : UINT64_MAX) {
    end_ = start_ + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(unlimited_ ? 0.0 : seconds));
  }

  bool expired() const {
    return (token_ != nullptr && token_->is_cancelled()) || (!unlimited_ && Clock::now() >= end_);
  }
  void check() const {
    if (expired()) throw Timeout{};
  }
  // The cheap poll of a search's inner loop: the clock is read once every CHECK_EVERY nodes.
  void poll(uint64_t nodes) const {
    if ((nodes & (CHECK_EVERY - 1)) == 0) {
      count(nodes);
      check();
    }
  }
  // Throw Timeout at a multiple of CHECK_EVERY nodes at or past the node budget: the nodes at which the
  // Python core tests it too, so that both stop at the same node.
  void count(uint64_t nodes) const {
    if ((nodes & (CHECK_EVERY - 1)) == 0) spent(nodes);
  }
  // Throw Timeout if `nodes` is at or past the node budget: for a search that tests it at nodes of its
  // own choosing (2048's players' nodes), the same in both cores.
  void spent(uint64_t nodes) const {
    if (nodes >= max_nodes_) throw Timeout{};
  }

  // A budget with the same start that ends once `fraction` of the time left now has passed (never, if
  // this one never does): a budget for one phase of a search, like Deadline.share.
  Budget share(double fraction) const {
    Budget part = *this;
    if (!unlimited_) {
      auto now = Clock::now();
      auto left = end_ > now ? end_ - now : Clock::duration::zero();
      part.end_ = now + std::chrono::duration_cast<Clock::duration>(left * fraction);
    }
    return part;
  }

  // Throw Timeout unless `seconds` remain: before a step that cannot poll the clock (growing or clearing
  // a large table), so that it never runs past the deadline; the search then stops a little early.
  void check_room(double seconds) const {
    if (expired() || remaining() < seconds) throw Timeout{};
  }

  // Whether the token was cancelled (whatever the time).
  bool cancelled() const { return token_ != nullptr && token_->is_cancelled(); }

  double elapsed() const { return std::chrono::duration<double>(Clock::now() - start_).count(); }
  bool unlimited() const { return unlimited_; }
  // Seconds left (a large number when unlimited).
  double remaining() const {
    if (unlimited_) return 1e18;
    double left = std::chrono::duration<double>(end_ - Clock::now()).count();
    return left > 0 ? left : 0.0;
  }

  void report(const Progress& progress) const {
    if (sink_ != nullptr && *sink_) (*sink_)(progress);
  }

 private:
  Clock::time_point start_, end_;
  bool unlimited_;
  const Token* token_;
  const ProgressSink* sink_;
  uint64_t max_nodes_;
};

}  // namespace tactician
