FROM python:3.11-slim

WORKDIR /app
ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 HOST=0.0.0.0 PORT=8000

COPY pyproject.toml README.md ./
COPY app ./app
COPY migrations ./migrations
COPY static ./static
RUN pip install --no-cache-dir -e .

EXPOSE 8000
# The schema is brought to head first; `arcade serve` would do it too, but a failed migration
# should stop the container before it takes traffic.
CMD ["sh", "-c", "arcade migrate && arcade serve"]
