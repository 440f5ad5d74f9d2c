# syntax=docker/dockerfile:1
#
# Tally's one image for every role: ROLE=api | gateway | all comes from the environment (k8s/base).
#
# Built and run on the development machine with podman (no image registry there): `npm run image:base`
# makes a local base (Debian bookworm minbase + Node 24 from the npm registry, the user node) and
# `npm run image` builds this file on it, passing NODE_IMAGE (infra/image/). Elsewhere:
#   docker build -t tally .          (on node:24-bookworm-slim)
# test/image/image.test.ts starts the image as production runs it (docs/OPERATIONS.md, The image) and
# test/k8s/manifests.test.ts checks its structure against k8s/.
#
# The gateway's V8 flag (--max-semi-space-size=16, infra/fleet/node-flags.ts) comes from NODE_OPTIONS,
# set per role where the image is run (k8s/base/gateway.yaml, the container fleet): one command for
# every ROLE.
#
# No HEALTHCHECK: Kubernetes probes /healthz and /readyz (k8s/base/api.yaml); the container fleet and
# the image test wait for /readyz the same way.

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
# Install scripts run only for the packages package.json#allowScripts allows (esbuild, @swc/core);
# @scarf/scarf's analytics are off twice over (scarfSettings, SCARF_ANALYTICS).
ENV NPM_CONFIG_UPDATE_NOTIFIER=false NPM_CONFIG_FUND=false NPM_CONFIG_AUDIT=false SCARF_ANALYTICS=false
COPY package.json package-lock.json ./
COPY --from=manifests /app ./
# npm-ca: an extra CA bundle for a registry reached through a TLS-inspecting proxy (infra/image/build.sh
# passes NODE_EXTRA_CA_CERTS as this secret); absent elsewhere. It never lands in a layer.
RUN --mount=type=cache,target=/root/.npm --mount=type=secret,id=npm-ca \
    NODE_EXTRA_CA_CERTS="$(test -f /run/secrets/npm-ca && echo /run/secrets/npm-ca)" npm ci
COPY tsconfig.json tsconfig.base.json ./
COPY apps apps
COPY packages packages
# Type check of what the image runs: apps/server and the workspaces it references (tsc -b, project
# references; the tests' project is not in the context). TYPECHECK=0 leaves it out where the same tree
# was just type-checked whole (CI's `npm run typecheck`; `TALLY_IMAGE_TYPECHECK=0 npm run image`).
ARG TYPECHECK=1
RUN if [ "$TYPECHECK" != 0 ]; then npx tsc -b apps/server; fi
RUN npm run build

# Stage 2: production dependencies only (no tsx, no esbuild: the image runs compiled JavaScript).
FROM ${NODE_IMAGE} AS prod-deps
WORKDIR /app
# Install scripts run only for the packages package.json#allowScripts allows (esbuild, @swc/core);
# @scarf/scarf's analytics are off twice over (scarfSettings, SCARF_ANALYTICS).
ENV NPM_CONFIG_UPDATE_NOTIFIER=false NPM_CONFIG_FUND=false NPM_CONFIG_AUDIT=false SCARF_ANALYTICS=false
COPY package.json package-lock.json ./
COPY --from=manifests /app ./
RUN --mount=type=cache,target=/root/.npm --mount=type=secret,id=npm-ca \
    NODE_EXTRA_CA_CERTS="$(test -f /run/secrets/npm-ca && echo /run/secrets/npm-ca)" npm ci --omit=dev

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
