"""What the benchmark ran on: CPU model, cores, Python, peers' versions, the engine's git commit."""
import os
import platform
import subprocess
from pathlib import Path

from bench import peers

REPO_ROOT = Path(__file__).resolve().parent.parent


def cpu_model():
    try:
        with open("/proc/cpuinfo", encoding="ascii", errors="replace") as fh:
            for line in fh:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def git_commit():
    try:
        out = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=REPO_ROOT, capture_output=True,
                             text=True, timeout=10)
        dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no", "--", "engine", "native", "service"],
                               cwd=REPO_ROOT, capture_output=True, text=True, timeout=10)
        return out.stdout.strip() + ("+uncommitted engine/service changes" if dirty.stdout.strip() else "")
    except (OSError, subprocess.SubprocessError):
        return None


def info():
    try:
        usable = len(os.sched_getaffinity(0))
    except AttributeError:
        usable = os.cpu_count()
    return {
        "cpu_model": cpu_model(),
        "cores": os.cpu_count(),
        "usable_cores": usable,
        "load_average": os.getloadavg() if hasattr(os, "getloadavg") else None,
        "python": platform.python_version(),
        "implementation": platform.python_implementation(),
        "platform": platform.platform(),
        "peers": {name: (v if ok else "missing") for name in ("open_spiel", "easyAI")
                  for ok, v in [peers.available(name)]},
        "git_commit": git_commit(),
    }
