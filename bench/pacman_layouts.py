"""The CS188 Pacman layouts (the ``multiagent`` project's own mazes), read from the shared data directory.

They are never copied into the project. They are looked up in ``$TACTICIAN_PACMAN_DATA`` when set, else in
``../shared/data/pacman`` relative to the repository root; :func:`read_layout` returns None when a layout is
missing, so that callers can skip.
"""
import os
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent
DEFAULT_DATA_DIR = REPO_ROOT.parent / "shared" / "data" / "pacman"


def data_dir() -> Path:
    env = os.environ.get("TACTICIAN_PACMAN_DATA")
    return Path(env) if env else DEFAULT_DATA_DIR


def read_layout(name: str, directory: Path | None = None) -> list | None:
    """The rows of ``<name>.lay``, top row first, each stripped of surrounding blanks as CS188's layout
    reader does (some files carry trailing spaces); None if the file is missing."""
    path = (directory or data_dir()) / f"{name}.lay"
    if not path.exists():
        return None
    return [line.strip() for line in path.read_text().splitlines() if line.strip()]
