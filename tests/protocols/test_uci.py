"""The UCI engine driven by python-chess's UCI client, as a GUI drives it: a real subprocess
(scripts/tactician-uci) on the compiled core."""
from pathlib import Path
import time

import chess
import chess.engine
import pytest

from engine.clock import Allotment, Clock, TimeManager, allot
from engine.result import Progress
from protocols import uci

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "tactician-uci"
MATE_IN_ONE = "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1"


@pytest.fixture(scope="module")
def engine():
    with chess.engine.SimpleEngine.popen_uci(str(SCRIPT), timeout=120) as e:
        e.ping()   # isready: the engine has loaded what it needs, as a GUI waits for before a game
        yield e


def test_it_names_itself_and_its_options(engine):
    assert engine.id["name"] == uci.NAME
    assert {"MultiPV", "Hash", "Level", "Move Overhead"} <= set(engine.options)


def test_it_plays_a_legal_move_in_its_time(engine):
    board = chess.Board()
    board.push_san("e4")
    started = time.monotonic()
    result = engine.play(board, chess.engine.Limit(time=0.3))
    assert result.move in board.legal_moves
    assert time.monotonic() - started < 0.3 + 1.0


def test_it_finds_the_mate_and_says_so(engine):
    info = engine.analyse(chess.Board(MATE_IN_ONE), chess.engine.Limit(depth=4))
    assert info["pv"][0] == chess.Move.from_uci("d1d8")
    assert info["score"].relative == chess.engine.Mate(1)


def test_multi_pv_lines(engine):
    infos = engine.analyse(chess.Board(), chess.engine.Limit(depth=4), multipv=3)
    assert len(infos) == 3
    assert len({i["pv"][0] for i in infos}) == 3


def test_an_infinite_analysis_stops_when_asked(engine):
    with engine.analysis(chess.Board()) as analysis:
        time.sleep(0.5)
        started = time.monotonic()
        analysis.stop()
        best = analysis.wait()
    assert time.monotonic() - started < 3.0      # an infinite search that missed the stop would never end
    assert best.move in chess.Board().legal_moves


def test_a_clock_is_spent_without_flagging(engine):
    board, remaining = chess.Board(), 3.0
    for _ in range(6):
        started = time.monotonic()
        result = engine.play(board, chess.engine.Limit(white_clock=remaining, black_clock=remaining,
                                                       white_inc=0.05, black_inc=0.05))
        remaining -= time.monotonic() - started - 0.05
        assert remaining > 1.0
        board.push(result.move)


def test_the_allotment_spends_a_share_of_the_clock():
    a = allot(Clock(60_000, 1_000), ply=0)
    assert 1_000 < a.soft_ms < 3_000 and a.soft_ms <= a.hard_ms <= 0.4 * 60_000
    last = allot(Clock(1_000, 0, moves_to_go=1, overhead_ms=50))
    assert last.hard_ms <= 0.8 * 950
    assert allot(Clock(10, 0)).hard_ms >= 1.0


def test_the_manager_stops_early_on_a_stable_move_and_late_on_a_changing_one():
    stable = TimeManager(Allotment(soft_ms=100, hard_ms=400))
    stops = [stable.stop_after(Progress(d, 0.1, "e2e4", [], 0, 40.0)) for d in range(1, 7)]
    assert stops[-1] and not stops[0]         # 40 ms: under 0.6 * 100 at first, over once the move has stayed
    changing = TimeManager(Allotment(soft_ms=100, hard_ms=400))
    moves = ["e2e4", "d2d4", "c2c4", "g1f3", "e2e4", "d2d4"]
    times = [30.0] + [70.0] * 5              # 70 ms would stop a move that stays (over 0.6 * 100)
    assert not any(changing.stop_after(Progress(d, 0.1, m, [], 0, t)) for d, (m, t) in enumerate(zip(moves, times), 1))


def test_go_words_are_read():
    go = uci.parse_go("wtime 1000 btime 900 winc 10 binc 10 movestogo 5 infinite".split())
    assert go.numbers == {"wtime": 1000, "btime": 900, "winc": 10, "binc": 10, "movestogo": 5} and go.infinite


def test_searchmoves_are_read_up_to_the_next_word():
    go = uci.parse_go("searchmoves e2e4 d2d4 depth 3".split())
    assert go.searchmoves == ["e2e4", "d2d4"] and go.numbers == {"depth": 3}
    assert uci.parse_go("depth 2".split()).searchmoves is None


def test_go_searchmoves_searches_those_moves_alone(engine):
    """Issue 53: the mate in one is not among the moves searched, so another is played, with no mate."""
    board = chess.Board(MATE_IN_ONE)
    allowed = [chess.Move.from_uci("g2g3"), chess.Move.from_uci("h2h4")]
    result = engine.play(board, chess.engine.Limit(depth=3), root_moves=allowed, info=chess.engine.INFO_SCORE)
    assert result.move in allowed
    assert not result.info["score"].is_mate()


def test_uci_show_wdl_adds_win_draw_loss_to_the_info(engine):
    """Issue 53: with UCI_ShowWDL, the info lines say the win/draw/loss per mille (python-chess reads them as
    a PovWdl), a proven mate 1000 0 0; without it they say none."""
    assert engine.options["UCI_ShowWDL"].type == "check"
    assert "wdl" not in engine.analyse(chess.Board(), chess.engine.Limit(depth=2))
    engine.configure({"UCI_ShowWDL": True})
    try:
        info = engine.analyse(chess.Board(), chess.engine.Limit(depth=3))
        wdl = info["wdl"].relative
        assert wdl.wins + wdl.draws + wdl.losses == 1000
        mate = engine.analyse(chess.Board(MATE_IN_ONE), chess.engine.Limit(depth=2))["wdl"].relative
        assert (mate.wins, mate.draws, mate.losses) == (1000, 0, 0)
    finally:
        engine.configure({"UCI_ShowWDL": False})


def test_an_answer_without_a_value_has_no_score():
    """Issue 50 item 6: a search that valued no root move has no value; its info line says no score."""
    import io
    from engine.result import SearchResult, Stats
    out = io.StringIO()
    uci.Engine(out).report_final(SearchResult(move="e2e4", value=None, perspective="white", pv=["e2e4"],
                                              stats=Stats(nodes=5, timed_out=True, stop_reason="time_limit")))
    assert out.getvalue() == "info depth 0 nodes 5 time 0 pv e2e4\n"
