package dev.tclab.grading.evaluate;

import java.util.List;

/**
 * Where one graded iperf3 flow went on the node that sent it: the flow as the platform sent it, and each qdisc and
 * class of that node whose byte counter rose by about the flow's bytes while it ran (the counters are read right before
 * and right after the flow: in the flow's own exec on its client, in execs of their own on a reverse flow's server).
 *
 * @param load       the iperf3 measurement's name ({@code up})
 * @param flow       the flow's name under {@code flows}, or {@code ""} for a measurement's one flow
 * @param node       the node that sent it: the client's, or the server's for a reverse flow
 * @param reverse    the server's node sent it ({@code reverse: true}): its packets come from {@code serverPort}
 * @param protocol   {@code tcp} or {@code udp}
 * @param clientPort the client's source port as iperf3 reports it; null when it reports none
 * @param serverPort the port of the platform's one-off server: the flow's destination port
 * @param tos        the TOS byte its packets carried (0 when the check set none)
 * @param bytes      the bytes iperf3 reports for it
 * @param counted    the qdiscs and classes that counted it, device by device in tc's order
 */
public record FlowRoute(
        String load,
        String flow,
        String node,
        boolean reverse,
        String protocol,
        Integer clientPort,
        int serverPort,
        int tos,
        long bytes,
        List<Counted> counted) {

    /**
     * A qdisc or class whose counters rose by about the flow's bytes while it ran.
     *
     * @param what      {@code qdisc} or {@code class}
     * @param id        the qdisc's handle ({@code 1:}) or the class id ({@code 1:20})
     * @param kind      {@code htb}, {@code tbf}, ...
     * @param bytes     how much its byte counter rose while the flow ran
     * @param packets   how much its packet counter rose
     * @param leaf      a class with no child class: where the flow was classified
     * @param byDefault the class its qdisc sends what no filter matches to ({@code htb default 20})
     */
    public record Counted(
            String dev,
            String what,
            String id,
            String kind,
            long bytes,
            long packets,
            boolean leaf,
            boolean byDefault) {

        public static final String QDISC = "qdisc";
        public static final String CLASS = "class";
    }

    /** The leaf classes on {@code dev} that counted the flow. */
    public List<Counted> leafClassesOn(String dev) {
        return counted.stream()
                .filter(c ->
                        c.what().equals(Counted.CLASS) && c.leaf() && c.dev().equals(dev))
                .toList();
    }
}
