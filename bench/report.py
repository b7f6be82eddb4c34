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
