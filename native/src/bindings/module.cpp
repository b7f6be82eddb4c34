// The module tactician_native: one search entry for every game with a compiled core, a cancellation
// token, and each game's rules for the equivalence tests (bindings/<game>.cpp).
#include <map>
#include <optional>
#include <stdexcept>
#include <string>

#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include "bindings/common.hpp"
#include "search/random.hpp"

namespace tactician {
namespace {

Entries& entries() {
  static Entries table;
  return table;
}

template <class T>
void read(const nb::dict& settings, const char* name, T& into) {
  if (settings.contains(name) && !settings[name].is_none()) into = nb::cast<T>(settings[name]);
}

Request request_from(const std::string& algorithm, const nb::dict& settings) {
  Request r;
  r.algorithm = algorithm;
  read(settings, "depth", r.depth);
  read(settings, "move_ordering", r.move_ordering);
  read(settings, "transposition_table", r.transposition_table);
  read(settings, "strict_cutoffs", r.strict_cutoffs);
  read(settings, "solve", r.solve);
  read(settings, "iterations", r.iterations);
  read(settings, "exploration", r.exploration);
  if (settings.contains("seed") && !settings["seed"].is_none()) {
    r.seeded = true;
    r.seed = nb::cast<uint64_t>(settings["seed"]);
  }
  read(settings, "rollout", r.rollout);
  read(settings, "rave", r.rave);
  read(settings, "rave_equivalence", r.rave_equivalence);
  read(settings, "playout", r.playout);
  read(settings, "probability_cutoff", r.probability_cutoff);
  read(settings, "pruning", r.pruning);
  read(settings, "forward_pruning", r.forward_pruning);
  if (settings.contains("utility")) r.utility = nb::cast<std::string>(settings["utility"].attr("kind"));
  for (const char* name : {"opponent_model", "epsilon"})
    if (settings.contains(name) && !settings[name].is_none()) r.opponent_model = true;
  read(settings, "tt_max_entries", r.tt_max_entries);
  read(settings, "multi_pv", r.multi_pv);
  read(settings, "nodes", r.nodes);
  read(settings, "root_moves", r.root_moves);
  return r;
}

nb::object none_if(bool absent, nb::object value) { return absent ? nb::none() : value; }

nb::list int_list(const std::vector<int>& xs) {
  nb::list out;
  for (int x : xs) out.append(x);
  return out;
}

// Multi-PV lines as tuples (move, value, bound, pv, outcome, plies_to_end, visits), as engine/search/native.py
// reads them.
nb::list line_list(const std::vector<Line>& lines) {
  nb::list out;
  for (const Line& l : lines)
    out.append(nb::make_tuple(l.move, l.value + 0.0, bound_name(l.bound), int_list(l.pv),
                              none_if(l.outcome.empty(), nb::str(l.outcome.c_str())),
                              none_if(l.plies_to_end < 0, nb::int_(l.plies_to_end)),
                              none_if(l.visits < 0, nb::int_(l.visits))));
  return out;
}

nb::dict to_dict(const Result& r) {
  nb::dict stats;
  stats["nodes"] = r.stats.nodes;
  stats["leaves"] = r.stats.leaves;
  stats["depth_completed"] = r.stats.depth_completed;
  stats["max_depth"] = r.stats.max_depth;
  stats["cutoffs"] = r.stats.cutoffs;
  stats["tt_hits"] = r.stats.tt_hits;
  stats["iterations"] = none_if(r.stats.iterations < 0, nb::int_(r.stats.iterations));
  stats["timed_out"] = r.stats.timed_out;
  stats["stop_reason"] = r.stats.stop_reason;
  nb::list moves;
  for (const MoveValue& mv : r.moves)
    moves.append(nb::make_tuple(mv.move, mv.value, bound_name(mv.bound),
                                none_if(mv.visits < 0, nb::int_(mv.visits))));
  nb::dict out;
  out["move"] = r.move;
  out["value"] = r.value;
  out["outcome"] = none_if(r.outcome.empty(), nb::str(r.outcome.c_str()));
  out["plies_to_end"] = none_if(r.plies_to_end < 0, nb::int_(r.plies_to_end));
  out["pv"] = int_list(r.pv);
  out["moves"] = moves;
  out["stats"] = stats;
  if (!r.lines.empty()) out["lines"] = line_list(r.lines);
  return out;
}

// Progress reports go to a Python callable, called with the GIL taken back.
ProgressSink sink_for(nb::object progress) {
  if (progress.is_none()) return {};
  return [progress](const Progress& p) {
    nb::gil_scoped_acquire gil;
    nb::dict report;
    report["depth"] = p.depth;
    report["value"] = p.value;
    report["move"] = p.move;
    report["pv"] = int_list(p.pv);
    report["nodes"] = p.nodes;
    report["seldepth"] = p.seldepth;
    report["iterations"] = none_if(p.iterations < 0, nb::int_(p.iterations));
    if (!p.lines.empty()) report["lines"] = line_list(p.lines);
    progress(report);
  };
}

const Entry& entry_of(const std::string& game) {
  auto entry = entries().find(game);
  if (entry == entries().end()) throw std::invalid_argument("no compiled core for game " + game);
  return entry->second;
}

nb::dict search(const std::string& game, nb::handle state, const std::string& algorithm, nb::dict settings,
                std::optional<double> seconds, Token& token, nb::object progress) {
  const Entry& entry = entry_of(game);
  Request request = request_from(algorithm, settings);
  if (entry.refusal != nullptr) {
    if (const char* why = entry.refusal(state, request)) throw std::invalid_argument(why);
  }
  ProgressSink sink = sink_for(progress);
  Budget budget(seconds ? *seconds : -1.0, &token, &sink, uint64_t(request.nodes));
  return to_dict(entry.search(state, request, budget));
}

std::optional<std::string> unfit(const std::string& game, nb::handle state, const std::string& algorithm,
                                 nb::dict settings) {
  const Entry& entry = entry_of(game);
  const char* why = entry.refusal == nullptr ? nullptr : entry.refusal(state, request_from(algorithm, settings));
  return why == nullptr ? std::nullopt : std::optional<std::string>(why);
}

}  // namespace
}  // namespace tactician

