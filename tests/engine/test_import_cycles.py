"""The engine's modules import one another without a cycle: every module can be read (and loaded) after the
modules it imports. Imports inside functions count too, since a deferred import is how a cycle hides.

An import of ``a.b.c`` is an edge to ``a.b.c`` itself, not to the packages above it: a package's
``__init__`` that imports its own parts is no cycle, as Python has the package in ``sys.modules`` before
the parts run.
"""
import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def module_names(root: Path, package: str) -> dict:
    """``{module name: source path}`` for every module of ``package`` under ``root``."""
    names = {}
    for path in sorted((root / package).rglob("*.py")):
        parts = path.relative_to(root).with_suffix("").parts
        names[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return names


def imported(node, module: str, is_package: bool, known) -> set:
    """The modules of ``known`` that one ``import`` or ``from ... import`` statement of ``module`` loads."""
    if isinstance(node, ast.Import):
        targets = [alias.name for alias in node.names]
    else:
        base = node.module or ""
        if node.level:
            here = module.split(".") if is_package else module.split(".")[:-1]
            anchor = here[:len(here) - node.level + 1]
            base = ".".join(anchor + ([base] if base else []))
        targets = [f"{base}.{alias.name}" if f"{base}.{alias.name}" in known else base for alias in node.names]
    found = set()
    for target in targets:
        parts = target.split(".")
        while parts and ".".join(parts) not in known:
            parts.pop()                            # `import a.b.attr` or `from a.b import function`: a.b
        if parts:
            found.add(".".join(parts))
    return found


def import_graph(root: Path, package: str) -> dict:
    """``{module: modules of the package it imports}``, from the source of every module of ``package``."""
    names = module_names(root, package)
    graph = {}
    for module, path in names.items():
        tree = ast.parse(path.read_text(), str(path))
        edges = set()
        for node in ast.walk(tree):
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                edges |= imported(node, module, path.name == "__init__.py", names)
        graph[module] = edges - {module}
    return graph


def find_cycle(graph: dict):
    """One import cycle of ``graph`` as a list of modules whose first and last are the same, or None."""
    state, trail = {}, []

    def visit(module):
        state[module] = "open"
        trail.append(module)
        for target in sorted(graph[module]):
            if state.get(target) == "open":
                return trail[trail.index(target):] + [target]
            if target not in state and (cycle := visit(target)):
                return cycle
        state[module] = "done"
        trail.pop()
        return None

    for module in sorted(graph):
        if module not in state and (cycle := visit(module)):
            return cycle
    return None


def test_the_engine_has_no_import_cycle():
    graph = import_graph(ROOT, "engine")
    assert "engine.games.checkers.board" in graph["engine.games.checkers.kings"]
    assert find_cycle(graph) is None, " -> ".join(find_cycle(graph))


def write(root: Path, files: dict) -> None:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)


def test_a_deferred_import_back_is_a_cycle(tmp_path):
    """The old checkers layout: the rules imported the kings' table at the top, and the table imported the
    rules back inside a function."""
    write(tmp_path, {
        "engine/__init__.py": "",
        "engine/games/__init__.py": "",
        "engine/games/checkers.py": "from engine.games.checkers_kings import table\nBIT = {}\n",
        "engine/games/checkers_kings.py": "def table():\n    from engine.games.checkers import BIT\n    return BIT\n",
    })
    assert find_cycle(import_graph(tmp_path, "engine")) == [
        "engine.games.checkers", "engine.games.checkers_kings", "engine.games.checkers"]


def test_a_package_importing_its_parts_is_no_cycle_but_a_relative_import_back_is(tmp_path):
    write(tmp_path, {
        "engine/__init__.py": "",
        "engine/games/__init__.py": "",
        "engine/games/othello/__init__.py": "from engine.games.othello import endgame\nfrom .board import FULL\n",
        "engine/games/othello/board.py": "FULL = 1\n",
        "engine/games/othello/endgame.py": "from engine.games.othello.board import FULL\nimport engine.games.othello.board\n",
    })
    graph = import_graph(tmp_path, "engine")
    assert graph["engine.games.othello"] == {"engine.games.othello.endgame", "engine.games.othello.board"}
    assert find_cycle(graph) is None
    write(tmp_path, {"engine/games/othello/board.py": "from . import endgame\nFULL = 1\n"})
    assert find_cycle(import_graph(tmp_path, "engine")) == [
        "engine.games.othello.board", "engine.games.othello.endgame", "engine.games.othello.board"]
