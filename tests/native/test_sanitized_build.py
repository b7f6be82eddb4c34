"""The compiled core's build is strict and its CI checks it under the sanitizers (issue 50, item 21): every
warning is an error, and scripts/test runs scripts/sanitize-core, whose default subset of tests covers every
game the compiled core runs (its bindings: each game's states loaded and searched on both cores) and hostile
input reaching the core (near-miss states of every game, through the service)."""
from pathlib import Path
import re

import engine.api
from engine.registry import game_type

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "scripts" / "sanitize-core"
HOSTILE = "tests/service/test_no_server_errors.py"


def subset() -> list:
    """The test files of sanitize-core's default run (its bash array SUBSET)."""
    found = re.search(r"^SUBSET=\(([^)]*)\)", SCRIPT.read_text(), re.M)
    assert found, "scripts/sanitize-core has no SUBSET=(...)"
    return found.group(1).split()


def test_every_warning_is_an_error_in_every_build_of_the_core():
    cmake = (ROOT / "native" / "CMakeLists.txt").read_text()
    options = re.search(r"target_compile_options\(tactician_native PRIVATE ([^)]*)\)", cmake).group(1).split()
    assert {"-Wall", "-Wextra", "-Werror"} <= set(options)


def test_ci_runs_the_core_s_tests_under_the_sanitizers():
    assert '"$ROOT/scripts/sanitize-core"' in (ROOT / "scripts" / "test").read_text()
    script = SCRIPT.read_text()
    assert "-DTACTICIAN_SANITIZE=\"$SANITIZERS\"" in script and "SANITIZERS=address,undefined" in script
    assert "detect_leaks=0" in script and "LD_PRELOAD" in script


def test_the_sanitized_subset_covers_every_native_game_and_hostile_input():
    files = subset()
    assert all((ROOT / name).is_file() for name in files), files
    assert HOSTILE in files
    texts = {name: (ROOT / name).read_text() for name in files if name.startswith("tests/native/")}
    for game in engine.api.GAME_MODULES:
        if game_type(game).native_core:
            assert any(f'"{game}"' in text for text in texts.values()), f"no sanitized test runs {game}"
