# Tactician: build the dependencies and the compiled core (native/) in one stage, with the compiler; run
# as an unprivileged user in a slim one that gets only the virtual environment, the module built into it
# (with the API client, tactician/, which the wheel carries).
FROM python:3.11-slim AS build
ENV PIP_NO_CACHE_DIR=1 PIP_DISABLE_PIP_VERSION_CHECK=1
# hadolint ignore=DL3008
RUN apt-get update \
    && apt-get install -y --no-install-recommends cmake g++ \
    && rm -rf /var/lib/apt/lists/*
COPY requirements.txt requirements-build.txt /tmp/
RUN python -m venv /opt/venv \
    && /opt/venv/bin/pip install --no-cache-dir -r /tmp/requirements.txt -r /tmp/requirements-build.txt
WORKDIR /src
COPY pyproject.toml ./
COPY native/ native/
# backgammon's contact network: the compiled core embeds its weights file at build time (native/CMakeLists.txt)
COPY engine/games/backgammon_net.txt engine/games/
COPY tactician/ tactician/
RUN /opt/venv/bin/pip install --no-cache-dir --no-build-isolation --no-deps . \
    && /opt/venv/bin/python -c "import tactician_native"

FROM python:3.11-slim
ENV PATH="/opt/venv/bin:$PATH" \
    PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PORT=8000 \
    HEALTH_BIND=0.0.0.0:8001 \
    PROMETHEUS_MULTIPROC_DIR=/tmp/tactician-metrics
RUN groupadd --gid 10001 tactician \
    && useradd --uid 10001 --gid 10001 --no-create-home --shell /usr/sbin/nologin tactician
COPY --from=build /opt/venv /opt/venv
WORKDIR /app
COPY engine/ engine/
COPY service/ service/
COPY openapi.yaml ./
USER 10001:10001
EXPOSE 8000
# The health listener (HEALTH_BIND, answered by gunicorn's arbiter): for probes, not published.
HEALTHCHECK --interval=15s --timeout=3s --start-period=10s --retries=3 \
    CMD ["python", "-c", "import os, urllib.request; urllib.request.urlopen('http://127.0.0.1:%s/livez' % os.environ['HEALTH_BIND'].rpartition(':')[2], timeout=2)"]
CMD ["gunicorn", "-c", "service/gunicorn.conf.py"]
