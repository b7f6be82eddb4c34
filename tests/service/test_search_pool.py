"""service/search_pool.py: a search in a pool's process gives what it would give in the worker, its
errors arrive as themselves, the processes are reused, recycled and replaced when they fail, and none
outlives the pool nor keeps the worker's descriptors open."""
import os
import socket
import time

import pytest

import engine.api
from engine.errors import AlgorithmMismatch, InvalidState
from engine.limits import Limits
import service.routes.search
from service.memory import rss_bytes
from service.search_pool import (INFO, MIN_BUDGET_MS, READY, RESULT, SearchFailed, SearchPool, clock, in_time_left,
                                 remaining_ms)

engine.api.preload()  # as the app does: the processes then start with the engine loaded

OTHELLO = engine.api.describe_game("othello")["initial_state"]


def request(game="connect4", state=None, algorithm=None, time_limit_ms=None, trace=False):
    state = {"moves": "4453"} if state is None else state
    algorithm = {"name": "alphabeta", "depth": 5, "core": "python"} if algorithm is None else algorithm
    return {"game_id": game, "state_json": state, "algorithm": algorithm, "time_limit_ms": time_limit_ms,
            "trace": trace, "limits": Limits()}


def lean_enough() -> int:
    """A memory cap that a fresh process of this one is under: a forked process starts at its parent's
    resident size, and this test process, thousands of tests on (JAX's training among them), can be past the
    pool's default 1 GiB before any search has grown it."""
    return rss_bytes(os.getpid()) + (1 << 30)


@pytest.fixture
def pool():
    made = []

    def make(size=1, **settings):
        settings.setdefault("max_rss_bytes", lean_enough())
        made.append(SearchPool(size, **settings))
        return made[-1]
    yield make
    for each in made:
        each.close()


def at_rest(searches, timeout_s: float = 10.0) -> None:
    """Wait, at most ``timeout_s``, until the pool has done what a search's end set off on a thread of its
    own: a retired process reaped and its replacement forked and idle (nothing spawning, every process
    idle)."""
    give_up = time.monotonic() + timeout_s
    while time.monotonic() < give_up:
        with searches.guard:
            if not searches.spawning and not searches.busy and len(searches.idle) == searches.size:
                return
        time.sleep(0.005)
    raise AssertionError("the pool did not come to rest")


def reaped(pid: int) -> bool:
    """Whether ``pid`` is no child of ours any more (neither running nor a zombie left to reap)."""
    try:
        os.waitpid(pid, os.WNOHANG)  # running: (0, 0); a zombie: reaped here, too late
    except ChildProcessError:
        return True
    return False


