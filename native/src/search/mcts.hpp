// Monte Carlo tree search: engine/search/mcts.py for two-player win/draw/loss games without chance, step
// for step, so that the same seed and iteration cap give the same tree, the same answer, the same visit
// counts and the same statistics as the Python search. UCT selection (the same formula, the same float
// operations in the same order), expansion of the next untried move in natural order, a rollout (random,
// through the game's random_playout when it has one; or heuristic: epsilon-greedy on evaluate), and the
// MCTS-Solver's proofs. Randomness comes from search/random.hpp, Python's generator, drawn exactly where
// the Python search draws. One option the Python search lacks: RAVE (request.rave), for a game whose
// random_playout tells the moves it plays (Go's); without it the search is the Python one.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <tuple>
#include <utility>
#include <vector>

#include "core/budget.hpp"
#include "core/request.hpp"
#include "core/result.hpp"
#include "search/common.hpp"
#include "search/game.hpp"
#include "search/random.hpp"

namespace tactician {

namespace mcts_detail {

template <class G, class = void>
struct has_random_playout : std::false_type {};
template <class G>
struct has_random_playout<G, std::void_t<decltype(std::declval<const G&>().random_playout(
                                 std::declval<const typename G::State&>(), std::declval<Random&>()))>>
    : std::true_type {};

// G's random_playout(s, uniform, &moves) appends each ply's move to `moves` (-1: a ply RAVE credits no
// move for, as Go's passes).
template <class G, class = void>
struct has_amaf_playout : std::false_type {};
template <class G>
struct has_amaf_playout<G, std::void_t<decltype(std::declval<const G&>().random_playout(
                               std::declval<const typename G::State&>(), std::declval<Random&>(),
                               std::declval<std::vector<int>*>()))>> : std::true_type {};

constexpr int PROGRESS_EVERY = 1024;  // iterations between two progress reports
constexpr double ROLLOUT_EPSILON = 0.1;
constexpr int8_t UNPROVEN = 2;        // proof: +1, 0, -1 for the node's owner, or this
constexpr int8_t TERMINAL = -2;       // the mover of a terminal node

// Utilities in [-1, 1] scaled to [0, 1] and back, as engine.search.common.unit_interval does it.
inline double to_unit(double u) { return (u - -1.0) / 2.0; }
inline double from_unit(double x) { return std::fmin(1.0, std::fmax(-1.0, -1.0 + 2.0 * x)); }

template <class G>
class Mcts {
  using State = typename G::State;

  struct Node {
    State state;
    int parent;
    int first = -1;   // the node's moves and children in moves_ and kids_, from here (-1: not expanded)
    int n_moves = 0, n_kids = 0;
    int move = -1;    // the move that led here (-1: the root)
    int8_t owner, mover, proof = UNPROVEN;
    int64_t visits = 0;
    double wins = 0.0;
    Node(const State& s, int parent_, int owner_, int mover_)
        : state(s), parent(parent_), owner(int8_t(owner_)), mover(int8_t(mover_)) {}
  };

 public:
  Mcts(const G& game, const Request& request, const Budget& budget)
      : game_(game), request_(request), budget_(budget),
        rng_(request.seeded ? Random(request.seed) : Random()) {}

  Result run(const State& root) {
    int m = game_.to_move(root);
    tree_.emplace_back(root, -1, m, m);
    const char* stop = nullptr;
    bool timed_out = false;
    try {
      for (;;) {
        if (tree_[0].proof != UNPROVEN) { stop = SOLVED; break; }
        if (done_ == request_.iterations) { stop = ITERATION_LIMIT; break; }
        iterate();
        done_++;
        if (done_ % PROGRESS_EVERY == 0) report();
      }
    } catch (const Timeout&) {
      timed_out = true;
    }
    Result r;
    r.stats.nodes = nodes_;
    r.stats.leaves = leaves_;
    r.stats.max_depth = max_ply_;
    r.stats.iterations = done_;
    r.stats.timed_out = timed_out;
    r.stats.stop_reason = timed_out ? TIME_LIMIT : stop;
    int chosen = decision(r.moves);
    if (chosen < 0) {  // not one root move tried: the first ordered move allowed, valued by the evaluation
      r.move = first_move_fallback(game_, root, request_).move;
      r.value = game_.evaluate(root, m);
      r.moves.clear();
    } else {
      r.move = r.moves[chosen].move;
      r.value = r.moves[chosen].value;
      if (tree_[0].proof != UNPROVEN) r.outcome = tree_[0].proof > 0 ? "win" : tree_[0].proof < 0 ? "loss" : "draw";
      if (request_.multi_pv > 1) r.lines = lines_of(request_.multi_pv);
    }
    r.pv = {r.move};
    return r;
  }

