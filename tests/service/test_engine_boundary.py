"""The service reaches the engine through its front door alone: ``engine.api`` (and ``engine.errors``,
the errors it answers 422 with). Anything else it needs, engine.api exposes."""
import ast
from pathlib import Path

SERVICE = Path(__file__).resolve().parents[2] / "service"
ALLOWED = {"engine.api", "engine.errors"}


def engine_imports(source: str) -> set:
    """The engine modules that ``source`` imports (``from engine import scale`` imports engine.scale)."""
    found = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module is not None:
            found |= ({f"engine.{alias.name}" for alias in node.names} if node.module == "engine"
                      else {node.module})
    return {name for name in found if name == "engine" or name.startswith("engine.")}


def test_the_service_imports_only_engine_api_and_engine_errors():
    outside = {str(path.relative_to(SERVICE.parent)): sorted(engine_imports(path.read_text()) - ALLOWED)
               for path in SERVICE.rglob("*.py")}
    assert {path: names for path, names in outside.items() if names} == {}


def test_the_check_sees_every_form_of_import():
    assert engine_imports("from engine import scale\nimport engine.registry\n"
                          "from engine.search.native import CORES\ndef f():\n    from engine.games import tree\n") \
        == {"engine.scale", "engine.registry", "engine.search.native", "engine.games"}
    assert engine_imports("import engine.api\nfrom engine.errors import EngineError\nfrom . import x\n") \
        == {"engine.api", "engine.errors"}
