"""bench/cold.py: one short run prints a row for each condition, each a finite, positive work figure, and
leaves the request log as it found it."""
import logging
import re

from bench import cold
from service.request_log import LOGGER


def test_a_short_run_prints_every_condition(capsys):
    cold.main(["--repeat", "2", "--lengths", "5"])
    assert LOGGER.isEnabledFor(logging.INFO)  # as the app set it up: a later test still sees its lines
    lines = capsys.readouterr().out.strip().splitlines()
    rows = {line.split(" | ")[0].strip("| "): line for line in lines[2:]}
    assert list(rows) == ["back to back", "after a 5 ms search", "after 5 ms idle"]
    for line in rows.values():
        p50, p90 = (float(x) for x in re.findall(r"\| ([0-9.]+)", line))
        assert 0 < p50 <= p90 < 1000
