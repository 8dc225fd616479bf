# syntax=docker/dockerfile:1
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1

RUN useradd --create-home --uid 10001 agent
WORKDIR /app

COPY requirements.txt .
RUN pip install -r requirements.txt

COPY --chown=agent:agent . .
USER agent

# Model files the plugins need (Silero VAD ships in its wheel); fetched at build, not at run.
RUN python agent.py download-files

# The worker's health endpoint (AgentServer's HTTP server, port 8081 in production).
EXPOSE 8081
HEALTHCHECK --interval=30s --timeout=5s --start-period=20s --retries=3 \
    CMD python -c "import urllib.request,sys; sys.exit(0 if urllib.request.urlopen('http://127.0.0.1:8081/').status == 200 else 1)"

CMD ["python", "agent.py", "start"]
