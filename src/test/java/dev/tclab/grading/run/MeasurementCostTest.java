package dev.tclab.grading.run;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.tclab.grading.spec.CheckSpec;
import dev.tclab.grading.spec.CheckSpecException;
import dev.tclab.grading.spec.CheckSpecParser;
import java.util.List;
import java.util.OptionalDouble;
import org.junit.jupiter.api.Test;

/** A flow is capped only where the check's own expectation bounds its goodput above, and costs by that cap. */
class MeasurementCostTest {

    private static final double SLOT = 1e9;

    private static MeasurementCost cost(String iperf3, String expect) throws CheckSpecException {
        CheckSpec spec = CheckSpecParser.parse(
                "t.md",
                "measure:\n  - { name: up, node: client, iperf3: " + iperf3
                        + " }\n  - { name: q, node: client, qdisc: { dev: eth1 } }\nexpect:\n" + expect,
                1);
        return MeasurementCost.of(spec, spec.measurements().get(0), SLOT);
    }

    private static final String SERVER = "{ server: 10.0.0.2 }";

    @Test
    void shouldCapAtTwiceTheHighestPassingGoodput() throws Exception {
        assertEquals(
                new MeasurementCost(5, OptionalDouble.of(22.4e6)),
                cost(SERVER, "  - { value: up.mbps, near: 10mbit, within: 12% }\n"));
        assertEquals(
                OptionalDouble.of(2e6),
                cost(SERVER, "  - { value: up.mbps, below: 1mbit }\n").capBitsPerSecond());
        assertEquals(
                OptionalDouble.of(24e6),
                cost(SERVER, "  - { value: up.bits_per_second, between: [8mbit, 12mbit] }\n")
                        .capBitsPerSecond());
        assertEquals(
                OptionalDouble.of(20e6),
                cost(SERVER, "  - { value: up.mbps, below: 10 }\n").capBitsPerSecond(),
                "a number without a unit is in the field's unit (Mbit/s)");
        assertEquals(
                new MeasurementCost(40, OptionalDouble.of(400e6)),
                cost(SERVER, "  - { value: up.mbps, below: 200mbit }\n"),
                "a faster cap costs its share of a slot");
    }

    @Test
    void shouldTakeTheLowestOfSeveralBoundsIncludingAllOfMembers() throws Exception {
        assertEquals(OptionalDouble.of(10e6), cost(SERVER, """
                  - { value: up.mbps, below: 50mbit }
                  - all_of:
                      - { value: up.mbps, below: 5mbit }
                      - { value: q.root.kind, equals: tbf }
                """).capBitsPerSecond());
    }

    @Test
    void shouldRunUncappedWhenNoPassingOutcomeIsBoundedAbove() throws Exception {
        for (String expect : List.of(
                "  - { value: up.mbps, above: 1000mbit }\n",
                "  - { value: q.root.kind, equals: tbf }\n",
                "  - { value: up.retransmits, below: 10 }\n",
                "  - { value: up.mbps, ratio_to: baseline.native, below: 0.5 }\n",
                "  - any_of:\n      - { value: up.mbps, below: 5mbit }\n      - { value: q.root.kind, equals: tbf }\n")) {
            assertEquals(MeasurementCost.FULL, cost(SERVER, expect), expect);
        }
    }

    @Test
    void shouldCostAUdpFlowByItsOwnBitrateWithoutAddingACap() throws Exception {
        assertEquals(
                new MeasurementCost(5, OptionalDouble.empty()),
                cost("{ server: 10.0.0.2, udp: true, bitrate: 5mbit }", "  - { value: up.lost_percent, below: 1 }\n"));
        assertEquals(
                new MeasurementCost(50, OptionalDouble.empty()),
                cost(
                        "{ server: 10.0.0.2, udp: true, bitrate: 500mbit }",
                        "  - { value: up.lost_percent, below: 1 }\n"));
    }

    @Test
    void shouldChargeAtLeastAQuarterSlotWithTheSameCapInAKernelOfItsOwn() throws Exception {
        MeasurementCost shaped = cost(SERVER, "  - { value: up.mbps, near: 10mbit, within: 12% }\n");
        assertEquals(new MeasurementCost(25, OptionalDouble.of(22.4e6)), shaped.inOwnKernel());
        assertEquals(MeasurementCost.FULL, MeasurementCost.FULL.inOwnKernel());
    }

    @Test
    void shouldAddTheCapToTheClientsCommandLine() throws Exception {
        assertEquals(
                List.of("iperf3", "-c", "10.0.0.2", "-b", "22400000"),
                cost(SERVER, "  - { value: up.mbps, near: 10mbit, within: 12% }\n")
                        .applyTo(List.of("iperf3", "-c", "10.0.0.2")));
        assertEquals(List.of("iperf3"), MeasurementCost.FULL.applyTo(List.of("iperf3")));
    }
}