 private:
  const G& game_;
  const Request& request_;
  const Budget& budget_;
  Random rng_;
  std::vector<Node> tree_;
  std::vector<int> moves_, kids_;
  std::vector<int> path_;
  std::vector<int64_t> amaf_visits_;         // RAVE, by slot of moves_: the iterations that played the move
  std::vector<double> amaf_wins_;            // later by the same player, and that player's rewards of them
  std::vector<int> played_;                  // RAVE: the moves of this iteration's playout
  std::vector<int64_t> marks_[2];            // RAVE: by player and move slot, the last update that saw it played
  int64_t update_ = 0;
  uint64_t nodes_ = 0, leaves_ = 0;
  int max_ply_ = 0;
  int64_t done_ = 0;

  void visit() { budget_.poll(++nodes_); }

  // The scaled rewards [player 0, player 1] of a final state or of a proven node.
  std::pair<double, double> final_reward(const State& s) const {
    return {to_unit(game_.utility(s, 0)), to_unit(game_.utility(s, 1))};
  }
  std::pair<double, double> proven_reward(int i) const {
    const Node& n = tree_[i];
    double mine = to_unit(n.proof), theirs = to_unit(-n.proof);
    return n.owner == 0 ? std::pair{mine, theirs} : std::pair{theirs, mine};
  }

  // Node i's moves; the root's, those the request allows (allowed_root).
  void expand(int i) {
    int moves[G::MAX_MOVES];
    int n = game_.actions(tree_[i].state, moves);
    if (i == 0) n = allowed_root(game_, tree_[i].state, request_, moves, n);
    tree_[i].first = int(moves_.size());
    tree_[i].n_moves = n;
    moves_.insert(moves_.end(), moves, moves + n);
    kids_.resize(moves_.size(), -1);
    if (request_.rave) amaf_visits_.resize(moves_.size(), 0), amaf_wins_.resize(moves_.size(), 0.0);
  }

  // Node i's child through its next untried move; a terminal child is proven at once.
  int add_node(int i) {
    Node& p = tree_[i];
    const int move = moves_[p.first + p.n_kids];
    State s = game_.result(p.state, move);
    int c = int(tree_.size());
    kids_[p.first + p.n_kids++] = c;
    int8_t owner = p.mover;
    bool terminal = game_.is_terminal(s);
    tree_.emplace_back(s, i, owner, terminal ? TERMINAL : game_.to_move(s));
    tree_[c].move = move;
    if (terminal) {
      tree_[c].proof = int8_t(game_.utility(s, owner));
      prove_ancestors(c);
    }
    return c;
  }

  // Back a new proof at node i up the tree while it decides its parent.
  void prove_ancestors(int i) {
    while (tree_[i].parent >= 0) {
      Node& p = tree_[tree_[i].parent];
      int8_t best;
      if (tree_[i].proof == 1) {
        best = 1;
      } else {
        if (p.n_kids < p.n_moves) return;
        best = -1;
        for (int k = 0; k < p.n_kids; k++) {
          int8_t q = tree_[kids_[p.first + k]].proof;
          if (q == UNPROVEN) return;
          best = std::max(best, q);
        }
      }
      p.proof = p.owner == p.mover ? best : int8_t(-best);
      i = tree_[i].parent;
    }
  }

