"""Acceptance by match (bench.match): the ``patterns`` evaluation against the ``classic`` one, our previous
version, from balanced openings, both colours each, on the compiled core built from the tables file
(rebuilt first when the core embeds other tables). Both sides play ``auto`` at ``time_ms`` a move, or
alpha-beta to a fixed ``depth`` (which a loaded machine does not distort). The tables replace the default
only when the 95% Elo interval lies above zero over at least :data:`learn.accept.MIN_GAMES` games
(``learn.accept.verdict``); the replacing is a person's commit (the option's default), not this stage's.
"""
from bench import match
from engine.games.othello import patterns
from learn import accept, core


def players(depth: int | None) -> tuple:
    algorithm = "auto" if depth is None else f"alphabeta,depth={depth}"
    return f"ours:{algorithm},evaluation=patterns", f"ours:{algorithm},evaluation=classic"


def accept_stage(games: int, time_ms: float | None, workers: int, depth: int | None = None, log=print) -> dict:
    core.ensure_core("tactician_native.othello_patterns_checksum()", patterns.parse(
        patterns.WEIGHTS_FILE.read_text()).checksum, log)
    candidate, incumbent = players(depth)
    result = match.head_to_head("othello", candidate, incumbent, None if depth else time_ms,
                                n_openings=max(1, games // 2), workers=workers, log=log)
    result["verdict"] = accept.verdict(result)
    result["depth"] = depth
    log(f"patterns against classic ({f'depth {depth}' if depth else f'{time_ms:g} ms a move'}): "
        f"{result['text']}: {result['verdict']}")
    return result
