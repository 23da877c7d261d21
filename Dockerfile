# Mahjong Lens: the web page and JSON API in one stateless container.
#
#   docker build -t mahjong-lens .
#   docker run --rm -p 8000:8000 -e MJLENS_WORKERS=2 mahjong-lens
#
# Settings are MJLENS_* environment variables (docs/api.md). The container keeps
# no state: run as many copies as you like behind a load balancer.
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    MJLENS_MODEL=/app/models/tile-classifier.onnx \
    MJLENS_WORKERS=1

# OpenCV's headless wheel still links GLib.
RUN apt-get update \
    && apt-get install -y --no-install-recommends libglib2.0-0 \
    && rm -rf /var/lib/apt/lists/*

WORKDIR /app
# Dependencies first, so that code changes do not reinstall them.
COPY pyproject.toml README.md ./
COPY scoring/__init__.py scoring/__init__.py
COPY vision/__init__.py vision/__init__.py
COPY api/__init__.py api/__init__.py
RUN pip install '.[heif]' && pip uninstall -y mahjong-lens

COPY scoring/ scoring/
COPY vision/ vision/
COPY api/ api/
COPY models/ models/
RUN pip install --no-deps '.[heif]' \
    && useradd --system --uid 10001 --no-create-home mjlens
USER mjlens

EXPOSE 8000
HEALTHCHECK --interval=30s --timeout=5s --start-period=20s --retries=3 \
    CMD python -c "import sys, urllib.request; sys.exit(0 if urllib.request.urlopen('http://127.0.0.1:8000/healthz', timeout=4).status == 200 else 1)"

# --proxy-headers: behind a load balancer, log the client's address, not the balancer's.
CMD ["mjlens", "serve", "--host", "0.0.0.0", "--port", "8000", "--proxy-headers"]
