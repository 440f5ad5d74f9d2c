#!/usr/bin/env bash
# `npm run image [-- --tag TAG]`: Tally's image from the Dockerfile, with podman, tagged
# localhost/tally:TAG (default `local`). The base is NODE_IMAGE when set; otherwise the local base
# (`npm run image:base`) when it exists, else the Dockerfile's default, node:24-bookworm-slim.
# Layers are cached between builds (an unchanged lockfile reuses both npm ci layers). Prints the
# build time and the image's size.
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"
# shellcheck source=infra/image/podman.sh
source "$HERE/podman.sh"

tag=local
while (($# > 0)); do
  case "$1" in
    --tag) tag="$2"; shift 2 ;;
    *) echo "image: unknown argument $1 (usage: npm run image -- [--tag TAG])" >&2; exit 2 ;;
  esac
done
require_podman

base_args=()
if [[ -n "${NODE_IMAGE:-}" ]]; then
  base_args=(--build-arg "NODE_IMAGE=$NODE_IMAGE")
elif image_exists "$BASE_IMAGE"; then
  base_args=(--build-arg "NODE_IMAGE=$BASE_IMAGE")
fi
# TALLY_IMAGE_TYPECHECK=0: no type check inside the build (the caller type-checked this tree already).
check_args=()
if [[ "${TALLY_IMAGE_TYPECHECK:-1}" == 0 ]]; then
  check_args=(--build-arg TYPECHECK=0)
fi
# A registry behind a TLS-inspecting proxy: its CA goes to npm ci as a build secret (not into a layer).
secret_args=()
if [[ -n "${NODE_EXTRA_CA_CERTS:-}" && -f "${NODE_EXTRA_CA_CERTS}" ]]; then
  secret_args=(--secret "id=npm-ca,src=$NODE_EXTRA_CA_CERTS")
fi
image="$TALLY_IMAGE:$tag"
echo "image: building $image on ${base_args[*]:-the default base, node:24-bookworm-slim}"
started=$(date +%s)
# --pull=missing: a local base is never looked up in a registry; node:24-bookworm-slim is pulled once.
pm build "${PM_LIMITS[@]}" --layers --pull=missing --network host --format docker \
  "${base_args[@]}" "${check_args[@]}" "${secret_args[@]}" -t "$image" -f "$ROOT/Dockerfile" "$ROOT"
size=$(pm image inspect --format '{{.Size}}' "$image")
echo "image: $image built in $(($(date +%s) - started)) s, $((size / 1000000)) MB"
