"""Backgammon match arithmetic: a match's games are single games worth +-1, 2 or 3 points to our side.

The share of the points is ``won / (won + lost)``; its 95% interval is the ratio estimator's normal
interval over the match's units, the pairs of games played with the same dice (``pairs``: consecutive
games; the dice tie the two games of a pair, so the pair, not the game, is the independent draw). For a
unit with points won ``w`` and points at stake ``t`` (the sum of the games' absolute points), the share's
variance is ``sum((w - share * t)^2) / (n (n - 1) mean(t)^2)``. The points a game come with their own
normal interval over the same units.
"""
import math

from bench.elo import Z95


def units(points: list, per_unit: int = 2) -> list:
    """The games' points grouped into units of ``per_unit`` consecutive games (a last one may be shorter)."""
    return [points[i:i + per_unit] for i in range(0, len(points), per_unit)]


def share_interval(points: list, per_unit: int = 2) -> tuple:
    """``(share, low, high)`` of the points won by our side; the interval is None with fewer than two
    units or no points at stake, and is clipped to [0, 1]."""
    groups = units(points, per_unit)
    won = [sum(x for x in g if x > 0) for g in groups]
    stake = [sum(abs(x) for x in g) for g in groups]
    total = sum(stake)
    if not total:
        return None, None, None
    share = sum(won) / total
    n = len(groups)
    if n < 2:
        return share, None, None
    mean_stake = total / n
    variance = sum((w - share * t) ** 2 for w, t in zip(won, stake)) / (n * (n - 1) * mean_stake ** 2)
    half = Z95 * math.sqrt(variance)
    return share, max(0.0, share - half), min(1.0, share + half)


def per_game_interval(points: list, per_unit: int = 2) -> tuple:
    """``(mean, half width)`` of the points a game, the half width of the 95% interval over the units
    (None with fewer than two units)."""
    groups = units(points, per_unit)
    mean = sum(points) / len(points)
    n = len(groups)
    if n < 2:
        return mean, None
    unit_means = [sum(g) / len(g) for g in groups]
    centre = sum(unit_means) / n
    variance = sum((m - centre) ** 2 for m in unit_means) / (n - 1)
    return mean, Z95 * math.sqrt(variance / n)


def summary(points: list, per_unit: int = 2) -> dict:
    """The match in numbers: games, wins, points won and lost, points a game and share of the points, each
    with its 95% interval, gammons and backgammons won and lost."""
    if not points:
        return {"games": 0}
    share, low, high = share_interval(points, per_unit)
    mean, half = per_game_interval(points, per_unit)
    rounded = (lambda v: None if v is None else round(v, 3))
    return {"games": len(points), "wins": sum(1 for x in points if x > 0),
            "points_won": sum(x for x in points if x > 0), "points_lost": -sum(x for x in points if x < 0),
            "points_per_game": round(mean, 3), "points_per_game_95": rounded(half),
            "share_of_points": rounded(share), "share_of_points_95": [rounded(low), rounded(high)],
            "gammons": [sum(1 for x in points if x == 2), sum(1 for x in points if x == -2)],
            "backgammons": [sum(1 for x in points if x == 3), sum(1 for x in points if x == -3)]}


def searches(lines: list) -> dict:
    """Our searches of a match's games by kind (contact, race): how many, the share completing each depth,
    the nodes a second and the longest, from the games' ``searches`` records."""
    kinds = {}
    for line in lines:
        for s in line["searches"]:
            kinds.setdefault(s["kind"], []).append(s)
    out = {}
    for kind, done in sorted(kinds.items()):
        depths = [s["depth"] for s in done]
        ms = sum(s["time_ms"] for s in done)
        out[kind] = {"searches": len(done),
                     "depths": {d: round(depths.count(d) / len(done), 3) for d in sorted(set(depths))},
                     "nodes_per_s": round(1000.0 * sum(s["nodes"] for s in done) / ms) if ms else None,
                     "max_ms": max(s["time_ms"] for s in done)}
    return out


def paired(files: list) -> tuple:
    """``(lines, unpaired)``: the game lines of several match files (each a list of lines, in pairs), one
    after the other so that the pairs stay consecutive, each file's last game left out when its pair was
    not finished; ``unpaired``, how many were. One file is taken whole (a run cut short included)."""
    if len(files) == 1:
        return files[0], 0
    lines = [line for games in files for line in games[:len(games) - len(games) % 2]]
    return lines, sum(len(games) % 2 for games in files)


def main(argv=None):
    """``python -m bench.backgammon_score GAMES.jsonl [MORE.jsonl ...]``: the summary of a match from its
    game lines (:func:`paired`: several files, say one a process, make one match), and its searches."""
    import argparse
    import json
    p = argparse.ArgumentParser(prog="python -m bench.backgammon_score")
    p.add_argument("paths", nargs="+", help="the --out files of python -m bench.backgammon")
    args = p.parse_args(argv)
    files = []
    for path in args.paths:
        with open(path) as f:
            files.append([json.loads(text) for text in f if text.strip()])
    lines, unpaired = paired(files)
    print(json.dumps({**summary([line["points"] for line in lines]), "unpaired_left_out": unpaired,
                      "searches": searches(lines)}))


if __name__ == "__main__":
    main()
