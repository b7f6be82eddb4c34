"""The type gate (pyproject.toml's [tool.mypy], run by scripts/test) means what it says: the interface
modules are strict, the rest of engine/ and service/ get mypy's default checks plus the bodies of
unannotated functions. Checked on two throwaway modules named as the project's are, so that a change of
the configuration that widens or drops the strict set (``strict = true`` in an override turns strict mode
on for every module) fails here."""
from pathlib import Path
import subprocess
import sys

ROOT = Path(__file__).resolve().parent.parent

UNTYPED = '''
def double(x):
    return x * 2


def broken():
    return "a" + 1
'''


def mypy(tmp_path: Path, *modules: str) -> str:
    package = tmp_path / "engine"
    package.mkdir()
    (package / "__init__.py").write_text("")
    search = package / "search"
    search.mkdir()
    (search / "__init__.py").write_text("")
    for module in modules:
        (tmp_path / (module.replace(".", "/") + ".py")).write_text(UNTYPED)
    run = subprocess.run([sys.executable, "-m", "mypy", "--config-file", str(ROOT / "pyproject.toml"),
                          "--cache-dir", str(tmp_path / "cache"), "--no-error-summary",
                          *(module.replace(".", "/") + ".py" for module in modules)],
                         cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert run.returncode in (0, 1), run.stderr
    return run.stdout


def test_strict_modules_need_annotations_and_the_others_are_checked_inside(tmp_path):
    out = mypy(tmp_path, "engine.api", "engine.search.common", "engine.search.minimax")
    lines = out.splitlines()

    def errors(path: str, code: str) -> int:
        return sum(1 for line in lines if line.startswith(path + ":") and line.endswith(f"[{code}]"))

    for strict in ("engine/api.py", "engine/search/common.py"):
        assert errors(strict, "no-untyped-def") == 2, out
    assert errors("engine/search/minimax.py", "no-untyped-def") == 0, out
    # check_untyped_defs: the body of an unannotated function is checked everywhere.
    for path in ("engine/api.py", "engine/search/common.py", "engine/search/minimax.py"):
        assert errors(path, "operator") == 1, out
