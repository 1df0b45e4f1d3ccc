#!/usr/bin/env bash
# Builds an image without any container registry: debootstrap a minimal Debian bookworm with the given packages
# from the machine's own apt mirror, then `docker import` it. Needs root, debootstrap and a running Docker engine.
# Usage: lab-image/build-offline.sh [IMAGE]                 the lab node image (default tclab/lab-node:1): the
#                                                           packages in packages.txt, the lab's bashrc, sleep as CMD
#        lab-image/build-offline.sh --uml [IMAGE]           the User-Mode Linux lab image (default tclab/lab-uml:1):
#                                                           the same plus uml-packages.txt, with the UML kernel's
#                                                           modules where its modprobe looks for them
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
    image=${2:-tclab/lab-uml:1} ;;
  *)
    image=${1:-tclab/lab-node:1} ;;
esac
if [ "$lab" = 1 ]; then
  lists=("$here/packages.txt")
  if [ "$uml" = 1 ]; then lists+=("$here/uml-packages.txt"); fi
  packages=$(cat "${lists[@]}" | grep -v '^#' | paste -sd, -)
fi

# The Debian mirror this machine's apt already uses (deb822 .sources files or a classic sources.list).
mirror() {
  local uri
  uri=$(grep -hs '^URIs:' /etc/apt/sources.list.d/*.sources | awk '{print $2}' | grep -v -- '-security' | head -n1 || true)
  [ -n "$uri" ] || uri=$(grep -hs '^deb ' /etc/apt/sources.list /etc/apt/sources.list.d/*.list \
                         | awk '{print $2}' | grep -v -- '-security' | head -n1 || true)
  [ -n "$uri" ] || { echo "no Debian mirror found in /etc/apt" >&2; exit 1; }
  echo "$uri"
}

command -v debootstrap >/dev/null || { echo "debootstrap is missing: apt-get install debootstrap" >&2; exit 1; }
root=$(mktemp -d)
log=$(mktemp /tmp/tclab-debootstrap.XXXXXX.log)
trap 'rm -rf "$root"' EXIT
debootstrap --variant=minbase --include="$packages" bookworm "$root" "$(mirror)" >"$log" 2>&1 \
  || { tail -n 20 "$log" >&2; exit 1; }
rm -f "$log"
changes=()
if [ "$lab" = 1 ]; then
  cp "$here/bashrc" "$root/etc/bash.bashrc"
  changes=(--change 'CMD ["sleep", "infinity"]')
fi
if [ "$uml" = 1 ]; then
  # UML's modprobe looks in /lib/modules/<release>; a link, not a second copy of 105 MB.
  mkdir -p "$root/lib/modules"
  for release in "$root"/usr/lib/uml/modules/*; do ln -s "/usr/lib/uml/modules/${release##*/}" "$root/lib/modules/"; done
fi
rm -rf "$root"/var/lib/apt/lists/* "$root"/var/cache/apt/*.bin "$root"/var/cache/apt/archives/*.deb
tar -C "$root" -c . | docker import "${changes[@]}" - "$image" >/dev/null
echo "built $image offline from $(mirror)"
