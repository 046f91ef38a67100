FROM python:3.12-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    DATABASE_PATH=/app/data/paplu.sqlite3

WORKDIR /app
RUN useradd --create-home --uid 10001 paplu

COPY pyproject.toml README.md ./
COPY bot ./bot
COPY cogs ./cogs
RUN pip install . && mkdir -p /app/data && chown paplu:paplu /app/data

USER paplu
VOLUME ["/app/data"]
CMD ["python", "-m", "bot"]
