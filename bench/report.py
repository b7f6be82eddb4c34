"""Rows of the benchmark report, and their rendering as a table (text or Markdown) and JSON."""
from bench.stats import fmt_count, fmt_met, fmt_ms, fmt_ratio, format_table

HEADER = ["#", "workload", "ours", "peer", "ours (median)", "peer (median)", "ours/peer", "nodes ours / peer",
          "goal", "met"]


def make_row(workload, label, *, peer=None, ours_ms=None, peer_ms=None, ratio=None, ours_nodes=None,
             peer_nodes=None, goal=None, met=None, note=None, ours_text=None, peer_text=None, **extra):
    """One line of the report. ``ours_text``/``peer_text`` override the formatted median when the measure
    is not a duration (a rate, a percentile). ``extra`` goes to the JSON only."""
    return {"workload": workload, "label": label, "peer": peer, "ours_ms": ours_ms, "peer_ms": peer_ms,
            "ratio": ratio, "ours_nodes": ours_nodes, "peer_nodes": peer_nodes, "goal": goal, "met": met,
            "note": note, "ours_text": ours_text, "peer_text": peer_text, **extra}


def _nodes(row):
    o, p = row.get("ours_nodes"), row.get("peer_nodes")
    if o is None and p is None:
        return "-"
    return f"{fmt_count(o)} / {fmt_count(p)}"


def cells(index, row):
    return [
        str(index),
        row["workload"],
        row["label"],
        row["peer"] or "-",
        row["ours_text"] if row.get("ours_text") is not None else fmt_ms(row.get("ours_ms")),
        row["peer_text"] if row.get("peer_text") is not None else fmt_ms(row.get("peer_ms")),
        fmt_ratio(row.get("ratio")),
        _nodes(row),
        row.get("goal") or "report",
        fmt_met(row.get("met")),
    ]


def render(rows, markdown=False):
    """The table, then one numbered note per row that has one."""
    table = format_table(HEADER, [cells(i, r) for i, r in enumerate(rows, 1)], markdown=markdown)
    notes = [f"[{i}] {r['workload']} / {r['label']}: {r['note']}" for i, r in enumerate(rows, 1) if r.get("note")]
    if not notes:
        return table
    sep = "\n\n" if markdown else "\n\nnotes:\n"
    joiner = "\n\n" if markdown else "\n"
    return table + sep + joiner.join(notes)


def goals_line(rows) -> str:
    """``goals met: 5/9``: the rows that have a goal, and how many of them met it."""
    with_goal = [r for r in rows if r.get("met") is not None]
    return f"goals met: {sum(1 for r in with_goal if r['met'])}/{len(with_goal)}"


def markdown_document(result: dict) -> str:
    """The whole report as a Markdown page (``RESULTS.md``): when, on what, how, then the table."""
    m = result["machine"]
    load = lambda avg: " / ".join(f"{x:.2f}" for x in avg) if avg else "unknown"
    peers = ", ".join(f"{name} {version}" for name, version in m["peers"].items())
    command = "python -m bench" + (" --quick" if result["mode"] == "quick" else "")
    return "\n".join([
        "# Benchmark results",
        "",
        f"- date: {result['date']}",
        f"- run: `{command}` ({result['mode']}, {result['repeat']} timed runs per side), "
        f"{result['seconds']:.0f} s",
        f"- machine: {m['cpu_model']}, {m['cores']} cores ({m['usable_cores']} usable), {m['platform']}",
        f"- Python: {m['implementation']} {m['python']}; peers: {peers}",
        f"- engine: git commit {m['git_commit']}",
        f"- load average (1/5/15 min) at the start: {load(m.get('load_average'))}; "
        f"at the end: {load(m.get('load_average_end'))}",
        f"- {goals_line(result['rows'])}",
        "",
        "Ratios are ours / peer (below 1: we are faster); see bench/README.md for the method.",
        "",
        render(result["rows"], markdown=True),
        "",
    ])
