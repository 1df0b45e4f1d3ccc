#!/usr/bin/env bash
# Puts the User-Mode Linux kernel and its modules into the UML lab image's root ROOT: Debian's user-mode-linux
# 7.2um1 (from the release after trixie), which runs the lab's processes under seccomp instead of ptrace: a quarter
# of 6.1's host CPU per shaped flow (docs/BENCHMARKS.md, "UML 7.2"). It needs glibc >= 2.38 and the lab's userland
# stays bookworm's (every lesson's tools and figures as they were), so the kernel gets trixie's loader and C library
# in a folder of its own (its interpreter and rpath set with patchelf; a `ld.so --library-path` start does not work:
# the kernel re-executes /proc/self/exe).
# When the pinned version cannot be had (the archive moved on), bookworm's user-mode-linux 6.1 goes in instead, with
# a warning: labs then run in ptrace mode, slower, and /api/system says so.
# Usage: lab-image/uml-kernel.sh ROOT     (root; needs apt-get, dpkg-deb and patchelf; uses this machine's Debian
#                                          mirror, as build-offline.sh does)
set -euo pipefail
root=${1:?usage: uml-kernel.sh ROOT}
uml_version=7.2um1
uml_suite=forky
libc_suite=trixie
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=lab-image/debian-mirror.sh
. "$here/debian-mirror.sh"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mirror=$(debian_mirror)
mkdir -p "$work/lists/partial" "$work/cache/archives/partial" "$work/debs"
printf 'deb %s %s main\n' "$mirror" "$uml_suite" "$mirror" "$libc_suite" "$mirror" bookworm >"$work/sources.list"
apt_private=(-o Dir::Etc::SourceList="$work/sources.list" -o Dir::Etc::SourceParts=/dev/null
             -o Dir::State::Lists="$work/lists" -o Dir::Cache="$work/cache" -o Debug::NoLocking=1
             -o APT::Sandbox::User=root -q)
apt-get "${apt_private[@]}" update >"$work/update.log" 2>&1 || { tail -n 5 "$work/update.log" >&2; exit 1; }

install_deb() {  # extracts the .deb in $work/debs matching $1 into ROOT
  dpkg-deb -x "$(ls "$work"/debs/"$1"_*.deb)" "$root"
}

cd "$work/debs"
if apt-get "${apt_private[@]}" download "user-mode-linux=$uml_version" "libc6/$libc_suite" >"$work/download.log" 2>&1; then
  command -v patchelf >/dev/null || { echo "patchelf is missing: apt-get install patchelf" >&2; exit 1; }
  install_deb user-mode-linux
  mkdir -p "$work/libc" "$root/usr/lib/uml/glibc"
  dpkg-deb -x "$(ls "$work"/debs/libc6_*.deb)" "$work/libc"
  cp -L "$work/libc/usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2" "$work/libc/usr/lib/x86_64-linux-gnu/libc.so.6" \
     "$root/usr/lib/uml/glibc/"
  patchelf --set-interpreter /usr/lib/uml/glibc/ld-linux-x86-64.so.2 --set-rpath /usr/lib/uml/glibc \
    "$root/usr/bin/linux.uml"
  echo "UML kernel: user-mode-linux $uml_version ($uml_suite), trixie's loader and C library beside it"
else
  tail -n 3 "$work/download.log" >&2
  echo "WARNING: user-mode-linux $uml_version cannot be had from $uml_suite; bookworm's user-mode-linux (6.1," \
       "ptrace mode, about four times the host CPU per lab) goes in instead. Update uml_version in $0." >&2
  apt-get "${apt_private[@]}" download user-mode-linux/bookworm >"$work/download.log" 2>&1 \
    || { tail -n 5 "$work/download.log" >&2; exit 1; }
  install_deb user-mode-linux
fi
# UML's modprobe looks in /lib/modules/<release>; a link, not a second copy of the modules.
mkdir -p "$root/lib/modules"
for release in "$root"/usr/lib/uml/modules/*; do ln -sfn "/usr/lib/uml/modules/${release##*/}" "$root/lib/modules/"; done
