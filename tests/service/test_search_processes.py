"""service/search_processes.py: a search in a forked child gives what it would give in the worker, its
errors arrive as themselves, and the child neither outlives its worker's wishes nor keeps the worker's
descriptors open."""
import os
import socket
import time

import pytest

import engine.api
from engine.errors import AlgorithmMismatch, InvalidState
from service.search_processes import INFO, RESULT, SearchFailed, SearchProcess

CONNECT4 = ("connect4", {"moves": "4453"}, {"name": "alphabeta", "depth": 5})


def test_the_result_is_the_one_the_search_gives_in_the_worker():
    game, state, algorithm = CONNECT4
    here = engine.api.search(game, state, algorithm)
    with SearchProcess(lambda on_progress: engine.api.search(game, state, algorithm), nice=0) as process:
        there = process.result()
    assert (there.move, there.value, there.pv, there.stats.nodes) == (here.move, here.value, here.pv, here.stats.nodes)


def test_progress_reports_arrive_in_order_before_the_result():
    game, state, algorithm = CONNECT4
    prepared = engine.api.Search(game, state, algorithm)
    with SearchProcess(prepared.run, nice=0) as process:
        kinds, depths = [], []
        while True:
            kind, data = process.next_message(30)
            kinds.append(kind)
            if kind == INFO:
                depths.append(data.depth)
            if kind == RESULT:
                break
    assert kinds[-1] == RESULT and set(kinds[:-1]) == {INFO}
    assert depths == sorted(depths) and depths[-1] == 5


@pytest.mark.parametrize("error", [InvalidState("no such cell", field="state.board"),
                                   AlgorithmMismatch("not for this game")])
def test_an_engine_error_arrives_as_itself(error):
    def search(on_progress):
        raise error

    with SearchProcess(search, nice=0) as process, pytest.raises(type(error)) as raised:
        process.result()
    assert raised.value.errors == error.errors and str(raised.value) == str(error)


def test_a_fault_or_a_death_is_a_failure():
    def faulty(on_progress):
        raise RuntimeError("a bug")

    def dying(on_progress):
        os._exit(3)

    with SearchProcess(faulty, nice=0) as process, pytest.raises(SearchFailed, match="a bug"):
        process.result()
    with SearchProcess(dying, nice=0) as process, pytest.raises(SearchFailed, match="without an answer"):
        process.result()


def test_a_child_that_overstays_is_killed_and_reaped():
    with SearchProcess(lambda on_progress: time.sleep(60), nice=0, wait_s=0.3) as process:
        started = time.perf_counter()
        assert process.next_message(0.1) is None  # not yet overstayed: nothing came
        with pytest.raises(SearchFailed, match="no answer within"):
            process.result()
        assert time.perf_counter() - started < 5
    with pytest.raises(ChildProcessError):
        os.waitpid(process.pid, os.WNOHANG)  # reaped: no zombie left


def test_the_search_runs_nice_levels_lower():
    mine = os.getpriority(os.PRIO_PROCESS, 0)
    with SearchProcess(lambda on_progress: os.getpriority(os.PRIO_PROCESS, 0), nice=5) as process:
        assert process.result() == min(19, mine + 5)


def test_the_child_does_not_keep_the_workers_connections_open():
    """A connection the worker closes while a search runs is closed for its client at once, not when
    the search's process exits."""
    client, server = socket.socketpair()
    with SearchProcess(lambda on_progress: time.sleep(5), nice=0):
        time.sleep(0.2)  # the child is running
        server.close()
        client.settimeout(2)
        assert client.recv(1) == b""  # end of stream now, while the child still sleeps
    client.close()


def test_a_stopped_search_answers_as_on_a_timeout():
    prepared = engine.api.Search("tictactoe", {"board": ["." * 7] * 7, "k": 4}, {"name": "minimax"}, 10_000)
    process = SearchProcess(prepared.run, nice=0, stop=prepared.cancel)
    try:
        time.sleep(0.3)  # searching
        started = time.perf_counter()
        process.stop(5)
        assert time.perf_counter() - started < 2
        (kind, result), = [m for m in process.leftovers() if m[0] == RESULT]
        assert result.stats.timed_out and result.stats.nodes > 0
    finally:
        process.close()
