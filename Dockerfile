# syntax=docker/dockerfile:1
#
# Tally's one image for every role: ROLE=api | gateway | all comes from the environment (k8s/base).
#
# NOTE: this Dockerfile has NOT been built with `docker build`: the development machine has no Docker
# engine. Its steps were reproduced by hand there (npm ci, the type check and `npm run build` on the
# filtered context, npm ci --omit=dev, then the server, the migration and both roles started as uid 1000
# from dist/ and the production node_modules),
# and test/k8s/manifests.test.ts checks its structure (stages, production-only install, non-root user,
# command). Build it where a daemon runs:  docker build -t tally .
#
# No HEALTHCHECK: Kubernetes probes /healthz and /readyz (k8s/base/api.yaml).

ARG NODE_IMAGE=node:24-bookworm-slim

# Only the package manifests of the root and of every workspace, so that the npm ci layers below are
# rebuilt when dependencies change, not on every source change.
FROM ${NODE_IMAGE} AS manifests
WORKDIR /app
COPY apps apps
COPY packages packages
RUN find apps packages -mindepth 2 -maxdepth 2 ! -name package.json -exec rm -rf {} +

# Stage 1: every dependency, a type check of the sources, and `npm run build`: esbuild bundles them
# into dist/server.js and dist/migrate.js (the workspaces inlined, node_modules packages left external).
FROM ${NODE_IMAGE} AS build
WORKDIR /app
ENV NPM_CONFIG_UPDATE_NOTIFIER=false NPM_CONFIG_FUND=false NPM_CONFIG_AUDIT=false
COPY package.json package-lock.json ./
COPY --from=manifests /app ./
RUN --mount=type=cache,target=/root/.npm npm ci
COPY tsconfig.json tsconfig.base.json ./
COPY apps apps
COPY packages packages
# Type check of what the image runs: apps/server and the workspaces it references (tsc -b, project
# references; the tests' project is not in the context).
RUN npx tsc -b apps/server
RUN npm run build

# Stage 2: production dependencies only (no tsx, no esbuild: the image runs compiled JavaScript).
FROM ${NODE_IMAGE} AS prod-deps
WORKDIR /app
ENV NPM_CONFIG_UPDATE_NOTIFIER=false NPM_CONFIG_FUND=false NPM_CONFIG_AUDIT=false
COPY package.json package-lock.json ./
COPY --from=manifests /app ./
RUN --mount=type=cache,target=/root/.npm npm ci --omit=dev

# The runtime: production node_modules and the bundles, owned by root and read-only to the process,
# which runs as the unprivileged `node` user (uid 1000). No TypeScript sources: the workspace links in
# node_modules/@tally point nowhere, and nothing follows them (the bundles inline the workspaces).
FROM ${NODE_IMAGE} AS runtime
ENV NODE_ENV=production
WORKDIR /app
COPY --from=prod-deps /app/node_modules ./node_modules
COPY --from=build /app/package.json /app/package-lock.json ./
COPY --from=build /app/dist ./dist
USER node
EXPOSE 3000
# `npm run start:prod` without npm. node is PID 1 and handles SIGTERM itself (drain, then exit 0).
# The migration Job runs `node --enable-source-maps dist/migrate.js` (`npm run migrate:prod`).
CMD ["node", "--enable-source-maps", "dist/server.js"]
