"""bench/worker_cpu.py: the requests it sends, and one short run against a real gunicorn."""
import json

import pytest

from bench import worker_cpu
from bench.service import TRIVIAL_REQUEST


def test_the_search_request_is_whole_and_closes_its_connection():
    head, body = worker_cpu.raw_request(8000, "search").split(b"\r\n\r\n", 1)
    lines = head.decode().split("\r\n")
    assert lines[0] == "POST /v1/search HTTP/1.1"
    headers = dict(line.split(": ", 1) for line in lines[1:])
    assert int(headers["Content-Length"]) == len(body)
    assert headers["Connection"] == "close"
    assert json.loads(body) == TRIVIAL_REQUEST


def test_livez_request():
    assert worker_cpu.raw_request(8000, "livez").startswith(b"GET /livez HTTP/1.1\r\n")


@pytest.mark.parametrize("worker", ["ours", "sync"])
def test_a_short_run_counts_one_workers_cpu(worker):
    row = worker_cpu.measure(worker, "livez", 30)
    assert row["failed"] == 0
    assert row["cpu_ms"] == pytest.approx(row["user_ms"] + row["sys_ms"])
    assert 0 <= row["cpu_ms"] < 1000