def gone(pid: int) -> bool:
    """Whether ``pid`` has exited (a zombie waiting for whoever adopted it counts)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] == "Z"
    except OSError:
        return True


def test_the_result_is_the_one_the_search_gives_in_the_worker(pool):
    here = engine.api.search(**{k: v for k, v in request().items()})
    with pool().search(request()) as process:
        there = process.result()
    assert (there.move, there.value, there.pv, there.stats.nodes) == (here.move, here.value, here.pv, here.stats.nodes)


def test_the_state_s_reading_then_progress_reports_arrive_in_order_before_the_result_when_asked(pool):
    with pool().search(request(), progress=True) as process:
        kinds, depths = [], []
        while True:
            kind, data = process.next_message(30)
            kinds.append(kind)
            if kind == INFO:
                depths.append(data.depth)
            if kind == RESULT:
                break
    assert kinds[0] == READY and kinds[-1] == RESULT and set(kinds[1:-1]) == {INFO}  # READY: the state is read
    assert depths == sorted(depths) and depths[-1] == 5
    with pool().search(request()) as process:
        assert process.next_message(30)[0] == RESULT  # not asked: no progress


@pytest.mark.parametrize("error", [InvalidState("no such cell", field="state.board"),
                                   AlgorithmMismatch("not for this game")])
def test_an_engine_error_arrives_as_itself(pool, monkeypatch, error):
    def run(self, on_progress=None):
        raise error

    monkeypatch.setattr(engine.api.Search, "run", run)  # before the fork: the process has it
    searches = pool()
    with searches.search(request()) as process, pytest.raises(type(error)) as raised:
        process.result()
    assert raised.value.errors == error.errors and str(raised.value) == str(error)
    with searches.search(request()) as again, pytest.raises(type(error)):
        again.result()
    assert again.pid == process.pid  # an engine error is an answer: the process goes on


def test_the_processes_are_reused(pool):
    searches = pool(2).start()
    pids = set()
    for _ in range(5):
        with searches.search(request()) as process:
            process.result()
        pids.add(process.pid)
    assert len(pids) == 1 and pids <= set(searches.pids)


def test_a_process_is_recycled_after_its_searches(pool):
    searches = pool(1, max_searches=3)
    pids = []
    for _ in range(7):
        with searches.search(request()) as process:
            process.result()
        pids.append(process.pid)
        at_rest(searches)  # the replacement is forked on a thread of its own
    assert pids[0] == pids[1] == pids[2] != pids[3] == pids[4] == pids[5] != pids[6]
    assert reaped(pids[0]) and reaped(pids[3])


def test_a_process_above_its_memory_bound_is_recycled(pool):
    searches = pool(1, max_rss_bytes=1)  # every process is above it
    with searches.search(request()) as first:
        first.result()
    with searches.search(request()) as second:
        second.result()
    assert first.pid != second.pid


def test_a_fault_or_a_death_is_a_failure_and_the_process_is_replaced(pool, monkeypatch):
    def run(self, on_progress=None):
        if self.game.id == "tree":
            raise RuntimeError("a bug")
        if self.game.id == "tictactoe":
            os._exit(3)
        return original(self, on_progress)

    original = engine.api.Search.run
    monkeypatch.setattr(engine.api.Search, "run", run)
    searches = pool(1)
    tree = {"root": {"type": "max", "children": [{"value": 1}, {"value": 2}]}}
    with searches.search(request("tree", tree, {"name": "minimax"})) as faulty, \
            pytest.raises(SearchFailed, match="a bug"):
        faulty.result()
    board = {"board": ["...", "...", "..."]}
    with searches.search(request("tictactoe", board, {"name": "minimax", "core": "python"})) as dying, \
            pytest.raises(SearchFailed, match="without an answer"):
        dying.result()
    at_rest(searches)
    assert reaped(dying.pid)
    with searches.search(request()) as survivor:  # the pool goes on, with a fresh process
        assert survivor.result().move is not None
    assert survivor.pid != dying.pid


def test_a_process_that_overstays_is_killed_and_replaced(pool, monkeypatch):
    monkeypatch.setattr(engine.api.Search, "run", lambda self, on_progress=None: time.sleep(60))
    searches = pool(1)
    with searches.search(request(), wait_s=0.3) as process:
        started = time.perf_counter()
        assert process.next_message(0.1) is None  # not yet overstayed: nothing came
        with pytest.raises(SearchFailed, match="no answer within"):
            process.result()
        assert time.perf_counter() - started < 5
    at_rest(searches)
    assert reaped(process.pid)  # killed and reaped: no zombie left
    assert len(searches.pids) == 1 and searches.pids != [process.pid]


def test_the_search_runs_nice_levels_lower(pool, monkeypatch):
    monkeypatch.setattr(engine.api.Search, "run",
                        lambda self, on_progress=None: os.getpriority(os.PRIO_PROCESS, 0))
    mine = os.getpriority(os.PRIO_PROCESS, 0)
    with pool(nice=5).search(request()) as process:
        assert process.result() == min(19, mine + 5)


def test_the_processes_do_not_keep_the_workers_connections_open(pool):
    """A connection the worker closes is closed for its client at once, whatever processes the pool
    forked while it was open."""
    client, server = socket.socketpair()
    searches = pool(2).start()
    server.close()
    client.settimeout(2)
    assert client.recv(1) == b""  # end of stream now, while the processes wait for searches
    client.close()
    assert len(searches.pids) == 2


def test_a_stopped_search_answers_as_on_a_timeout(pool):
    searches = pool(1)
    big = request("tictactoe", {"board": ["." * 7] * 7, "k": 4}, {"name": "minimax", "core": "python"}, 10_000)
    process = searches.search(big)
    try:
        time.sleep(0.3)  # searching
        started = time.perf_counter()
        process.stop(5)
        assert time.perf_counter() - started < 2
        (kind, result), = [m for m in process.leftovers() if m[0] == RESULT]
        assert result.stats.timed_out and result.stats.nodes > 0
    finally:
        process.close()
    with searches.search(request()) as again:  # the stopped process is reused, and not stopped again
        assert not again.result().stats.timed_out
    assert again.pid == process.pid


def test_no_process_outlives_the_pool(pool):
    searches = pool(2).start()
    pids = searches.pids
    with searches.search(request()) as process:
        process.result()
    running = searches.search(request("tictactoe", {"board": ["." * 7] * 7, "k": 4},
                                      {"name": "minimax", "core": "python"}, 10_000))
    searches.close()
    running.close()
    assert all(reaped(pid) for pid in pids + [running.pid])
    with pytest.raises(SearchFailed):
        searches.search(request())


def test_a_process_leaves_when_its_worker_is_killed(tmp_path):
    """However the worker ends (here: SIGKILL), its processes end with it."""
    pid_file = tmp_path / "pids"
    worker = os.fork()
    if worker == 0:
        try:
            searches = SearchPool(2, max_rss_bytes=lean_enough()).start()
            pid_file.write_text(" ".join(map(str, searches.pids)))
            time.sleep(60)
        finally:
            os._exit(0)
    try:
        for _ in range(100):
            if pid_file.exists() and pid_file.read_text():
                break
            time.sleep(0.05)
        pids = [int(p) for p in pid_file.read_text().split()]
        assert not any(gone(pid) for pid in pids)
    finally:
        os.kill(worker, 9)
        os.waitpid(worker, 0)
    give_up = time.monotonic() + 5
    while not all(gone(pid) for pid in pids) and time.monotonic() < give_up:
        time.sleep(0.05)
    assert all(gone(pid) for pid in pids)


def test_the_time_a_request_spends_on_its_way_to_the_process_comes_off_its_limit():
    """Sending a megabyte of state (pickling, the pipe, unpickling) takes milliseconds of the search's time:
    the process searches for what is left once it has the request, by the clock every process shares."""
    sent = clock() - 0.030
    assert 65.0 <= in_time_left({"time_limit_ms": 100.0}, sent)["time_limit_ms"] <= 70.0
    assert in_time_left({"state": {}}, sent) == {"state": {}}        # a rules task has no limit


def test_the_worker_and_its_search_processes_count_time_left_on_one_clock_with_one_floor():
    """Issue 50, item 20: the time left in the worker (the request's reading, a wait for a slot) and in a
    search process (its request's way there) is one function's, with one least budget."""
    sent = clock() - 0.030
    assert in_time_left({"time_limit_ms": 10.0}, sent)["time_limit_ms"] == MIN_BUDGET_MS == remaining_ms(10.0, sent)
    assert service.routes.search.remaining_ms is remaining_ms
    assert time.get_clock_info("perf_counter").implementation == time.get_clock_info("monotonic").implementation
