# syntax=docker/dockerfile:1
# Atrium: one image for the web nodes (`atrium serve`), the background worker (`atrium worker`) and the
# migration job (`atrium db upgrade`).
#
#   docker build -t atrium .
#   docker run -p 8000:8000 -e ATRIUM_SECRET_KEY=... -e ATRIUM_DATABASE_URL=... atrium

# --- 1. the web: the React host and every built-in plugin's remote, built once -------------------------
FROM node:20-bookworm-slim AS web
WORKDIR /src
COPY package.json package-lock.json ./
COPY sdk/web sdk/web
COPY web-host web-host
COPY web-plugins web-plugins
RUN npm ci --no-audit --no-fund \
    && npm run build \
    && mkdir /out && cp -r --parents web-host/dist web-plugins/*/dist /out/

# --- 2. the wheel: the Python packages with the built web, i18n and templates inside -------------------
FROM python:3.11-slim AS wheel
WORKDIR /src
COPY pyproject.toml setup.py README.md ./
COPY kernel kernel
COPY sdk sdk
COPY plugins plugins
COPY i18n i18n
COPY templates templates
COPY --from=web /out/ ./
RUN pip wheel --no-cache-dir --no-deps --wheel-dir /wheels .

# --- 3. the runtime: the wheel installed, nothing of the sources ---------------------------------------
FROM python:3.11-slim
ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    ATRIUM_VAR_DIR=/var/lib/atrium
# the wheel with the S3 client (ATRIUM_STORAGE_URL=s3://...); the wheel file is mounted, not copied into a layer
RUN --mount=type=bind,from=wheel,source=/wheels,target=/wheels \
    pip install --no-cache-dir "$(ls /wheels/atrium-*.whl)[s3]"
RUN groupadd --system --gid 10001 atrium \
    && useradd --system --uid 10001 --gid atrium --home-dir /var/lib/atrium --create-home \
       --shell /usr/sbin/nologin atrium
USER 10001:10001
WORKDIR /var/lib/atrium
EXPOSE 8000
HEALTHCHECK --interval=15s --timeout=3s --start-period=30s --retries=3 \
    CMD ["python", "-c", "import sys, urllib.request; sys.exit(urllib.request.urlopen('http://127.0.0.1:8000/healthz', timeout=2).status != 200)"]
CMD ["atrium", "serve", "--host", "0.0.0.0", "--port", "8000"]
