"""Issue 34, item 8, under the real server: a rules request on a big state (a 48,000-node tree, 0.9 MB)
no longer holds the worker's interpreter while its state is read. Measured as the worker's own CPU time
per request (its search processes apart), which a loaded machine does not inflate as it does latencies:
on main before the change, 158 ms a request on the shared 2-core machine; after, 7 ms."""
import json
import os

import requests

from bench.rules_big import big_tree
from tests.service.server import gunicorn

REQUESTS = 5
# A worker that reads the tree itself spends 60-160 ms a request (decoding the body and reading 48,000
# nodes); one that hands the bytes to a search process spends a few.
MAX_WORKER_CPU_MS = 40


def cpu_ms_of_children(parent: int) -> float:
    """CPU milliseconds (user + system) used by the processes whose parent is ``parent`` (Linux /proc)."""
    tick, total = os.sysconf("SC_CLK_TCK"), 0
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat", encoding="ascii", errors="replace") as fh:
                    fields = fh.read().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == parent:
                total += int(fields[11]) + int(fields[12])
    return total * 1000.0 / tick


def test_a_big_state_s_legal_moves_cost_its_worker_a_few_milliseconds_of_cpu(tmp_path):
    body = json.dumps({"state": big_tree()})
    headers = {"Content-Type": "application/json"}
    with gunicorn(tmp_path, WEB_CONCURRENCY=1) as (base, process):
        first = requests.post(f"{base}/v1/games/tree/legal-moves", data=body, headers=headers, timeout=60)
        assert first.status_code == 200 and len(first.json()["legal_moves"]) == 36   # and the pool is warm
        before = cpu_ms_of_children(process.pid)
        for _ in range(REQUESTS):
            response = requests.post(f"{base}/v1/games/tree/legal-moves", data=body, headers=headers, timeout=60)
            assert response.json() == first.json()
        per_request = (cpu_ms_of_children(process.pid) - before) / REQUESTS
    assert per_request < MAX_WORKER_CPU_MS
