package dev.tclab.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tclab.lab.FakeLabRuntime;
import dev.tclab.lab.TestTopologies;
import dev.tclab.runtime.topology.Topology;
import dev.tclab.runtime.topology.TopologySource;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

class KernelChoiceTest {

    private final FakeLabRuntime host = new FakeLabRuntime();
    private final FakeLabRuntime uml = new FakeLabRuntime();
    private final KernelChoice choice = new KernelChoice(host, () -> uml, topologies());

    private static TopologySource topologies() {
        return new TopologySource() {
            @Override
            public Optional<Topology> topologyFor(String lesson) {
                return Optional.empty();
            }

            @Override
            public Set<String> kernelFeaturesFor(String lesson) {
                return lesson.equals("cake-lesson") ? Set.of("qdisc:cake") : Set.of("qdisc:tbf");
            }

            @Override
            public Set<String> kernelFeaturesUsedBy(String lesson) {
                return lesson.equals("tbf-or-cake-lesson")
                        ? Set.of("qdisc:tbf", "qdisc:cake")
                        : kernelFeaturesFor(lesson);
            }
        };
    }

    private static LabSpec spec(String id, Topology.Kernel kernel, String lesson) {
        Topology plain = TestTopologies.load("two-node");
        return new LabSpec(
                id, new Topology(plain.name(), plain.nodes(), plain.links(), plain.probes(), kernel), "me", lesson);
    }

    @Test
    void shouldStartEachLabOnTheKernelItsLabYmlAsksFor() throws Exception {
        choice.start(spec("h", Topology.Kernel.HOST, "cake-lesson"), (s, d) -> {});
        choice.start(spec("u", Topology.Kernel.UML, "tbf-lesson"), (s, d) -> {});

        assertThat(host.running).containsOnlyKeys("h");
        assertThat(uml.running).containsOnlyKeys("u");
    }

    @Test
    void shouldAskTheUmlRuntimeForTheSilentKernelsOfItsRunningLabsOnly() throws Exception {
        choice.start(spec("h", Topology.Kernel.HOST, "tbf-lesson"), (s, d) -> {});
        choice.start(spec("u", Topology.Kernel.UML, "tbf-lesson"), (s, d) -> {});
        choice.start(spec("v", Topology.Kernel.UML, "tbf-lesson"), (s, d) -> {});
        host.silent.add("h");
        uml.silent.addAll(Set.of("u", "v"));

        assertThat(choice.silentKernels(Set.of("h", "u"))).containsExactly("u");
        assertThat(choice.silentKernels(Set.of("h"))).as("no lab in UML").isEmpty();
    }

    @Test
    void shouldSayWhichLabsRunInAKernelOfTheirOwn() throws Exception {
        uml.ownKernel = true;
        choice.start(spec("h", Topology.Kernel.HOST, "tbf-lesson"), (s, d) -> {});
        choice.start(spec("u", Topology.Kernel.UML, "tbf-lesson"), (s, d) -> {});

        assertThat(choice.runsOwnKernel("h")).isFalse();
        assertThat(choice.runsOwnKernel("u")).isTrue();
    }

    @Test
    void shouldPutAnAutoLabInUmlOnlyWhenTheHostLacksWhatTheLessonRequires() throws Exception {
        choice.start(spec("needs-cake", Topology.Kernel.AUTO, "cake-lesson"), (s, d) -> {});
        choice.start(spec("needs-tbf", Topology.Kernel.AUTO, "tbf-lesson"), (s, d) -> {});

        assertThat(uml.running).containsOnlyKeys("needs-cake");
        assertThat(host.running).containsOnlyKeys("needs-tbf");
    }

    @Test
    void shouldPutAnAutoLabInUmlWhenTheHostLacksAFeatureItsChecksAndSolutionsChooseOn() throws Exception {
        choice.start(spec("cake-not-fallback", Topology.Kernel.AUTO, "tbf-or-cake-lesson"), (s, d) -> {});
        host.kernel = new KernelCapabilities(Map.of("qdisc:tbf", true, "qdisc:cake", true), "with cake");
        KernelChoice onAHostWithCake = new KernelChoice(host, () -> uml, topologies());
        onAHostWithCake.start(spec("cake-on-host", Topology.Kernel.AUTO, "tbf-or-cake-lesson"), (s, d) -> {});

        assertThat(uml.running).containsOnlyKeys("cake-not-fallback");
        assertThat(host.running).containsOnlyKeys("cake-on-host");
    }

    @Test
    void shouldShowALessonForTheKernelItsLabRunsOn() throws Exception {
        uml.kernel = new KernelCapabilities(Map.of("qdisc:tbf", true, "qdisc:cake", true), "6.1.0-uml");

        assertThat(choice.ownKernel(
                        spec("a", Topology.Kernel.AUTO, "tbf-or-cake-lesson").topology(), "tbf-or-cake-lesson"))
                .contains(uml.kernel);
        assertThat(choice.ownKernel(spec("u", Topology.Kernel.UML, "tbf-lesson").topology(), "tbf-lesson"))
                .contains(uml.kernel);
        assertThat(choice.ownKernel(
                        spec("h", Topology.Kernel.HOST, "cake-lesson").topology(), "cake-lesson"))
                .isEmpty();
        assertThat(choice.ownKernel(
                        spec("t", Topology.Kernel.AUTO, "tbf-lesson").topology(), "tbf-lesson"))
                .isEmpty();
    }

    @Test
    void shouldForgetLabsRemovedAsExpiredAndNeverRememberLabsThatAreNowhere() throws Exception {
        choice.start(spec("old", Topology.Kernel.UML, "tbf-lesson"), (s, d) -> {});
        choice.start(spec("young", Topology.Kernel.HOST, "tbf-lesson"), (s, d) -> {});
        uml.expires.put("old", Instant.now().minusSeconds(1));

        assertThat(choice.removeExpiredLabs(Instant.now())).containsExactly("old");
        assertThat(choice.status("gone-long-ago")).isEmpty();

        assertThat(choice.knownLabs()).containsExactly("young");
    }

    @Test
    void shouldSendEveryLaterCallToTheLabsRuntimeAndFindLabsItDidNotStart() throws Exception {
        choice.start(spec("u", Topology.Kernel.UML, "tbf-lesson"), (s, d) -> {});
        uml.running.put("adopted", spec("adopted", Topology.Kernel.UML, "tbf-lesson"));

        choice.exec("u", "client", List.of("true"), Duration.ofSeconds(1));
        choice.exec("adopted", "client", List.of("true"), Duration.ofSeconds(1));

        assertThat(uml.execLog).hasSize(2);
        assertThat(host.execLog).isEmpty();
        assertThat(choice.status("adopted")).hasSize(2);
        assertThat(choice.labsOnEngine()).contains("u", "adopted");
        choice.stop("u");
        assertThat(uml.running).containsOnlyKeys("adopted");
    }

    @Test
    void shouldAnswerForTheHostsKernel() throws Exception {
        assertThat(choice.probeKernel()).isEqualTo(host.kernel);
        assertThat(Map.of("cake", choice.probeKernel().supports("qdisc:cake"))).containsEntry("cake", false);
    }
}
