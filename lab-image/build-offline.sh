#!/usr/bin/env bash
# Builds an image without any container registry: debootstrap a minimal Debian bookworm with the given packages
# from the machine's own apt mirror, then `docker import` it. Needs root, debootstrap and a running Docker engine.
# Usage: lab-image/build-offline.sh [IMAGE]                 the lab node image (default tclab/lab-node:1): the
#                                                           packages in packages.txt, the lab's bashrc, sleep as CMD
#        lab-image/build-offline.sh --uml [IMAGE]           the User-Mode Linux lab image (default tclab/lab-uml:2):
#                                                           the same plus uml-packages.txt, and the UML kernel with
#                                                           its modules (uml-kernel.sh)
#        lab-image/build-offline.sh --base PACKAGES IMAGE   a plain Debian with PACKAGES (comma-separated) for another
#                                                           Dockerfile to build on (the app's, bin/build-app-image)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
lab=1
uml=0
case "${1:-}" in
  --base)
    lab=0
    packages=${2:?--base needs a comma-separated package list}
    image=${3:?--base needs the image name} ;;
  --uml)
    uml=1
    image=${2:-tclab/lab-uml:2} ;;
  *)
    image=${1:-tclab/lab-node:1} ;;
esac
if [ "$lab" = 1 ]; then
  lists=("$here/packages.txt")
  if [ "$uml" = 1 ]; then lists+=("$here/uml-packages.txt"); fi
  packages=$(cat "${lists[@]}" | grep -v '^#' | paste -sd, -)
fi

. "$here/debian-mirror.sh"

command -v debootstrap >/dev/null || { echo "debootstrap is missing: apt-get install debootstrap" >&2; exit 1; }
root=$(mktemp -d)
log=$(mktemp /tmp/tclab-debootstrap.XXXXXX.log)
trap 'rm -rf "$root"' EXIT
debootstrap --variant=minbase --include="$packages" bookworm "$root" "$(debian_mirror)" >"$log" 2>&1 \
  || { tail -n 20 "$log" >&2; exit 1; }
rm -f "$log"
changes=()
if [ "$lab" = 1 ]; then
  cp "$here/bashrc" "$root/etc/bash.bashrc"
  changes=(--change 'CMD ["sleep", "infinity"]')
fi
if [ "$uml" = 1 ]; then
  "$here/uml-kernel.sh" "$root"
fi
rm -rf "$root"/var/lib/apt/lists/* "$root"/var/cache/apt/*.bin "$root"/var/cache/apt/archives/*.deb
tar -C "$root" -c . | docker import "${changes[@]}" - "$image" >/dev/null
echo "built $image offline from $(debian_mirror)"
