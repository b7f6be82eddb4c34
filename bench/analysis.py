"""``python -m bench.analysis [--rounds N]``: the analysis routes on a local gunicorn (1 worker, the default
settings, bench.service.Server).

- Review: a 40-move chess game (80 plies, alpha-beta at depth 3 playing both sides from the start: fixed, so
  every run reviews the same game) reviewed through ``POST /v1/review`` at 100 ms a ply (``time_limit_ms``
  8000): the wall time at the client, the searches, whether every ply was judged.
- Batch: the first 16 Middle-Easy Connect Four positions (Pons' Test_L2_R1, read from the shared data, not
  copied) searched by alpha-beta to depth 8, as 16 ``POST /v1/search`` one after another, each on a fresh
  connection, against one ``POST /v1/search/batch`` of the 16; the two alternate, ``--rounds`` times, and the
  ratio is of their medians.
"""
import argparse
import json
import time

import engine.api
from bench.c4sets import data_dir
from bench.service import Server, request
from bench.stats import median

PLIES = 80
MS_PER_PLY = 100
POSITIONS = 16


def self_play(plies: int) -> list:
    """The moves (UCI) of alpha-beta at depth 3 playing both sides from the start, up to ``plies``."""
    state, moves = {"fen": "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "moves": []}, []
    while len(moves) < plies:
        if engine.api.legal_moves("chess", state)["terminal"]:
            break
        move = engine.api.search("chess", state, {"name": "alphabeta", "depth": 3}).move
        moves.append(move)
        state = {**state, "moves": moves}
    return moves


def review(port: int, moves: list) -> dict:
    body = {"game": "chess", "state": {"fen": "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"},
            "moves": moves, "algorithm": {"name": "alphabeta"}, "time_limit_ms": MS_PER_PLY * len(moves)}
    since = time.perf_counter()
    status, data = request("POST", port, "/v1/review", json.dumps(body), timeout=120)
    wall = time.perf_counter() - since
    answer = json.loads(data)
    assert status == 200, answer
    classes = {side: summary["classes"] for side, summary in answer["summary"].items()}
    return {"plies": len(moves), "time_limit_ms": body["time_limit_ms"], "wall_s": round(wall, 3),
            "complete": answer["complete"], "judged": len(answer["plies"]), "searches": answer["stats"]["searches"],
            "nodes": answer["stats"]["nodes"], "classes": classes}


def positions() -> list:
    with open(data_dir() / "Test_L2_R1") as f:
        return [line.split()[0] for line in f.read().splitlines()[:POSITIONS]]


def batch_against_singles(port: int, rounds: int) -> dict:
    searches = [{"game": "connect4", "state": {"moves": m}, "algorithm": {"name": "alphabeta", "depth": 8}}
                for m in positions()]
    singles, batches = [], []
    for _ in range(rounds):
        since = time.perf_counter()
        for search in searches:
            status, _ = request("POST", port, "/v1/search", json.dumps(search))
            assert status == 200
        singles.append(time.perf_counter() - since)
        since = time.perf_counter()
        status, _ = request("POST", port, "/v1/search/batch", json.dumps({"searches": searches}))
        assert status == 200
        batches.append(time.perf_counter() - since)
    single, batch = median(singles), median(batches)
    return {"positions": len(searches), "rounds": rounds, "singles_s": [round(t, 4) for t in singles],
            "batch_s": [round(t, 4) for t in batches], "singles_median_s": round(single, 4),
            "batch_median_s": round(batch, 4), "singles_over_batch": round(single / batch, 2),
            "batch_positions_per_s": round(len(searches) / batch, 1),
            "singles_positions_per_s": round(len(searches) / single, 1)}


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.analysis", description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=7)
    args = parser.parse_args(argv)
    moves = self_play(PLIES)
    with Server(workers=1) as server:
        print(json.dumps({"review": review(server.port, moves)}))
        print(json.dumps({"batch": batch_against_singles(server.port, args.rounds)}))


if __name__ == "__main__":
    main()
