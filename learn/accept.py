"""Acceptance by match: a candidate net replaces the committed evaluation only when it scores better in a
match of at least ``MIN_GAMES`` games from balanced openings, both colours each (bench.match), with the
interval written down. The candidate plays ``auto`` with ``evaluation=nnue`` (the weights file named by
``TACTICIAN_CHESS_NNUE``, engine/games/chess/nnue.py), the incumbent ``auto`` with the evaluation the
service plays today."""
import os

from bench import match

MIN_GAMES = 400


def verdict(result: dict) -> str:
    """'stronger' when the candidate's 95% Elo interval lies above 0 over at least ``MIN_GAMES`` games,
    'weaker' when it lies below 0, else 'even'."""
    low, high = result["result"]["elo_low"], result["result"]["elo_high"]
    if low is not None and low > 0 and result["result"]["games"] >= MIN_GAMES:
        return "stronger"
    return "weaker" if high is not None and high < 0 else "even"


def run(candidate_path, incumbent_evaluation: str, games: int, time_ms: float, workers: int, log=print) -> dict:
    os.environ["TACTICIAN_CHESS_NNUE"] = str(candidate_path)     # read by the match's worker processes
    result = match.head_to_head("chess", "ours:auto,evaluation=nnue", f"ours:auto,evaluation={incumbent_evaluation}",
                                time_ms, n_openings=max(1, games // 2), workers=workers, log=log)
    result["verdict"] = verdict(result)
    return result
