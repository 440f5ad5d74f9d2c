# Shared by the image scripts (sourced): podman as it works on these machines, and the image names.
#
# runc, not crun (crun fails where cgroups are in hybrid mode); file and process limits below the
# machine's hard limits (podman's defaults are refused); the host network.

# The local base image (npm run image:base) and Tally's image (npm run image).
BASE_IMAGE="${TALLY_BASE_IMAGE:-localhost/node24-bookworm-minbase:local}"
TALLY_IMAGE="${TALLY_IMAGE:-localhost/tally}"

pm() {
  podman --runtime runc "$@"
}

PM_LIMITS=(--ulimit nofile=10000:10000 --ulimit nproc=5000:5000)

image_exists() {
  command -v podman >/dev/null 2>&1 && pm image exists "$1"
}

require_podman() {
  command -v podman >/dev/null 2>&1 || {
    echo "podman is not installed (apt-get install -y podman runc mmdebstrap)" >&2
    exit 1
  }
}
