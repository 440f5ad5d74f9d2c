#!/usr/bin/env bash
# Writes the dev overlay's git-ignored secrets.env from secrets.env.example, with a fresh random
# JWT_SECRET (48 random bytes, base64url). Refuses to overwrite an existing file: tokens signed with
# the old secret would stop verifying (rotate with JWT_SECRET_PREVIOUS instead, see k8s/README.md).
#   k8s/overlays/dev/make-secrets.sh [output-file]
set -euo pipefail
dir="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
out="${1:-$dir/secrets.env}"
if [[ -e "$out" ]]; then
  echo "make-secrets: $out exists; delete it first to make new secrets" >&2
  exit 1
fi
secret="$(node -e 'process.stdout.write(require("node:crypto").randomBytes(48).toString("base64url"))')"
umask 077
sed "s|^JWT_SECRET=.*\$|JWT_SECRET=${secret}|" "$dir/secrets.env.example" >"$out"
echo "make-secrets: wrote $out; now set REDIS_URL in it" >&2
