"""The stages of an Othello learning run: fitting the pattern tables to the shards' positions (from the
committed tables, which hold what earlier runs learned), writing them where both cores read them
(engine/games/othello/othello_patterns.txt, the ``patterns`` evaluation; the compiled core embeds them when
it is built again), and the run's report (learn/reports/othello-<time>/)."""
import datetime
import json
import time
from pathlib import Path

import numpy as np

from engine.games.othello import patterns
from learn import curves, export, shards as common
from learn.othello import model, shards
from learn.run import REPORTS, history_lines
from learn.train import fit

LABEL = "the exact endgame solver's final disc difference at {empties} empty squares, on the game's line before it"


def starting_params(path: Path, log=print) -> tuple:
    """The floats of the tables at ``path`` (the committed ones) when they read, else zeros."""
    try:
        weights = patterns.parse(path.read_text())
    except (OSError, ValueError) as error:
        log(f"training fresh tables ({error})")
        return model.initial_params(), "zeros"
    log(f"training from {path.name} (trained {weights.header.get('trained')} on {weights.header.get('commit')})")
    return model.params_of(weights), path.name


def write_tables(params: dict, path: Path, data: dict) -> None:
    header = {"data": data, "commit": export.commit(), "trained": datetime.date.today().isoformat()}
    path.write_text(patterns.format_weights(model.tables_of(params), header))


def train_stage(data: Path, seconds: float, lr: float, empties: int, out: Path = patterns.WEIGHTS_FILE,
                log=print) -> dict:
    """Fit the tables at ``out`` further to the positions under ``data`` for at most ``seconds``, and write
    the best epoch's back there."""
    positions = shards.read(data)
    train_mask, validation_mask = common.split(positions)
    games = len(set(positions.games.tolist()))
    log(f"{len(positions.label)} positions of {games} games ({int(positions.exact.sum())} exact): "
        f"{int(train_mask.sum())} to train, {int(validation_mask.sum())} to validate")
    params, start = starting_params(out, log)
    training, validation = model.dataset(positions, train_mask), model.dataset(positions, validation_mask)
    exact = positions.exact[validation_mask]
    before = model.mean_absolute_error(params, *validation)
    best, history = fit(params, training, validation, seconds, batch=4096, lr=lr, patience=3,
                        loss_fn=model.loss, clip=model.unclipped, progress=False)
    errors = np.abs(np.asarray(model.forward(best, *validation[:2])) - validation[2])
    described = {"positions": int(train_mask.sum()), "validation_positions": int(validation_mask.sum()),
                 "games": games, "label": LABEL.format(empties=empties), "started_from": start,
                 "validation_disc_error_before": round(before, 3),
                 "validation_disc_error": round(float(errors.mean()), 3),
                 "validation_disc_error_exact": round(float(errors[exact].mean()), 3) if exact.any() else None,
                 "validation_disc_error_of_zero": round(float(np.abs(validation[2]).mean()), 3)}
    write_tables(best, out, described)
    log(f"best epoch {history.best_epoch} of {len(history.epochs) - 1} ({history.stopped}); disc error "
        f"{described['validation_disc_error_before']} -> {described['validation_disc_error']}; wrote {out}")
    return {"data": described, "history": history}


def write_report(trained: dict | None, generated: dict | None, matched: dict | None) -> Path:
    """The run's report: what it generated, trained (with the curves) and matched, whichever it did."""
    folder = REPORTS / f"othello-{time.strftime('%Y%m%d-%H%M')}"
    folder.mkdir(parents=True, exist_ok=True)
    match = {k: v for k, v in (matched or {}).items() if k != "games"} or None
    summary = {"commit": export.commit(), "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
               "generated": generated, "match": match}
    lines = [f"# othello: a learning run on {summary['commit']}, {summary['date']}", "",
             f"- generated: {json.dumps(generated) if generated else 'none this run (earlier shards)'}",
             f"- match: {match['text'] + ', ' + match['verdict'] if match else 'not played in this run'}"]
    if trained:
        history = trained["history"]
        curves.save(history, folder / "losses.svg", "othello patterns: loss by epoch (squared discs)")
        summary.update(data=trained["data"], epochs=history.epochs, best_epoch=history.best_epoch,
                       stopped=history.stopped)
        lines += [f"- data: {json.dumps(trained['data'])}",
                  f"- best epoch {history.best_epoch}; stopped by {history.stopped}", "",
                  *history_lines(history), "", "![losses](losses.svg)"]
    (folder / "report.json").write_text(json.dumps(summary, indent=1, default=str) + "\n")
    lines.append("")
    (folder / "report.md").write_text("\n".join(lines))
    return folder
