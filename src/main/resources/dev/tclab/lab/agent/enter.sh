# Runs a command in a lab node as its learner (run by the agent, in the kernel's root namespaces):
#   sh -c SCRIPT enter NAME COMMAND...
# Every namespace of the node, root with NET_ADMIN and NET_RAW only (no other capability, in the bounding set too, and
# no new privileges), the node's environment, in /root.
node=$1
shift
dir=/run/tclab/nodes
holder=$(cat "$dir/$node.pid" 2>/dev/null) || { echo "no node $node in this lab" >&2; exit 125; }
exec 3<"$dir/$node.env"
# The kernel's out-of-memory killer may pick the learner's processes (the agent and init are never picked).
echo 0 >/proc/self/oom_score_adj
exec nsenter -t "$holder" -a -- setpriv --bounding-set=-all,+net_admin,+net_raw --inh-caps=-all --no-new-privs -- \
  env -i HOME=/root PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin TERM=xterm-256color LANG=C.UTF-8 \
  sh -c 'while IFS= read -r kv <&3; do export "$kv"; done; exec 3<&-; cd; exec "$@"' sh "$@"
