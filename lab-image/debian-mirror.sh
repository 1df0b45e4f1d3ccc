# Sourced by the image scripts: debian_mirror prints the Debian mirror this machine's apt already uses (deb822
# .sources files or a classic sources.list), so that no mirror's name is written into the repository.
debian_mirror() {
  local uri
  uri=$(grep -hs '^URIs:' /etc/apt/sources.list.d/*.sources | awk '{print $2}' | grep -v -- '-security' | head -n1 || true)
  [ -n "$uri" ] || uri=$(grep -hs '^deb ' /etc/apt/sources.list /etc/apt/sources.list.d/*.list \
                         | awk '{print $2}' | grep -v -- '-security' | head -n1 || true)
  [ -n "$uri" ] || { echo "no Debian mirror found in /etc/apt" >&2; return 1; }
  echo "$uri"
}