  // RAVE's bound of node p's move in slot k, tried (child n) or not: the mean blended with the AMAF mean,
  // beta = sqrt(K / (3 visits + K)) of it (Gelly and Silver's schedule; K the rave_equivalence), and the
  // exploration term; an untried move's is its AMAF mean alone, FIRST_PLAY_URGENCY while it has none.
  static constexpr double FIRST_PLAY_URGENCY = 1.0;
  double rave_score(const Node& p, int k, const Node* n, double log_n) const {
    const int64_t amaf_n = amaf_visits_[p.first + k];
    if (!n) return amaf_n ? amaf_wins_[p.first + k] / double(amaf_n) : FIRST_PLAY_URGENCY;
    const double visits = double(n->visits), mean = n->wins / visits, k_rave = request_.rave_equivalence;
    const double amaf = amaf_n ? amaf_wins_[p.first + k] / double(amaf_n) : mean;
    const double beta = std::sqrt(k_rave / (3 * visits + k_rave));
    return (1 - beta) * mean + beta * amaf + request_.exploration * std::sqrt(log_n / visits);
  }

  // RAVE at node i with untried moves: whether the best of them (by rave_score) beats every tried child
  // not proven lost; if so it moves into slot n_kids, the next one add_node tries.
  bool rave_tries_another(int i) {
    const Node& p = tree_[i];
    const double log_n = std::log(double(p.visits));
    double tried = -std::numeric_limits<double>::infinity(), untried = tried;
    int best = p.n_kids;
    for (int k = 0; k < p.n_moves; k++) {
      const Node* n = k < p.n_kids ? &tree_[kids_[p.first + k]] : nullptr;
      if (n && n->proof == -1) continue;
      const double score = rave_score(p, k, n, log_n);
      if (n) tried = std::max(tried, score);
      else if (score > untried) untried = score, best = k;
    }
    if (untried <= tried) return false;
    const int a = p.first + p.n_kids, b = p.first + best;
    std::swap(moves_[a], moves_[b]);
    std::swap(amaf_visits_[a], amaf_visits_[b]), std::swap(amaf_wins_[a], amaf_wins_[b]);
    return true;
  }

  // The child with the best upper confidence bound (rave_score's with RAVE), skipping children proven
  // lost; the first on ties.
  int select_child(int i) const {
    const Node& p = tree_[i];
    double log_n = std::log(double(p.visits)), c_uct = request_.exploration;
    int best = -1;
    double best_score = -std::numeric_limits<double>::infinity();
    for (int k = 0; k < p.n_kids; k++) {
      int c = kids_[p.first + k];
      const Node& n = tree_[c];
      if (n.proof == -1) continue;
      double visits = double(n.visits);
      double score = request_.rave ? rave_score(p, k, &n, log_n) : n.wins / visits + c_uct * std::sqrt(log_n / visits);
      if (score > best_score) best = c, best_score = score;
    }
    return best;
  }

  // The move whose result the mover evaluates highest, the first on ties; each result is a visited node.
  int greedy(const State& s, int m, const int* legal, int n) {
    int best = -1;
    double best_value = -std::numeric_limits<double>::infinity();
    for (int a = 0; a < n; a++) {
      visit();
      double v = game_.evaluate(game_.result(s, legal[a]), m);
      if (v > best_value) best = legal[a], best_value = v;
    }
    return best;
  }

  // The heuristic rollout's move: a win at once if the game can tell, else with probability
  // ROLLOUT_EPSILON a random move, else the greedy one (among the candidates where the game prunes).
  int heuristic_move(const State& s, int m, const int* legal, int n) {
    if constexpr (has_immediate_win<G>::value) {
      int win = game_.immediate_win(s);
      if (win >= 0) return win;
    }
    if (rng_() < ROLLOUT_EPSILON) return legal[int(rng_() * n)];
    if constexpr (has_candidate_actions<G>::value) {
      if (lists<CANDIDATES>(game_)) {
        int candidates[G::MAX_MOVES];
        bool complete;
        int k = game_.candidate_actions(s, candidates, complete);
        return greedy(s, m, candidates, k);
      }
    }
    return greedy(s, m, legal, n);
  }

