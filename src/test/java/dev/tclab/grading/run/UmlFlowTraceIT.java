package dev.tclab.grading.run;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tclab.grading.spec.Iperf3Measurement;
import dev.tclab.runtime.ExecResult;
import dev.tclab.runtime.LabRuntime;
import dev.tclab.testing.RunsAlone;
import dev.tclab.web.LearnerLabTest;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The read that tells where a flow went, run as checks run it in a lab with a kernel of its own (User-Mode Linux):
 * it must list the node's own devices and their classes. It listed only lo there (it took the devices from
 * /sys/class/net, which the platform's reads see for the kernel's root namespace), so a UML lesson's failed class
 * expectation could not say which class the flow entered.
 */
@QuarkusTest
@RunsAlone(value = RunsAlone.Group.MEASUREMENTS, hold = RunsAlone.Hold.SHARED)
class UmlFlowTraceIT extends LearnerLabTest {

    private static final Iperf3Measurement.Flow UPLOAD = new Iperf3Measurement.Flow(
            "", "client", "10.9.0.2", null, 1, false, false, null, null, Iperf3Measurement.Congestion.CUBIC);

    @Inject
    LabRuntime runtime;

    UmlFlowTraceIT() {
        super("uml-test", Duration.ofSeconds(180));
    }

    @Test
    void theReadListsTheNodesOwnDevicesAndTheirClasses() throws Exception {
        ExecResult shaped = runtime.exec(
                labId,
                "client",
                List.of(
                        "sh",
                        "-c",
                        "tc qdisc add dev eth1 root handle 1: htb default 20"
                                + " && tc class add dev eth1 parent 1: classid 1:20 htb rate 5mbit"),
                Duration.ofSeconds(30));
        assertThat(shaped.ok()).as(shaped.stderr()).isTrue();

        List<ExecResult> read =
                runtime.execAll(labId, "client", FlowTrace.of(UPLOAD).readsOnClient());

        assertThat(read).hasSize(1);
        Map<String, String> sections = FlowTrace.sections(read.get(0).stdout());
        assertThat(sections).containsKeys("@@tclab-qdiscs", "@@tclab-dev lo", "@@tclab-dev eth1");
        assertThat(sections.get("@@tclab-dev eth1")).contains("class htb 1:20 root");
    }
}
