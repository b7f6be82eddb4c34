"""service/gunicorn.conf.py: its settings (the worker's SIGTERM drain is tested against a real gunicorn in
tests/service/test_abuse_gunicorn.py)."""
from pathlib import Path
import runpy

CONF = Path(__file__).resolve().parents[2] / "service" / "gunicorn.conf.py"


def load_conf(monkeypatch, tmp_path, **env) -> dict:
    monkeypatch.setenv("PROMETHEUS_MULTIPROC_DIR", str(tmp_path))
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    return runpy.run_path(str(CONF))


def test_the_settings(monkeypatch, tmp_path):
    conf = load_conf(monkeypatch, tmp_path, WEB_CONCURRENCY="3", MAX_TIME_LIMIT_MS="20000", PORT="9100")
    assert conf["worker_class"] == "service.worker.Worker" and conf["workers"] == 3
    assert conf["threads"] > 2 + 1
    assert conf["wsgi_app"] == "service.wsgi:app" and conf["bind"] == "0.0.0.0:9100"
    assert conf["control_socket_disable"] is True
    assert conf["timeout"] >= 2 * 20 and conf["graceful_timeout"] > 20
    assert conf["max_requests"] > 0 and conf["max_requests_jitter"] > 0
    assert conf["preload_app"] is True  # a recycled worker is a fork of the loaded app (test_worker_recycling.py)


def test_the_metrics_directory_is_emptied_at_start(monkeypatch, tmp_path):
    (tmp_path / "counter_123.db").write_bytes(b"stale")
    load_conf(monkeypatch, tmp_path)["on_starting"](None)
    assert list(tmp_path.iterdir()) == []


def test_the_loaded_app_is_frozen_out_of_the_workers_collections(monkeypatch, tmp_path):
    """Before each fork, everything the arbiter has loaded moves to the collector's permanent generation,
    so that a worker's full collections do not walk it (nor write to the pages it shares with the arbiter)."""
    import gc
    pre_fork = load_conf(monkeypatch, tmp_path)["pre_fork"]
    loaded = [[] for _ in range(100)]  # stand-ins for the app's objects
    try:
        pre_fork(None, None)
        assert gc.get_freeze_count() >= len(loaded)
        assert not any(o is loaded for o in gc.get_objects())  # out of every generation a collection walks
    finally:
        gc.unfreeze()
