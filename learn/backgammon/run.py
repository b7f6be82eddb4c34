"""Backgammon's stages of a learning run: training the contact and the race nets (each from the last net
of its shape: :data:`CHECKPOINTS`, else the engine's), and the run's report (learn/reports/, as chess's).
A trained net is the ``learned`` evaluation's from then on (engine/games/backgammon_contact.txt and
_race.txt, the compiled core's once rebuilt); the default evaluation changes only by acceptance."""
import json
import shutil
import time
from pathlib import Path

import numpy as np

from engine.games import backgammon as bg
from engine.games import backgammon_net as net_module
from learn import curves, shards, train
from learn.backgammon import export, model
from learn.backgammon.shards import KINDS, read
from learn.run import REPORTS, history_lines

CHECKPOINTS = {kind: Path(__file__).resolve().parents[1] / "checkpoints" / f"backgammon_{kind}.txt" for kind in KINDS}
LABEL = "gnubg-nn 1.1.0a11, cubeless outputs at ply {ply} (0-ply beside them)"


def candidate_path(out: Path, kind: str) -> Path:
    return out / f"candidate-{kind}.txt"


# The default evaluation's value of each kind of position (the yardstick of the learned nets' errors).
DEFAULT_EQUITY = {"contact": net_module.contact_equity, "race": bg.race_equity}


def default_equity_error(kind: str, positions, mask, ply: int) -> float:
    """The default evaluation's mean absolute equity error on the masked positions' labels at ``ply``."""
    sides = positions.sides[mask].tolist()
    values = np.array([DEFAULT_EQUITY[kind](tuple(a), tuple(b)) for a, b in sides])
    return float(np.mean(np.abs(values - model.equity(positions.labels[mask][:, model.PLY_COLUMNS[min(ply, 1)]]))))


def starting_params(kind: str, hidden: int, seed: int, log=print) -> tuple:
    """The floats of the last net trained for ``kind`` (:data:`CHECKPOINTS`), else of the engine's net for
    it (the learned one, and for contact the default's too), when it has ``hidden`` units; else fresh."""
    engine_files = [net_module.LEARNED_FILES[kind]] + ([net_module.WEIGHTS_FILE] if kind == "contact" else [])
    for path in (CHECKPOINTS[kind], *engine_files):
        if path.exists():
            header, net = export.read(path)
            if len(net.hidden_bias) == hidden:
                log(f"{kind}: training from {path.name} (trained {header.get('trained')} on {header.get('commit')})")
                return model.params_of(net), path.name
    log(f"{kind}: training a fresh net of {hidden} hidden units")
    return model.initial_params(hidden, seed), "a fresh initialisation"


def train_net(data: Path, out: Path, kind: str, hidden: int, seconds: float, seed: int, lr: float, ply: int,
              log=print) -> dict:
    positions = read(data, kind)
    train_mask, validation_mask = shards.split(positions)
    games = len(set(positions.games.tolist()))
    log(f"{kind}: {len(positions.games)} positions of {games} games: {int(train_mask.sum())} to train, "
        f"{int(validation_mask.sum())} to validate")
    params, start = starting_params(kind, hidden, seed, log)
    training, validation = model.dataset(positions, train_mask, ply), model.dataset(positions, validation_mask, ply)
    before = model.equity_error(params, *validation)
    best, history = train.fit(params, training, validation, seconds, batch=1024, lr=lr, patience=3,
                              loss_fn=model.loss, clip=model.unclipped, progress=False)
    described = {"positions": int(train_mask.sum()), "validation_positions": int(validation_mask.sum()),
                 "games": games, "label": LABEL.format(ply=ply), "started_from": start,
                 "validation_equity_error": round(model.equity_error(best, *validation), 5),
                 "validation_equity_error_before": round(before, 5),
                 "validation_equity_error_of_the_default": round(default_equity_error(kind, positions, validation_mask,
                                                                                     ply), 5)}
    candidate = candidate_path(out, kind)
    export.export(best, candidate, kind, described)
    CHECKPOINTS[kind].parent.mkdir(exist_ok=True)
    shutil.copyfile(candidate, CHECKPOINTS[kind])
    shutil.copyfile(candidate, net_module.LEARNED_FILES[kind])     # the learned evaluation: the candidate
    log(f"{kind}: best epoch {history.best_epoch} of {len(history.epochs) - 1} ({history.stopped}); equity error "
        f"{described['validation_equity_error_before']} -> {described['validation_equity_error']} (the default "
        f"evaluation's: {described['validation_equity_error_of_the_default']}); wrote {candidate}")
    return {"data": described, "history": history, "candidate": candidate}