  // Play to the end of the game from s; the final rewards. Every state passed through before the end is
  // a visited node, whether the game plays out or this loop does.
  std::pair<double, double> simulate(State s) {
    bool random = request_.rollout == "random";
    if constexpr (has_random_playout<G>::value) {
      if (random) {
        Playout playout;
        if constexpr (has_amaf_playout<G>::value)
          playout = game_.random_playout(s, rng_, request_.rave ? &played_ : nullptr);
        else
          playout = game_.random_playout(s, rng_);
        uint64_t before = nodes_;
        nodes_ += playout.plies;
        if (before / Budget::CHECK_EVERY != nodes_ / Budget::CHECK_EVERY) budget_.check();  // crossed a poll
        return {to_unit(playout.utility[0]), to_unit(playout.utility[1])};
      }
    }
    int legal[G::MAX_MOVES];
    while (!game_.is_terminal(s)) {
      visit();
      int n = game_.actions(s, legal);
      int move = random ? legal[int(rng_() * n)] : heuristic_move(s, game_.to_move(s), legal, n);
      s = game_.result(s, move);
    }
    return final_reward(s);
  }

  void iterate() {
    int i = 0;
    path_.assign(1, 0);
    played_.clear();
    std::pair<double, double> reward;
    for (;;) {
      visit();
      Node& n = tree_[i];
      if (n.proof != UNPROVEN) { reward = proven_reward(i); break; }
      if (n.mover == TERMINAL) { reward = final_reward(n.state); break; }
      if (n.first < 0) expand(i);
      if (tree_[i].n_kids < tree_[i].n_moves && (!request_.rave || rave_tries_another(i))) {
        if (int64_t(tree_.size()) >= request_.tt_max_entries) { reward = simulate(tree_[i].state); break; }
        int c = add_node(i);
        path_.push_back(c);
        reward = tree_[c].proof != UNPROVEN ? proven_reward(c) : simulate(tree_[c].state);
        break;
      }
      i = select_child(i);
      path_.push_back(i);
    }
    leaves_++;
    max_ply_ = std::max(max_ply_, int(path_.size()) - 1);
    for (int j : path_) {
      Node& n = tree_[j];
      n.visits++;
      n.wins += n.owner == 0 ? reward.first : reward.second;
    }
    if constexpr (has_amaf_playout<G>::value) {
      if (request_.rave) credit_all_moves(reward);
    }
  }

  // RAVE's all-moves-as-first: each node of the path credits those of its moves (tried or not) that its
  // mover played later in this iteration (below it in the tree or in the playout), once a move.
  void credit_all_moves(const std::pair<double, double>& reward) {
    if (marks_[0].empty()) marks_[0].assign(move_slots<G>(), 0), marks_[1].assign(move_slots<G>(), 0);
    ++update_;
    int mover = tree_[path_.back()].mover;  // the playout's first mover (no playout after a terminal node)
    for (int move : played_) {
      if (move >= 0) marks_[mover][move_slot<G>(move)] = update_;
      mover ^= 1;
    }
    for (int j = int(path_.size()) - 1; j >= 0; --j) {
      const Node& n = tree_[path_[j]];
      if (j + 1 < int(path_.size())) marks_[n.mover][move_slot<G>(tree_[path_[j + 1]].move)] = update_;
      for (int k = 0; k < n.n_moves; k++) {
        if (marks_[n.mover][move_slot<G>(moves_[n.first + k])] != update_) continue;
        amaf_visits_[n.first + k]++;
        amaf_wins_[n.first + k] += n.mover == 0 ? reward.first : reward.second;
      }
    }
  }

  // The root mover's value of root child c: proven, or the mean of its rollouts.
  double mean(const Node& c) const { return c.proof != UNPROVEN ? c.proof : from_unit(c.wins / double(c.visits)); }

  // The root moves tried so far into `listed`, and the index of the answer among them (-1: none): a
  // child proven won, else the most visited of those not proven lost (of all, if every one is), ties to
  // the higher mean, then to the first.
  int decision(std::vector<MoveValue>& listed) const {
    listed.clear();
    const Node& root = tree_[0];
    std::vector<const Node*> tried;
    for (int k = 0; k < root.n_kids; k++) {
      const Node& c = tree_[kids_[root.first + k]];
      if (c.visits == 0 && c.proof == UNPROVEN) continue;
      tried.push_back(&c);
      listed.push_back({moves_[root.first + k], mean(c), c.proof != UNPROVEN ? Bound::Exact : Bound::Estimate, c.visits});
    }
    bool any_won = false, any_alive = false;
    for (const Node* c : tried) any_won |= c->proof == 1, any_alive |= c->proof != -1;
    int chosen = -1;
    for (int i = 0; i < int(tried.size()); i++) {
      const Node& c = *tried[i];
      if (any_won ? c.proof != 1 : any_alive && c.proof == -1) continue;
      if (chosen < 0 || c.visits > tried[chosen]->visits ||
          (c.visits == tried[chosen]->visits && mean(c) > mean(*tried[chosen])))
        chosen = i;
    }
    return chosen;
  }

