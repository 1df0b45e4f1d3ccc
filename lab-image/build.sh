#!/usr/bin/env bash
# Builds the lab node image. Uses `docker build` when the base image can be had (local or from a
# registry); otherwise builds the same image offline from Debian packages (debootstrap + docker import).
# Usage: lab-image/build.sh [--offline] [--uml] [IMAGE]   (default tclab/lab-node:1, or tclab/lab-uml:2 with --uml:
# the User-Mode Linux lab image; --offline forces the offline route)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
offline=0
uml=()
while [ $# -gt 0 ]; do
  case $1 in --offline) offline=1; shift ;; --uml) uml=(--uml); shift ;; *) break ;; esac
done
if [ ${#uml[@]} -gt 0 ]; then image=${1:-tclab/lab-uml:2}; else image=${1:-tclab/lab-node:1}; fi

if [ "$offline" = 0 ] && docker build -q --build-arg "UML=${#uml[@]}" -t "$image" "$here" >/dev/null 2>&1; then
  echo "built $image with docker build"
  exit 0
fi
[ "$offline" = 1 ] || echo "docker build could not fetch its base image; building $image offline"
exec "$here/build-offline.sh" "${uml[@]}" "$image"
