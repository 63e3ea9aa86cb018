# Ticket to Ride on Discord: the bot in a small image.
#   docker build -t ttr-bot .
#   docker run -d --name ttr --restart unless-stopped --env-file .env -v ttr-data:/data ttr-bot
#   docker run --rm --env-file .env ttr-bot python bot.py sync --guild YOUR_SERVER_ID
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    TTR_DB=/data/ttr.sqlite3
# TTR_WORKERS (worker processes for computer players and pictures) defaults to the cores the
# container may run on; with `docker run --cpus N` below that, pass -e TTR_WORKERS=N.

WORKDIR /app

# libfribidi: Pillow's complex-text layout (raqm) loads it to join Persian letters, and the
# picture's right-to-left ordering (ttr_bot/render/bidi.py) calls it.
RUN apt-get update && apt-get install -y --no-install-recommends libfribidi0 \
    && rm -rf /var/lib/apt/lists/*

# Dependencies first, so code changes do not reinstall them (all have wheels: no compiler).
COPY requirements.txt constraints.txt ./
RUN pip install -r requirements.txt -c constraints.txt

COPY bot.py ./
# ttr_bot/render/fonts/ comes with the package: the picture's fonts for every script players'
# names are written in (Noto, SIL OFL 1.1, 21 MiB; ttr_bot/render/fonts/SOURCES.md).
COPY ttr_bot ./ttr_bot
COPY maps ./maps

# Run as an unprivileged user; the database lives on a volume it owns.
RUN useradd --system --uid 10001 --home-dir /app --shell /usr/sbin/nologin ttr \
    && mkdir -p /data && chown ttr:ttr /data
USER ttr
VOLUME ["/data"]

CMD ["python", "bot.py"]
