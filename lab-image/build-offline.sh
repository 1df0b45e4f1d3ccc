#!/usr/bin/env bash
# Builds the lab node image without any container registry: debootstrap a minimal Debian bookworm
# with the packages in packages.txt from the machine's own apt mirror, then `docker import` it.
# Usage: lab-image/build-offline.sh [--uml] [IMAGE]   Needs root, debootstrap and a running Docker engine.
# --uml builds the User-Mode Linux lab image (default tclab/lab-uml:1): the same packages, plus uml-packages.txt, with
# the UML kernel's modules where its modprobe looks for them.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
uml=0
if [ "${1:-}" = "--uml" ]; then uml=1; shift; fi
if [ "$uml" = 1 ]; then image=${1:-tclab/lab-uml:1}; else image=${1:-tclab/lab-node:1}; fi

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
trap 'rm -rf "$root"' EXIT
lists=("$here/packages.txt")
[ "$uml" = 1 ] && lists+=("$here/uml-packages.txt")
packages=$(cat "${lists[@]}" | grep -v '^#' | paste -sd, -)
debootstrap --variant=minbase --include="$packages" bookworm "$root" "$(mirror)" >/tmp/tclab-debootstrap.log 2>&1 \
  || { tail -n 20 /tmp/tclab-debootstrap.log >&2; exit 1; }
cp "$here/bashrc" "$root/etc/bash.bashrc"
if [ "$uml" = 1 ]; then
  # UML's modprobe looks in /lib/modules/<release>; a link, not a second copy of 105 MB.
  mkdir -p "$root/lib/modules"
  for release in "$root"/usr/lib/uml/modules/*; do ln -s "/usr/lib/uml/modules/${release##*/}" "$root/lib/modules/"; done
fi
rm -rf "$root"/var/lib/apt/lists/* "$root"/var/cache/apt/*.bin "$root"/var/cache/apt/archives/*.deb
tar -C "$root" -c . | docker import --change 'CMD ["sleep", "infinity"]' - "$image" >/dev/null
echo "built $image offline from $(mirror)"
