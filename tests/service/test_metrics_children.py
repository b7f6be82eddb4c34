"""service.metrics.child: the child metric.labels() gives, asked of prometheus_client once."""
from prometheus_client import CollectorRegistry, Counter

from service import metrics


def test_a_metrics_child_is_the_labels_own_and_is_looked_up_once(monkeypatch):
    counter = Counter("tactician_test_children_total", "A test's counter.", ["game"], registry=CollectorRegistry())
    first = metrics.child(counter, "connect4")
    assert first is counter.labels("connect4")
    monkeypatch.setattr(counter, "labels", lambda *labels: (_ for _ in ()).throw(AssertionError("asked again")))
    metrics.child(counter, "connect4").inc(2)
    assert first._value.get() == 2
    assert metrics.child(counter, "connect4") is first