def train_stage(data: Path, out: Path, hidden: dict, seconds: float, seed: int, lr: float, ply: int,
                log=print) -> dict:
    """Both nets, ``hidden[kind]`` units each; the contact net gets three quarters of ``seconds``."""
    shares = {"contact": 0.75, "race": 0.25}
    return {kind: train_net(data, out, kind, hidden[kind], seconds * shares[kind], seed, lr, ply, log)
            for kind in KINDS}


def write_report(trained: dict, generated: dict | None, matched: dict | None) -> Path:
    folder = REPORTS / f"backgammon-{time.strftime('%Y%m%d-%H%M')}"
    folder.mkdir(parents=True, exist_ok=True)
    date = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    summary = {"commit": export.commit(), "date": date, "generated": generated,
               "nets": {kind: {"data": t["data"], "epochs": t["history"].epochs, "best_epoch": t["history"].best_epoch,
                               "stopped": t["history"].stopped} for kind, t in trained.items()},
               "match": matched}
    (folder / "report.json").write_text(json.dumps(summary, indent=1, default=str) + "\n")
    lines = [f"# backgammon: a learning run on {summary['commit']}, {date}", "",
             f"- generated: {json.dumps(generated) if generated else 'none this run (earlier shards)'}",
             f"- match: {json.dumps(matched) if matched else 'not played in this run'}", ""]
    for kind, t in trained.items():
        curves.save(t["history"], folder / f"losses-{kind}.svg", f"backgammon {kind}: loss by epoch")
        lines += [f"## the {kind} net", "", f"- data: {json.dumps(t['data'])}",
                  f"- best epoch {t['history'].best_epoch}; stopped by {t['history'].stopped}", "",
                  *history_lines(t["history"]), "", f"![losses](losses-{kind}.svg)", ""]
    (folder / "report.md").write_text("\n".join(lines))
    return folder


def write_match_report(matched: dict) -> Path:
    """An accept stage played on its own: its report beside the training runs', naming the nets it played."""
    folder = REPORTS / f"backgammon-{time.strftime('%Y%m%d-%H%M')}-match"
    folder.mkdir(parents=True, exist_ok=True)
    date = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    nets = {kind: {k: v for k, v in export.read(path)[0].items() if k in ("shape", "checksum", "trained", "commit", "data")}
            for kind, path in net_module.LEARNED_FILES.items()}
    summary = {"commit": export.commit(), "date": date, "learned": nets, "match": matched}
    (folder / "report.json").write_text(json.dumps(summary, indent=1, default=str) + "\n")
    lines = [f"# backgammon: the learned nets' matches, {date} on {summary['commit']}", ""]
    lines += [f"- learned {kind} net: shape {n['shape']}, checksum {n['checksum']}, trained {n['trained']} on "
              f"{n['commit']}" for kind, n in nets.items()]
    lines.append("")
    for name in ("net", "gnubg"):
        m = matched[name]
        lines += [f"## learned against {name}, auto at {matched['time_ms']:g} ms a move", "",
                  f"- `{m['command']}`",
                  f"- {m['games']} games: share of the points {m.get('share_of_points')} (95% {m.get('share_of_points_95')}), "
                  f"points a game {m.get('points_per_game')} ± {m.get('points_per_game_95')}"
                  + (f"; verdict: {m['verdict']}" if m["verdict"] else ""),
                  f"- our searches: {json.dumps(m['searches'])}", ""]
    (folder / "report.md").write_text("\n".join(lines))
    return folder
