FROM python:3.11-slim

WORKDIR /app
ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 HOST=0.0.0.0 PORT=8000

COPY pyproject.toml README.md ./
COPY app ./app
COPY migrations ./migrations
COPY static ./static
# The rules pages are rendered from docs/rules/ when the server starts.
COPY docs/rules ./docs/rules
RUN pip install --no-cache-dir -e . \
    && useradd --system --no-create-home --home-dir /app arcade \
    && mkdir /data && chown arcade /data
# The server does not run as root and writes nothing under /app. Alone (`docker run`), its
# SQLite file is in the /data volume; docker-compose.yml sets DATABASE_URL to PostgreSQL.
ENV DATABASE_URL=sqlite:////data/arcade.db
VOLUME /data
USER arcade

EXPOSE 8000
# Exec form: the server is PID 1 and receives SIGTERM itself, so `docker stop` drains it
# (close code 1012, then exit; docs/protocol.md, section 4.7) instead of killing it after the
# grace period. It brings the schema up to date as it starts unless MIGRATE_ON_START=false
# (docker-compose.yml migrates once, in a one-shot service, before its replicas start).
CMD ["arcade", "serve"]