NB_MODULE(tactician_native, m) {
  using namespace tactician;
  m.doc() = "Tactician's compiled search core (native/): the same contract as the Python engine.";
  nb::class_<Token>(m, "Token", "Cancels the native searches that hold it, from any thread.")
      .def(nb::init<>())
      .def("cancel", &Token::cancel)
      .def_prop_ro("cancelled", &Token::is_cancelled);
  m.def("search", &search, nb::arg("game"), nb::arg("state"), nb::arg("algorithm"), nb::arg("settings"),
        nb::arg("seconds").none(), nb::arg("token"), nb::arg("progress").none(),
        "Search `state` of `game` with `algorithm` and its `settings` (engine/search/native.py); the GIL is "
        "released while it runs. Returns the result as a dict.");
  m.def("unfit", &unfit, nb::arg("game"), nb::arg("state"), nb::arg("algorithm"), nb::arg("settings"),
        "Why the compiled core does not run this search (one it does not cover), or None when it does.");
  m.def("random_floats", [](uint64_t seed, int n) {
    Random uniform(seed);
    std::vector<double> out(n);
    for (double& x : out) x = uniform();
    return out;
  }, "The first n draws of the searches' generator seeded with `seed`: random.Random(seed).random()'s.");
  bind_connect4(m, entries());
  bind_mnk(m, entries());
  bind_othello(m, entries());
  bind_chess(m, entries());
  bind_twenty48(m, entries());
  bind_checkers(m, entries());
  bind_backgammon(m, entries());
  bind_go(m, entries());
  nb::list games;
  for (const auto& [id, _] : entries()) games.append(id);
  m.attr("GAMES") = nb::tuple(games);
}
