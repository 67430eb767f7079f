# Privacy Playground: one Streamlit replica per container. Many replicas behind an ingress
# with cookie affinity share the class store in PostgreSQL (deploy/kubernetes/*.yaml);
# `make room` is the same on one host without containers (README, "Teaching a large class").
#
#   docker build -t privacy-playground .
#   docker run -p 8501:8501 -e SURVEY_DB_URL=postgresql+psycopg://... \
#              -e STREAMLIT_SERVER_COOKIE_SECRET=... privacy-playground
#
# The base image is pinned to one exact Python and Debian release (the versions the tests
# run on); update it deliberately, with requirements.txt.
FROM python:3.11.7-slim-bookworm

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    STREAMLIT_SERVER_HEADLESS=true \
    STREAMLIT_BROWSER_GATHER_USAGE_STATS=false \
    SURVEY_DB_DIR=/app/var

RUN groupadd --gid 10001 app && useradd --uid 10001 --gid app --create-home app
WORKDIR /app
COPY requirements.txt .
RUN pip install -r requirements.txt
COPY --chown=app:app . .
RUN mkdir -p /app/var && chown app:app /app/var
USER 10001:10001

EXPOSE 8501
# A replica at 100% CPU answers its health check in a second or two: wait, and only give
# up after several misses in a row (HAProxy and Kubernetes are told the same).
HEALTHCHECK --interval=15s --timeout=10s --start-period=30s --retries=5 \
    CMD ["python", "-c", "import sys, urllib.request; sys.exit(urllib.request.urlopen('http://127.0.0.1:8501/_stcore/health', timeout=9).status != 200)"]
CMD ["python", "deploy/serve.py", "--server.address=0.0.0.0", "--server.port=8501", "--server.fileWatcherType=none"]