  // Multi-PV (mcts.py's UCT.lines): the n best root moves tried, in the order of the decision (proven won,
  // then not proven lost, then the most visited, ties to the higher mean, then to the first), each with
  // its mean (or proven value), visits and outcome where proven, its line down the most visited children
  // (the first on ties) to the end of the tree.
  std::vector<Line> lines_of(int n) const {
    const Node& root = tree_[0];
    std::vector<int> tried;  // root child slots k
    for (int k = 0; k < root.n_kids; k++) {
      const Node& c = tree_[kids_[root.first + k]];
      if (c.visits > 0 || c.proof != UNPROVEN) tried.push_back(k);
    }
    auto key = [&](int k) {
      const Node& c = tree_[kids_[root.first + k]];
      return std::make_tuple(c.proof == 1, c.proof != -1, c.visits, mean(c));
    };
    std::stable_sort(tried.begin(), tried.end(), [&](int a, int b) { return key(a) > key(b); });
    if (int(tried.size()) > n) tried.resize(size_t(n));
    std::vector<Line> out;
    for (int k : tried) {
      const Node& c = tree_[kids_[root.first + k]];
      Line l{moves_[root.first + k], mean(c), c.proof != UNPROVEN ? Bound::Exact : Bound::Estimate,
             {moves_[root.first + k]}, "", -1, c.visits};
      if (c.proof != UNPROVEN) l.outcome = c.proof > 0 ? "win" : c.proof < 0 ? "loss" : "draw";
      for (const Node* node = &c; node->mover >= 0 && node->n_kids > 0;) {
        int best = 0;
        for (int j = 1; j < node->n_kids; j++)
          if (tree_[kids_[node->first + j]].visits > tree_[kids_[node->first + best]].visits) best = j;
        l.pv.push_back(moves_[node->first + best]);
        node = &tree_[kids_[node->first + best]];
      }
      out.push_back(l);
    }
    return out;
  }

  void report() const {
    std::vector<MoveValue> listed;
    int chosen = decision(listed);
    if (chosen < 0) return;
    Progress p;
    p.depth = p.seldepth = max_ply_;
    p.value = listed[chosen].value;
    p.move = listed[chosen].move;
    p.pv = {p.move};
    p.nodes = nodes_;
    p.iterations = done_;
    if (request_.multi_pv > 1) p.lines = lines_of(request_.multi_pv);
    budget_.report(p);
  }
};

}  // namespace mcts_detail

// UCT with MCTS-Solver (engine/search/mcts.py), for a two-player win/draw/loss game G without chance.
// Contract: runs iterations from `root` until request.iterations are done (-1: no cap), the root is proven
// (stop_reason "solved", outcome set) or the budget runs out ("time_limit"); the tree holds at most
// request.tt_max_entries nodes. Returns every root move tried with its visits and mean (exact when
// proven), the answer by the Python rule, and Stats as Python counts them. With request.seeded, the
// same seed and cap give the same result as the Python search.
template <class G>
Result mcts(const G& game, const typename G::State& root, const Request& request, const Budget& budget) {
  static_assert(G::OUTCOME_GAME, "the native MCTS scores win/draw/loss games");
  if (request.iterations < 0 && budget.unlimited())
    throw std::invalid_argument("mcts needs a budget: a time limit or algorithm.iterations");
  if (request.rollout != "random" && request.rollout != "heuristic")
    throw std::invalid_argument("rollout is 'random' or 'heuristic'");
  if (request.rave && (!mcts_detail::has_amaf_playout<G>::value || request.rollout != "random"))
    throw std::invalid_argument("rave needs random playouts that tell their moves (go's)");
  if (request.rave && !(request.rave_equivalence > 0)) throw std::invalid_argument("rave_equivalence is positive");
  return mcts_detail::Mcts<G>(game, request, budget).run(root);
}

}  // namespace tactician
