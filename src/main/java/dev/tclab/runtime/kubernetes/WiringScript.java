package dev.tclab.runtime.kubernetes;

import dev.tclab.runtime.KernelProbe;
import dev.tclab.runtime.LabScripts;
import dev.tclab.runtime.topology.Topology;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * What the wiring helper pod runs. It finds each lab pod's network namespace by a process of the pod (any of them:
 * they all share the pod's network namespace), whose cgroup path names the pod's UID, with dashes under cgroupfs
 * ({@code /kubepods/pod1b2c-...}) and underscores under systemd ({@code kubepods-pod1b2c_....slice}), then runs the
 * same veth script as the Docker runtime's helper with those pids.
 */
final class WiringScript {

    /** The helper container's name in the DaemonSet's pod. */
    static final String CONTAINER = "wiring";

    /** Prints the pid of a process in the pod whose UID (dashed, underscored) is given, or fails. */
    private static final String PID_OF = """
            pid_of() {
              for c in /proc/[0-9]*/cgroup; do
                if grep -qs -e "pod$1" -e "pod$2" "$c"; then p=${c#/proc/}; echo "${p%/cgroup}"; return 0; fi
              done
              return 1
            }
            """;

    /**
     * Sets every interface of the pod but lo down and renames it {@code cluster0}, {@code cluster1}...: the CNI's
     * interface is the lab's only way out of its links, and its name (eth0) is free for the topology's own.
     */
    static final String DETACH_CLUSTER_INTERFACE = """
            n=0
            for i in $(ls /sys/class/net); do
              [ "$i" = lo ] && continue
              case "$i" in cluster*) continue ;; esac
              ip link set "$i" down && ip link set "$i" name "cluster$n" || exit 1
              n=$((n+1))
            done
            """;

    /** The kernel probe, after removing what an earlier probe in the same (long-lived) helper left behind. */
    static final String PROBE = "ip link del tv0 2>/dev/null; ip link del tifb 2>/dev/null\n" + KernelProbe.SCRIPT;

    private WiringScript() {}

    /** @param podUids each lab node's pod UID */
    static String links(List<Topology.Link> links, Map<String, String> podUids) {
        StringBuilder script = new StringBuilder(PID_OF);
        Map<String, String> namespaceOf = new HashMap<>();
        int index = 0;
        for (Map.Entry<String, String> pod : podUids.entrySet()) {
            String variable = "p" + index++;
            String uid = pod.getValue();
            script.append(variable)
                    .append("=$(pid_of ")
                    .append(uid)
                    .append(' ')
                    .append(uid.replace('-', '_'))
                    .append(") || { echo \"no process of node ")
                    .append(pod.getKey())
                    .append("'s pod (uid ")
                    .append(uid)
                    .append(") on this cluster node\" >&2; exit 1; }\n");
            namespaceOf.put(pod.getKey(), "$" + variable);
        }
        return script + LabScripts.vethLinks(links, namespaceOf);
    }
}
