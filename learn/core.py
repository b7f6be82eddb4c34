"""The compiled core a match plays on must embed the weights files it is judging: the core embeds them at
build time (native/CMakeLists.txt), so a run that has just written new weights rebuilds it first."""
import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def core_checksums(expression: str):
    """What ``expression`` (over ``tactician_native``) gives in a fresh process, read as JSON: the
    checksums the core on disk embedded (this process may hold an older core); None when it does not load."""
    code = f"import json, tactician_native; print(json.dumps({expression}))"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    return json.loads(done.stdout) if done.returncode == 0 else None


def ensure_core(expression: str, expected, log=print) -> None:
    """The compiled core on the weights whose checksums are ``expected``, rebuilt (scripts/build-core) when
    ``expression`` gives anything else; a RuntimeError when even the rebuilt core does not."""
    if core_checksums(expression) == expected:
        return
    log("the compiled core does not embed the weights files: rebuilding it (scripts/build-core)")
    subprocess.run([str(ROOT / "scripts" / "build-core")], cwd=ROOT, check=True)
    if core_checksums(expression) != expected:
        raise RuntimeError("the compiled core does not embed the weights files, even rebuilt")
