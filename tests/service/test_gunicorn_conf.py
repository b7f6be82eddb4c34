"""service/gunicorn.conf.py: its settings, and its SIGTERM hook that makes /readyz answer 503."""
from pathlib import Path
import runpy
import signal
from types import SimpleNamespace

CONF = Path(__file__).resolve().parents[2] / "service" / "gunicorn.conf.py"


def load_conf(monkeypatch, tmp_path, **env) -> dict:
    monkeypatch.setenv("PROMETHEUS_MULTIPROC_DIR", str(tmp_path))
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    return runpy.run_path(str(CONF))


def test_the_settings(monkeypatch, tmp_path):
    conf = load_conf(monkeypatch, tmp_path, WEB_CONCURRENCY="3", MAX_TIME_LIMIT_MS="20000", PORT="9100")
    assert conf["worker_class"] == "sync" and conf["workers"] == 3
    assert conf["wsgi_app"] == "service.wsgi:app" and conf["bind"] == "0.0.0.0:9100"
    assert conf["control_socket_disable"] is True
    assert conf["timeout"] >= 2 * 20 and conf["graceful_timeout"] > 20
    assert conf["max_requests"] > 0 and conf["max_requests_jitter"] > 0


def test_sigterm_drains_the_worker_then_lets_gunicorn_stop_it(monkeypatch, tmp_path, client, app):
    conf = load_conf(monkeypatch, tmp_path)
    stopped = []
    worker = SimpleNamespace(wsgi=app, handle_exit=lambda sig, frame: stopped.append(sig))
    previous = signal.getsignal(signal.SIGTERM)
    try:
        conf["post_worker_init"](worker)
        assert client.get("/readyz").status_code == 200
        signal.getsignal(signal.SIGTERM)(signal.SIGTERM, None)
    finally:
        signal.signal(signal.SIGTERM, previous)
    assert stopped == [signal.SIGTERM]
    assert client.get("/readyz").status_code == 503


def test_the_metrics_directory_is_emptied_at_start(monkeypatch, tmp_path):
    (tmp_path / "counter_123.db").write_bytes(b"stale")
    load_conf(monkeypatch, tmp_path)["on_starting"](None)
    assert list(tmp_path.iterdir()) == []
