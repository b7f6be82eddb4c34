"""The stages of a learning run for chess, and the run's report (learn/reports/<game>-<time>/: report.md,
report.json and losses.svg, committed beside the weights they describe)."""
import json
import shutil
import time
from pathlib import Path

from learn import accept, curves, export, shards, train

REPORTS = Path(__file__).resolve().parent / "reports"
# The last net trained, accepted or not: where the next run starts, so that what a run learned outlives
# its data. Committed; the service never reads it (it plays engine/games/chess/nnue.bin, which only a
# match's acceptance replaces).
CHECKPOINT = Path(__file__).resolve().parent / "checkpoints" / "chess.bin"


def committed_weights() -> Path:
    from engine.games.chess import nnue
    return nnue.DEFAULT_PATH


def starting_params(hidden: int, seed: int, log=print) -> tuple:
    """The floats of the last net trained (:data:`CHECKPOINT`), else of the service's net, when it has
    ``hidden`` units; else a fresh initialisation."""
    from engine.games.chess import nnue
    for path in (CHECKPOINT, committed_weights()):
        if path.exists():
            net = nnue.read_weights(path)
            if net.hidden == hidden:
                log(f"training from {path} (trained {net.header.get('trained')} on {net.header.get('commit')})")
                return export.dequantised(net.W1, net.b1, net.W2, net.b2), str(path)
    log(f"training a fresh net of {hidden} hidden units")
    return train.initial_params(hidden, seed), "a fresh initialisation"


def train_stage(data: Path, out: Path, hidden: int, seconds: float, seed: int, lr: float, log=print) -> dict:
    positions = shards.read(data)
    train_mask, validation_mask = shards.split(positions)
    log(f"{len(positions.fens)} positions: {int(train_mask.sum())} to train, {int(validation_mask.sum())} to validate")
    params, start = starting_params(hidden, seed, log)
    best, history = train.fit(params, train.dataset(positions, train_mask),
                              train.dataset(positions, validation_mask), seconds, lr=lr)
    described = {"positions": int(train_mask.sum()), "validation_positions": int(validation_mask.sum()),
                 "games": int(len(set(positions.games.tolist()))), "label": "stockfish 15.1 fixed depth",
                 "lambda": train.LAMBDA, "started_from": start}
    candidate = out / "candidate.bin"
    export.export(best, candidate, described)
    CHECKPOINT.parent.mkdir(exist_ok=True)
    shutil.copyfile(candidate, CHECKPOINT)
    log(f"best epoch {history.best_epoch} of {len(history.epochs) - 1} ({history.stopped}); wrote {candidate}")
    return {"data": described, "history": history, "candidate": candidate}


def write_report(game: str, trained: dict, generated: dict | None, matched: dict | None) -> Path:
    folder = REPORTS / f"{game}-{time.strftime('%Y%m%d-%H%M')}"
    folder.mkdir(parents=True, exist_ok=True)
    history = trained["history"]
    curves.save(history, folder / "losses.svg", f"{game}: loss by epoch")
    summary = {"commit": export.commit(), "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
               "generated": generated, "data": trained["data"], "epochs": history.epochs,
               "best_epoch": history.best_epoch, "stopped": history.stopped,
               "match": {k: v for k, v in (matched or {}).items() if k != "games"} or None}
    (folder / "report.json").write_text(json.dumps(summary, indent=1, default=str) + "\n")
    lines = [f"# {game}: a learning run on {summary['commit']}, {summary['date']}", "",
             f"- data: {json.dumps(trained['data'])}",
             f"- generated: {json.dumps(generated) if generated else 'none this run (earlier shards)'}",
             f"- best epoch {history.best_epoch}; stopped by {history.stopped}",
             f"- match: {matched['text'] + ', ' + matched['verdict'] if matched else 'not played'}", "",
             *history_lines(history), "", "![losses](losses.svg)", ""]
    (folder / "report.md").write_text("\n".join(lines))
    return folder


def history_lines(history) -> list:
    """The epochs of a History as a markdown table's lines."""
    return ["| epoch | training loss | validation loss | lr | s |", "| --- | --- | --- | --- | --- |",
            *(f"| {e['epoch']} | {e['train'] if e['train'] is None else round(e['train'], 6)} | "
              f"{round(e['validation'], 6)} | {e['lr']:g} | {e['seconds']} |" for e in history.epochs)]


def write_match_report(game: str, candidate: Path, matched: dict) -> Path:
    """A match played on its own (``--stage accept``): its report beside the training runs'."""
    from engine.games.chess import nnue
    folder = REPORTS / f"{game}-{time.strftime('%Y%m%d-%H%M')}-match"
    folder.mkdir(parents=True, exist_ok=True)
    header = nnue.read_weights(candidate).header
    summary = {"commit": export.commit(), "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
               "candidate": {"sha256": header["sha256"], "trained": header.get("trained"),
                             "commit": header.get("commit"), "data": header.get("data")},
               "match": {k: v for k, v in matched.items() if k != "games"}}
    (folder / "report.json").write_text(json.dumps(summary, indent=1, default=str) + "\n")
    timing = matched["timing"]
    lines = [f"# {game}: the candidate net against the classic evaluation, {summary['date']} on {summary['commit']}",
             "", f"- candidate: sha256 {header['sha256'][:16]}, trained {header.get('trained')} on "
             f"{header.get('commit')}, data {json.dumps(header.get('data'))}",
             f"- {matched['result']['games']} games at {matched['time_ms']} ms a move, both colours from "
             f"{matched['openings']} openings: {matched['text']}; verdict: {matched['verdict']}",
             f"- time a move: {json.dumps(timing)}", f"- ends: {json.dumps(matched['ends'])}", ""]
    (folder / "report.md").write_text("\n".join(lines))
    return folder


def accept_stage(candidate: Path, games: int, time_ms: float, workers: int, log=print) -> dict:
    result = accept.run(candidate, "classic", games, time_ms, workers, log=log)
    log(f"{result['text']}: {result['verdict']}")
    if result["verdict"] == "stronger":
        shutil.copyfile(candidate, committed_weights())
        log(f"the candidate replaces {committed_weights()}")
    return result
