# python:3.12-slim, pinned by digest: an image built next month starts from the same base as
# one built today (the lock does the same for the Python packages). To move to a newer base:
#   docker buildx imagetools inspect python:3.12-slim   (the "Digest:" line), then rebuild and test.
FROM python:3.12-slim@sha256:78387bc3881b8273120a12ebe6c1ab22b018ccc2c9adf565ae1ac9b536e184ea

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    DATABASE_PATH=/app/data/paplu.sqlite3

WORKDIR /app
RUN useradd --create-home --uid 10001 paplu

# The pinned dependencies first (their layer is reused while the lock is unchanged), then the
# bot itself without resolving again; `pip check` fails the build if the lock misses one.
# FriBiDi: Pillow's Raqm layout loads it at run time to shape the pictures' Devanagari.
RUN apt-get update && apt-get install -y --no-install-recommends libfribidi0 \
    && rm -rf /var/lib/apt/lists/*
COPY requirements.lock ./
RUN pip install -r requirements.lock
COPY pyproject.toml README.md LICENSE ./
COPY bot ./bot
COPY cogs ./cogs
RUN pip install --no-deps . && pip check && mkdir -p /app/data && chown paplu:paplu /app/data

USER paplu
VOLUME ["/app/data"]
# Healthy while the bot is connected to Discord and its event loop runs: it refreshes
# data/.heartbeat every 30 s (see bot/health.py); the check reads only that file's age.
HEALTHCHECK --interval=30s --timeout=10s --start-period=90s --retries=3 \
    CMD ["python", "-m", "bot.health"]
CMD ["paplu-bot"]
