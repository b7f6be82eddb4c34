"""The summary table at the top of ``bench/RESULTS.md`` (everything above its first ``## `` section), and
whether it still describes the code.

``python -m bench`` rewrites the summary after a complete run, with the date and the commit it measured
(:func:`write`). The figures hold for that commit's engine: once ``engine/`` or ``native/`` changes, the
table is stale, and tests/bench/test_results_summary.py fails until the bench is run again, or until the
table says so in a line that names the commit and lists the parts of the engine changed since
(``python -m bench.summary --mark-stale`` writes it; the next complete run clears it).
"""
import argparse
import re
import subprocess
import sys
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent
RESULTS = REPO_ROOT / "bench" / "RESULTS.md"
ENGINE_PATHS = ("engine", "native")
SECTION = "\n## "
COMMIT_LINE = re.compile(r"^- engine: git commit ([0-9a-f]{7,40})(\S*)", re.M)
STALE_LINE = re.compile(r"^- \*\*stale since ([0-9a-f]{7,40})\*\*: .*? Changed since: (.*)\.\n", re.M)
RERUN = "rerun `python -m bench` (a complete, full run) to regenerate the summary in bench/RESULTS.md"


def split(page: str) -> tuple:
    """``(summary, rest)``: a results page cut before its first ``## `` section."""
    cut = page.find(SECTION)
    return (page, "") if cut < 0 else (page[:cut + 1], page[cut + 1:])


def write(summary: str, path: Path = RESULTS) -> None:
    """Replace the summary of the page at ``path`` by ``summary``, keeping its sections."""
    _, rest = split(path.read_text())
    path.write_text(summary.rstrip("\n") + "\n\n" + rest)


def git(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(["git", *args], cwd=REPO_ROOT, capture_output=True, text=True, timeout=30)


def changed_parts(commit: str) -> list:
    """The parts of the engine (``engine/games``, ``engine/api.py``, ``native/src``...: paths cut after
    their second component) that differ between ``commit`` and the working tree."""
    names = git("diff", "--name-only", commit, "--", *ENGINE_PATHS).stdout.split()
    return sorted({"/".join(name.split("/")[:2]) for name in names})


def problems(summary: str) -> list:
    """Why ``summary`` does not describe the code (empty: it does). It must record a commit of this
    history, measured without uncommitted changes, and either the engine has not changed since, or the
    summary says it is stale since that commit, listing at least every part of the engine changed."""
    recorded = COMMIT_LINE.search(summary)
    if recorded is None:
        return [f"the summary records no engine commit ('- engine: git commit ...'); {RERUN}"]
    commit, suffix = recorded.groups()
    if suffix:
        return [f"the summary was measured with uncommitted changes ({commit}{suffix}); commit, then {RERUN}"]
    if git("merge-base", "--is-ancestor", commit, "HEAD").returncode != 0:
        return [f"the summary's commit {commit} is not an ancestor of HEAD; {RERUN}"]
    changed = changed_parts(commit)
    stale = STALE_LINE.search(summary)
    if stale is None:
        return [f"the engine changed since {commit}, where the summary was measured ({', '.join(changed)}); "
                f"{RERUN}, or mark it stale: python -m bench.summary --mark-stale"] if changed else []
    marked_commit, listed = stale.group(1), {part.strip(" `") for part in stale.group(2).split(",")}
    missing = [part for part in changed if part not in listed]
    if marked_commit != commit or missing:
        return [f"the summary's stale line does not match: since {marked_commit} (recorded {commit}), "
                f"not listing {', '.join(missing) or '-'}; {RERUN}, or mark it again: "
                "python -m bench.summary --mark-stale"]
    return []


def stale_line(commit: str, changed: list) -> str:
    """The line that marks a summary stale."""
    return (f"- **stale since {commit}**: these figures no longer match the code; {RERUN}. Changed since: "
            + ", ".join(f"`{part}`" for part in changed) + ".")


def mark_stale(path: Path = RESULTS) -> str:
    """Mark the summary at ``path`` stale (replacing any earlier mark), listing what changed since its
    commit; return the line written, or "" if nothing changed."""
    summary, _ = split(path.read_text())
    summary = STALE_LINE.sub("", summary)
    recorded = COMMIT_LINE.search(summary)
    changed = changed_parts(recorded.group(1)) if recorded else []
    if not changed:
        write(summary, path)
        return ""
    line = stale_line(recorded.group(1), changed)
    write(summary[:recorded.end()] + "\n" + line + summary[recorded.end():], path)
    return line


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.summary", description=__doc__.split("\n\n")[0])
    parser.add_argument("--mark-stale", action="store_true",
                        help="mark the summary stale, listing the parts of the engine changed since its commit")
    args = parser.parse_args(argv)
    if args.mark_stale:
        print(mark_stale() or "the engine has not changed since the summary's commit: nothing to mark")
    found = problems(split(RESULTS.read_text())[0])
    print("\n".join(found) or "the summary describes the code (or says it is stale)")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
