package dev.tclab.runtime;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The shell script that tries each traffic-control feature once in a throwaway container (on a veth pair and an
 * ifb, since this kind of kernel cannot make dummy devices), and the reader of its "feature yes|no" lines. Every
 * runtime runs the same script: Docker in a throwaway container, Kubernetes in each node's wiring helper.
 */
public final class KernelProbe {

    public static final String SCRIPT = """
            t() { if eval "$2" >/dev/null 2>&1; then echo "$1 yes"; else echo "$1 no"; fi; }
            ip link set lo up
            t link:veth 'ip link add tv0 type veth peer name tv1'
            ip link set tv0 up; ip link set tv1 up
            t link:ifb 'ip link add tifb type ifb'
            for q in 'tbf rate 1mbit burst 10kb latency 50ms' 'htb default 1' 'sfq' 'fq_codel' 'cake bandwidth 1mbit' \
                     'netem delay 1ms' 'fq' 'codel' 'pie' 'hfsc default 1' 'prio' 'pfifo_fast' \
                     'red limit 100000 avpkt 1000 burst 20 min 10000 max 30000 bandwidth 1mbit probability 0.1'; do
              t "qdisc:${q%% *}" "tc qdisc add dev tv0 root $q && tc qdisc del dev tv0 root"
            done
            t qdisc:ingress 'tc qdisc add dev tv0 handle ffff: ingress'
            t qdisc:clsact 'tc qdisc add dev tv1 clsact'
            t classifier:u32 'tc filter add dev tv0 parent ffff: protocol all prio 1 u32 match u32 0 0 flowid 1:1'
            t classifier:matchall 'tc filter add dev tv0 parent ffff: protocol all prio 2 matchall flowid 1:1'
            t classifier:bpf "tc filter add dev tv0 parent ffff: protocol all prio 3 bpf bytecode '1,6 0 0 4294967295,' flowid 1:1"
            t classifier:flower 'tc filter add dev tv0 parent ffff: protocol ip prio 4 flower flowid 1:1'
            t action:gact 'tc filter add dev tv0 parent ffff: protocol all prio 7 u32 match u32 0 0 action pass'
            t action:mirred 'tc filter add dev tv0 parent ffff: protocol all prio 5 u32 match u32 0 0 action mirred egress redirect dev tv1'
            t action:police 'tc filter add dev tv0 parent ffff: protocol all prio 6 u32 match u32 0 0 police rate 1mbit burst 10k drop'
            echo "kernel $(uname -r)"
            """;

    private KernelProbe() {}

    public static KernelCapabilities read(ExecResult result) {
        Map<String, Boolean> features = new LinkedHashMap<>();
        String kernel = "unknown";
        for (String line : result.stdout().split("\n")) {
            String[] parts = line.trim().split(" ", 2);
            if (parts.length != 2) {
                continue;
            }
            if (parts[0].equals("kernel")) {
                kernel = parts[1];
            } else {
                features.put(parts[0], parts[1].equals("yes"));
            }
        }
        return new KernelCapabilities(features, kernel);
    }
}
