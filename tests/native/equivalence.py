"""What the per-game equivalence tests share: a compiled-core search of a Python state, the comparison of
its answer with the Python core's field by field, and the Python rules' perft and random games."""
from engine.deadline import Deadline
from engine.limits import Limits
from engine.search import expectimax, native

TT = Limits().tt_max_entries
# The statistics both cores must count alike.
STAT_FIELDS = ("nodes", "leaves", "cutoffs", "tt_hits", "max_depth", "depth_completed", "timed_out", "stop_reason")


def native_search(game, state, algorithm="alphabeta", seconds=None, **settings):
    """``algorithm`` on the compiled core from the Python ``state`` of ``game``, with the engine's table
    size: the raw answer of ``tactician_native.search``."""
    import tactician_native
    return tactician_native.search(game.id, game.native_state(state), algorithm,
                                   {"tt_max_entries": TT, **settings}, seconds, tactician_native.Token(), None)


def assert_same(native, python, stats=True):
    """Every field of the answer the same; the statistics too unless ``stats`` is False."""
    assert (native["move"], native["value"], native["outcome"], native["plies_to_end"]) == (
        python.move, python.value, python.outcome, python.plies_to_end)
    assert native["pv"] == python.pv
    assert [m[:3] for m in native["moves"]] == [(m.move, m.value, m.bound) for m in python.moves]
    if stats:
        assert {f: native["stats"][f] for f in STAT_FIELDS} == {f: getattr(python.stats, f) for f in STAT_FIELDS}


def expectimax_on_both(game, state, limits=Limits(), seconds=None, **options):
    """``(python, compiled)``: expectimax with ``options`` on each core through the engine's own entry points
    (the bridge's answer is a SearchResult, as the Python core's)."""
    settings = expectimax.Settings(**options)
    python = expectimax.search(game, state, settings, deadline=Deadline(seconds), limits=limits)
    compiled = native.search(game, state, expectimax.NAME, settings, Deadline(seconds), limits)
    return python, compiled


def assert_same_results(python, compiled):
    """Two SearchResults alike field by field: answer, root moves, certainty equivalent and statistics."""
    assert (compiled.move, compiled.value, compiled.pv, compiled.outcome, compiled.plies_to_end) == (
        python.move, python.value, python.pv, python.outcome, python.plies_to_end)
    assert [(m.move, m.value, m.bound) for m in compiled.moves] == [(m.move, m.value, m.bound) for m in python.moves]
    assert compiled.certainty_equivalent == python.certainty_equivalent
    assert {f: getattr(compiled.stats, f) for f in STAT_FIELDS} == {f: getattr(python.stats, f) for f in STAT_FIELDS}


def python_perft(game, state, depth):
    """The move sequences of ``depth`` plies from ``state`` by the Python rules (shorter where it ends)."""
    if depth == 0 or game.is_terminal(state):
        return 1
    return sum(python_perft(game, game.result(state, a), depth - 1) for a in game.actions(state))


def play_out(game, picks, state):
    """The states of a game from ``state`` that plays, at each turn, the legal move ``pick mod`` their
    number, for each pick until the game ends."""
    states = [state]
    for pick in picks:
        if game.is_terminal(state):
            break
        legal = game.actions(state)
        state = game.result(state, legal[pick % len(legal)])
        states.append(state)
    return states
