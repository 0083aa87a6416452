# syntax=docker/dockerfile:1
#
# Ganglion: one image for every role; the command picks the role.
#
#   docker build -t ganglion:0.1.0 .
#   export ADMIN_TOKEN=$(openssl rand -hex 32) CACHE_KEY_SECRET=$(openssl rand -hex 32)
#   docker run --rm -p 8000:8000 -p 8001:8001 -e ADMIN_TOKEN -e CACHE_KEY_SECRET -v ganglion-data:/data ganglion:0.1.0   # `start`: everything, embedded PGlite
#   docker run --rm -e ADMIN_TOKEN -e CACHE_KEY_SECRET -e DATABASE_URL=postgres://… ganglion:0.1.0 orchestrator --port 8000
#   docker run --rm -e ADMIN_TOKEN -e CACHE_KEY_SECRET -e DATABASE_URL=postgres://… -e HEALTH_PORT=8001 ganglion:0.1.0 reflex --port 8001
#   docker run --rm -e HEALTH_PORT=8002 -e ORCHESTRATOR_URL=http://… ganglion:0.1.0 arm planner --port 8002
#
# AUTH=required: every request but health, readiness and docs needs `Authorization: Bearer` with
# ADMIN_TOKEN or an API key (docs/security.md). `-e NAME` without a value passes the variable on
# from the shell, so no secret is written on the command line. A reflex layer alone verifies API
# keys in the orchestrator's PostgreSQL, hence its DATABASE_URL.
#
# Written without a Docker engine at hand: see "What was verified" in docs/deployment.md.

ARG NODE_VERSION=20
# The napi crates in Cargo.lock need rustc 1.88 or newer (Cargo.toml says 1.87 for our own code);
# 1.95 is the toolchain the project is developed with.
ARG RUST_VERSION=1.95

FROM rust:${RUST_VERSION}-bookworm AS rust

# ---- build: the reflex package (its Rust addon and its TypeScript), then the service's
# TypeScript. Debian bookworm like the runtime, so the addon links against the same glibc (2.36)
# it will load with.
FROM node:${NODE_VERSION}-bookworm AS build
COPY --from=rust /usr/local/rustup /usr/local/rustup
COPY --from=rust /usr/local/cargo /usr/local/cargo
ENV RUSTUP_HOME=/usr/local/rustup CARGO_HOME=/usr/local/cargo PATH=/usr/local/cargo/bin:$PATH
WORKDIR /src
# Dependencies first, so a source change does not refetch them. npm needs the manifest of every
# workspace the root names (packages/reflex, linked as node_modules/@ganglion/reflex).
# --ignore-scripts skips `prepare` (the build, which needs the sources) and the install scripts of
# three packages the build does not use (@scarf/scarf is telemetry; bufferutil and utf-8-validate
# ship prebuilt binaries).
COPY package.json package-lock.json ./
COPY packages/reflex/package.json packages/reflex/
RUN --mount=type=cache,target=/root/.npm npm ci --ignore-scripts --no-audit --no-fund
COPY . .
# `npm run build` = the package first (napi build of packages/reflex into packages/reflex/bindings/,
# tsc of its lib/ into packages/reflex/dist/), then tsc of the service into dist/.
RUN --mount=type=cache,target=/usr/local/cargo/registry \
    npm run build \
 && ls packages/reflex/bindings/*.node \
 && test -f packages/reflex/dist/index.js \
 && test -f dist/cli/main.js

# ---- deps: production node_modules only, without the build's compilers and dev packages.
# node_modules/@ganglion/reflex is a workspace symlink to ../../packages/reflex: the runtime stage
# puts the built package there.
FROM node:${NODE_VERSION}-bookworm-slim AS deps
WORKDIR /app
COPY package.json package-lock.json ./
COPY packages/reflex/package.json packages/reflex/
RUN --mount=type=cache,target=/root/.npm npm ci --omit=dev --ignore-scripts --no-audit --no-fund

# ---- runtime
FROM node:${NODE_VERSION}-bookworm-slim
# bubblewrap: the executor arm's shell sandbox (prlimit and setpriv come with util-linux, already
# in the base image). tini: PID 1 that forwards SIGTERM to node and reaps orphaned sandbox processes.
RUN apt-get update \
 && apt-get install -y --no-install-recommends bubblewrap tini \
 && rm -rf /var/lib/apt/lists/*
ENV NODE_ENV=production \
    NODE_OPTIONS=--enable-source-maps \
    HOST=0.0.0.0 \
    AUTH=required \
    DATA_DIR=/data
WORKDIR /app
COPY --from=deps /app/node_modules ./node_modules
COPY --from=build /src/package.json ./
COPY --from=build /src/openapi.yaml ./
COPY --from=build /src/migrations ./migrations
COPY --from=build /src/dist ./dist
# @ganglion/reflex, where the node_modules symlink points: its manifest, its compiled API and its
# bindings (the generated loader and the built .node).
COPY --from=build /src/packages/reflex/package.json ./packages/reflex/
COPY --from=build /src/packages/reflex/dist ./packages/reflex/dist
COPY --from=build /src/packages/reflex/bindings ./packages/reflex/bindings
RUN node -e "import('@ganglion/reflex').then((r) => console.log('@ganglion/reflex', r.version))"
# The code stays root-owned and read-only to the service; only /data (PGlite, `start` without
# DATABASE_URL) is writable. A numeric user (`node` in the base image) lets Kubernetes verify
# runAsNonRoot.
RUN mkdir -p /data && chown node:node /data
USER 1000:1000
EXPOSE 8000 8001 8002 8003 8004 8005 8006 8007
# Every role answers GET /health. HEALTH_PORT names the role's port (default PORT, else 8000):
# set it for reflex (8001) and for each arm. The start period is generous: `start` on PGlite took
# 26 s to listen on a busy 2-core machine.
HEALTHCHECK --interval=15s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.HEALTH_PORT||process.env.PORT||8000)+'/health').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
ENTRYPOINT ["/usr/bin/tini", "--", "node", "dist/cli/main.js"]
CMD ["start"]
