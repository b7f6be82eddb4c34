"""What a set of one-player games achieved: the final utility and length for any game, and for 2048 the
highest tile's distribution, the rate of reaching 2048, 4096 and 8192, and the score.

A run may stop each game once its milestone (2048: the highest tile) reaches a value, to save time: the
summary then counts the games stopped there and the games that ended before it ("ended early"), and a rate
above the stop is not measured (None).

2048's score is the sum of the tiles made by merging. It is not part of the state, but it follows from the
final board and the tiles that appeared: a tile ``2 ** e`` built from 2s scored ``(e - 1) * 2 ** e`` on the
way, and every 4 that appeared (rather than being made) did not score its 4.
"""
from collections import Counter

TWENTY48_MILESTONES = (2048, 4096, 8192)


def twenty48_score(final: dict, initial: dict, history: list) -> int:
    tiles = [t for row in final["board"] for t in row if t]
    made = sum((t.bit_length() - 2) * t for t in tiles)
    fours = sum(1 for row in initial["board"] for t in row if t == 4)
    fours += sum(1 for m in history if isinstance(m, dict) and m.get("tile") == 4)
    return made - 4 * fours


def highest_tile(state_json: dict) -> int:
    return max(t for row in state_json["board"] for t in row)


def twenty48(variant, results: list, stop_at=None) -> dict:
    highest = [highest_tile(r["final"]) for r in results]
    scores = [twenty48_score(r["final"], variant.initial_state, r["history"]) for r in results]
    n = len(results)
    return {
        "highest_tile": {str(t): c for t, c in sorted(Counter(highest).items())},
        "reached": {str(m): None if stop_at is not None and m > stop_at else sum(h >= m for h in highest) / n
                    for m in TWENTY48_MILESTONES},
        "mean_score": sum(scores) / n,
        "scores": scores,
    }


SUMMARIES = {"2048": twenty48}
MILESTONES = {"2048": highest_tile}


def milestone(variant, state_json: dict):
    """The measure a run's ``stop_at`` applies to (2048: the highest tile)."""
    if variant.game not in MILESTONES:
        raise ValueError(f"{variant.name} has no milestone to stop at")
    return MILESTONES[variant.game](state_json)


def summarise(variant, results: list, stop_at=None) -> dict:
    if not results:
        return {}
    out = {"mean_utility": sum(r["utilities"][0] for r in results) / len(results),
           "mean_plies": sum(r["plies"] for r in results) / len(results)}
    if stop_at is not None:
        stopped = sum(1 for r in results if r["end"] == f"stopped at {stop_at}")
        out.update(stop_at=stop_at, stopped=stopped, ended_early=len(results) - stopped)
    if variant.game in SUMMARIES:
        out.update(SUMMARIES[variant.game](variant, results, stop_at))
    return out
