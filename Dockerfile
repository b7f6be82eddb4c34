# Tactician: build the dependencies in one stage, run as an unprivileged user in a slim one.
FROM python:3.11-slim AS build
ENV PIP_NO_CACHE_DIR=1 PIP_DISABLE_PIP_VERSION_CHECK=1
COPY requirements.txt /tmp/requirements.txt
RUN python -m venv /opt/venv \
    && /opt/venv/bin/pip install --no-cache-dir -r /tmp/requirements.txt

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
