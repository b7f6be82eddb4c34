"""Acceptance by match (bench/backgammon.py, scored by bench/backgammon_score.py): the ``learned``
evaluation against the ``net`` one (our previous version) and against gnubg's 0-ply play, both ``auto``
at ``time_ms`` a move, the matches' pairs played in turn (the same dice within a pair, each side starting
once) until each has ``games`` games or the time is up. The games run in ``python -m bench.backgammon`` processes,
``PAIRS`` pairs a process, on the compiled core built from the weights files (rebuilt first when its nets'
checksums are not the files': the core embeds them at build time). Each game is appended to a match file
under the data folder, so a stopped stage goes on from its last whole pair. The learned nets replace the default only
when the first match's 95% interval of the share of the points lies above one half over at least
:data:`learn.accept.MIN_GAMES` games (``verdict``); the replacing is a person's commit (the default
evaluation's name in both cores), not this stage's.
"""
import json
import subprocess
import sys
import time
from pathlib import Path

from bench.backgammon_score import searches, summary
from engine.games import backgammon_net as net_module
from learn import core
from learn.accept import MIN_GAMES

ROOT = Path(__file__).resolve().parents[2]
PAIRS = 5

OPPONENTS = {"net": ["--opponent", "ours", "--opponent-evaluation", "net"], "gnubg": ["--opponent", "gnubg"]}
SEEDS = {"net": 91, "gnubg": 92}


def match_file(data: Path, opponent: str, time_ms: float) -> Path:
    return data / f"match-learned-vs-{opponent}-{time_ms:g}ms.jsonl"


def whole_pairs(path: Path) -> list:
    """The file's games in whole pairs; a last unfinished pair is cut from the file (it is played again)."""
    if not path.exists():
        return []
    lines = [json.loads(text) for text in path.read_text().splitlines() if text.strip()]
    kept = lines[:len(lines) - len(lines) % 2]
    if len(kept) != len(lines):
        path.write_text("".join(json.dumps(line) + "\n" for line in kept))
    return kept


def verdict(result: dict) -> str:
    """'stronger' when the share of the points' 95% interval lies above 0.5 over at least MIN_GAMES
    games, 'weaker' when it lies below, else 'even'."""
    low, high = result.get("share_of_points_95") or (None, None)
    if low is not None and low > 0.5 and result["games"] >= MIN_GAMES:
        return "stronger"
    return "weaker" if high is not None and high < 0.5 else "even"


def command(opponent: str, time_ms: float, path, first_pair: int, games: int = 2) -> list:
    """bench.backgammon's arguments for ``games`` games of the match from pair ``first_pair``."""
    return ["--mode", "auto", "--ms", f"{time_ms:g}", "--evaluation", "learned", *OPPONENTS[opponent],
            "--games", str(games), "--seed", str(SEEDS[opponent]), "--first-pair", str(first_pair), "--out", str(path)]


def file_checksums() -> list:
    files = [net_module.WEIGHTS_FILE, *(net_module.LEARNED_FILES[k] for k in ("contact", "race"))]
    return [net_module.read_header(f.read_text())["checksum"] for f in files]


def accept_stage(data: Path, games: int, time_ms: float, seconds: float | None = None, log=print) -> dict:
    """Both matches, ``games`` each (or until ``seconds`` pass); their summaries and verdicts."""
    core.ensure_core("tactician_native.backgammon_net_checksums()", file_checksums(), log)
    end = time.monotonic() + seconds if seconds else None
    paths = {name: match_file(data, name, time_ms) for name in OPPONENTS}
    while end is None or time.monotonic() < end:
        behind = [name for name in OPPONENTS if len(whole_pairs(paths[name])) < games]
        if not behind:
            break
        for name in behind:
            first = len(whole_pairs(paths[name])) // 2
            batch = min(2 * PAIRS, games - 2 * first)
            subprocess.run([sys.executable, "-m", "bench.backgammon", *command(name, time_ms, paths[name], first, batch)],
                           cwd=ROOT, check=True, stdout=subprocess.DEVNULL)
    out = {"time_ms": time_ms}
    for name, path in paths.items():
        lines = whole_pairs(path)
        result = summary([line["points"] for line in lines])
        out[name] = {**result, "verdict": verdict(result) if name == "net" else None, "searches": searches(lines),
                     "command": "python -m bench.backgammon " + " ".join(command(name, time_ms, path.name, 0, len(lines)))}
        log(f"learned against {name}: {json.dumps(result)}")
    return out
