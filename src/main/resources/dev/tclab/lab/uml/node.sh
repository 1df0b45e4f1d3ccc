# Starts a lab node in a UML lab's kernel (run by the agent, in the kernel's root namespaces):
#   sh -c SCRIPT node NAME TMP_MIB HOME_MIB RUN_MIB [NAME=VALUE ...]
# The node is its own network, mount, PID, UTS and IPC namespaces, held by a process that reaps its orphans. Its /tmp,
# /root and /run are size-capped tmpfs and its /dev holds only the harmless devices and a pty instance of its own (no
# console: that is the app's line to the agent). Its network namespace is named NAME for `ip netns` and nsenter, its
# holder's pid is in /run/tclab/nodes/NAME.pid, and the environment its shells get in NAME.env.
set -eu
node=$1 tmp=$2 home=$3 run=$4
shift 4
dir=/run/tclab/nodes
mkdir -p "$dir" /run/netns
for kv in "$@"; do printf '%s\n' "$kv"; done >"$dir/$node.env"
# The node's first process says when it is set up through a fifo it opened before its /run hid the kernel's.
mkfifo "$dir/$node.ready"
unshare --net --mount --uts --ipc --pid --fork --propagation private sh -c '
  set -e
  exec 3>"$5"
  hostname "$1"
  mount -t proc -o nosuid,nodev,noexec proc /proc
  mount -t sysfs -o ro,nosuid,nodev,noexec sysfs /sys
  mount -t tmpfs -o nosuid,noexec,mode=755,size=64k tmpfs /dev
  mknod -m 666 /dev/null c 1 3; mknod -m 666 /dev/zero c 1 5; mknod -m 666 /dev/full c 1 7
  mknod -m 666 /dev/random c 1 8; mknod -m 666 /dev/urandom c 1 9; mknod -m 666 /dev/tty c 5 0
  mkdir /dev/pts /dev/shm
  mount -t devpts -o newinstance,nosuid,noexec,ptmxmode=0666,mode=620 devpts /dev/pts
  ln -s pts/ptmx /dev/ptmx
  ln -s /proc/self/fd /dev/fd
  ln -s /proc/self/fd/0 /dev/stdin; ln -s /proc/self/fd/1 /dev/stdout; ln -s /proc/self/fd/2 /dev/stderr
  mount -t tmpfs -o nosuid,nodev,noexec,mode=1777,size="$2"m tmpfs /tmp
  mount -t tmpfs -o nosuid,nodev,mode=700,size="$3"m tmpfs /root
  mount -t tmpfs -o nosuid,nodev,noexec,mode=755,size="$4"m tmpfs /run
  mount -t tmpfs -o nosuid,nodev,noexec,size=1m tmpfs /dev/shm
  echo up >&3
  exec 3>&-
  trap "" CHLD   # ignored across exec: the kernel reaps the orphans of the node (pid 1 of its namespace)
  exec sleep infinity
' node "$node" "$tmp" "$home" "$run" "$dir/$node.ready" </dev/null >/dev/null 2>"$dir/$node.err" &
outer=$!
read -r up <"$dir/$node.ready" || true
rm -f "$dir/$node.ready"
# The node's first process is the child unshare forked into the new PID namespace.
holder=$(cat "/proc/$outer/task/$outer/children" 2>/dev/null) || true
if [ "$up" != up ] || [ -z "$holder" ]; then
  echo "node $node did not start: $(cat "$dir/$node.err")" >&2
  exit 1
fi
holder=${holder% }
ip netns attach "$node" "$holder"
echo "$holder" >"$dir/$node.pid"
