#!/usr/bin/env bash
# Builds the lab node image. Uses `docker build` when the base image can be had (local or from a
# registry); otherwise builds the same image offline from Debian packages (debootstrap + docker import).
# Usage: lab-image/build.sh [IMAGE]   (default tclab/lab-node:1; --offline forces the offline route)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
offline=0
if [ "${1:-}" = "--offline" ]; then offline=1; shift; fi
image=${1:-tclab/lab-node:1}

if [ "$offline" = 0 ] && docker build -q -t "$image" "$here" >/dev/null 2>&1; then
  echo "built $image with docker build"
  exit 0
fi
[ "$offline" = 1 ] || echo "docker build could not fetch its base image; building $image offline"
exec "$here/build-offline.sh" "$image"
