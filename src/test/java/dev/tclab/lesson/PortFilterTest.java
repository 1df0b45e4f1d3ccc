package dev.tclab.lesson;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Optional;
import org.junit.jupiter.api.Test;

/** What {@link PortFilter} and {@link LabIperfServers} read from a lesson's commands. */
class PortFilterTest {

    @Test
    void shouldReadTheU32AndFlowerPortSelectors() {
        assertEquals(
                Optional.of(new PortFilter("dport 5201", 5201)),
                PortFilter.in("tc filter add dev eth1 parent 1: protocol ip prio 1 u32 match ip dport 5201 0xffff"
                        + " flowid 1:10"));
        assertEquals(
                Optional.of(new PortFilter("tcp src 0x138a", 5002)),
                PortFilter.in("tc filter replace dev eth1 parent 1: u32 match tcp src 0x138a 0xffff classid 1:20"));
        assertEquals(
                Optional.of(new PortFilter("src_port 6000", 6000)),
                PortFilter.in(
                        "tc filter add dev eth1 ingress protocol ip flower ip_proto tcp src_port 6000 action drop"));
    }

    @Test
    void shouldNotTakeOtherFiltersOrCommandsForPortFilters() {
        assertEquals(
                Optional.empty(),
                PortFilter.in("tc filter add dev eth1 parent 1: u32 match ip tos 0x10 0xfc flowid 1:10"));
        assertEquals(
                Optional.empty(),
                PortFilter.in("tc filter add dev eth1 parent 1: u32 match ip dport 0 0x0000 flowid 1:10"),
                "a mask of 0 matches every port");
        assertEquals(Optional.empty(), PortFilter.in("tc filter show dev eth1 u32 match ip dport 5201 0xffff"));
        assertEquals(Optional.empty(), PortFilter.in("iperf3 -c 10.0.0.2 -p 5201"));
    }

    @Test
    void shouldReadThePortALabServerListensOn() {
        assertEquals(Optional.of(5201), LabIperfServers.listening("iperf3 -s -D"));
        assertEquals(Optional.of(5201), LabIperfServers.listening("iperf3 -sD"));
        assertEquals(Optional.of(5202), LabIperfServers.listening("iperf3 -s -D -p 5202"));
        assertEquals(Optional.of(6000), LabIperfServers.listening("iperf3 --server --daemon --port=6000"));
        assertEquals(Optional.empty(), LabIperfServers.listening("iperf3 -c 10.0.0.2 -t 3"));
        assertEquals(Optional.empty(), LabIperfServers.listening("ip addr add 10.0.0.2/24 dev eth1"));
    }
}
