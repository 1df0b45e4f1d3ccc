package dev.tclab.runtime.kubernetes;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tclab.lab.TestTopologies;
import dev.tclab.runtime.LabSpec;
import dev.tclab.runtime.topology.Topology;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.SecurityContext;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeMount;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** The generated pod, DaemonSet and NetworkPolicy, field by field: what a cluster will be asked to run. */
class LabObjectsTest {

    private static final Instant STARTED = Instant.parse("2026-12-01T10:00:00Z");
    private static final LabSpec SPEC =
            new LabSpec("ab12cd34ef", TestTopologies.load("two-node"), "learner-1", "two-node");

    private final LabObjects objects = new LabObjects(TestConfig.tclab(
            Map.of("tclab.instance", "tclab-k1", "tclab.lab.memory-mib", "300", "tclab.lab.cpus", "1.5")));

    private Topology.Node node(String name) {
        return SPEC.topology().nodes().get(name);
    }

    @Test
    void shouldNameAndLabelANodePodLikeTheDockerContainers() {
        var pod = objects.nodePod(SPEC, node("client"), "client", Set.of(), STARTED);

        assertThat(pod.getMetadata().getName()).isEqualTo("tclab-ab12cd34ef-client");
        assertThat(pod.getMetadata().getNamespace()).isEqualTo("tclab-labs");
        assertThat(pod.getMetadata().getLabels())
                .containsExactlyInAnyOrderEntriesOf(Map.of(
                        "tclab.app",
                        "tclab",
                        "tclab.instance",
                        "tclab-k1",
                        "tclab.role",
                        "node",
                        "tclab.lab",
                        "ab12cd34ef",
                        "tclab.owner",
                        "learner-1",
                        "tclab.lesson",
                        "two-node",
                        "tclab.node",
                        "client",
                        "tclab.expires",
                        Long.toString(STARTED.plusSeconds(4 * 3600 + 600).getEpochSecond())));
        assertThat(pod.getMetadata().getAnnotations()).containsEntry("tclab.owner", "learner-1");
    }

    @Test
    void shouldEndAPodAtTheLabsMaximumLifetimeAndGrace() {
        PodSpec spec = objects.nodePod(SPEC, node("client"), "client", Set.of(), STARTED)
                .getSpec();

        assertThat(spec.getActiveDeadlineSeconds()).isEqualTo(4 * 3600 + 600);
        assertThat(spec.getRestartPolicy()).isEqualTo("Never");
        assertThat(spec.getHostname()).isEqualTo("client");
        assertThat(spec.getShareProcessNamespace()).isFalse();
        assertThat(spec.getAutomountServiceAccountToken()).isFalse();
        assertThat(spec.getEnableServiceLinks()).isFalse();
        assertThat(spec.getHostNetwork()).isNull();
        assertThat(spec.getHostPID()).isNull();
        assertThat(spec.getSecurityContext().getSeccompProfile().getType()).isEqualTo("RuntimeDefault");
    }

    @Test
    void shouldHardenTheNodeContainerAsOnDocker() {
        PodSpec spec = objects.nodePod(SPEC, node("server"), "client", Set.of(), STARTED)
                .getSpec();
        Container node = spec.getContainers().get(0);

        assertThat(node.getName()).isEqualTo("node");
        assertThat(node.getImage()).isEqualTo("tclab/lab-node:1");
        assertTrafficControlOnly(node.getSecurityContext());
        assertThat(node.getResources().getLimits())
                .isEqualTo(Map.of("memory", new Quantity("300Mi"), "cpu", new Quantity("1500m")));
        assertThat(node.getResources().getRequests())
                .isEqualTo(node.getResources().getLimits());
        assertThat(mounts(node)).isEqualTo(Map.of("/tmp", "node-tmp", "/root", "node-home", "/run", "node-run"));
        assertThat(node.getCommand()).isEqualTo(LabObjects.KEEP_ALIVE);
    }

    @Test
    void shouldGiveTheSidecarItsOwnSmallReadOnlyContainerInThePod() {
        PodSpec spec = objects.nodePod(SPEC, node("client"), "client", Set.of(), STARTED)
                .getSpec();
        Container sidecar = spec.getContainers().get(1);

        assertThat(spec.getContainers()).hasSize(2);
        assertThat(sidecar.getName()).isEqualTo("measure");
        assertThat(sidecar.getImage()).isEqualTo("tclab/lab-node:1");
        assertTrafficControlOnly(sidecar.getSecurityContext());
        assertThat(sidecar.getResources().getLimits())
                .isEqualTo(Map.of("memory", new Quantity("64Mi"), "cpu", new Quantity("500m")));
        assertThat(mounts(sidecar)).isEqualTo(Map.of("/tmp", "measure-tmp", "/run", "measure-run"));
    }

    @Test
    void shouldCapEveryWritablePlaceAsAMemoryBackedEmptyDir() {
        List<Volume> volumes = objects.nodePod(SPEC, node("client"), "client", Set.of(), STARTED)
                .getSpec()
                .getVolumes();

        assertThat(volumes)
                .allSatisfy(v -> assertThat(v.getEmptyDir().getMedium()).isEqualTo("Memory"));
        assertThat(volumes.stream()
                        .collect(Collectors.toMap(
                                Volume::getName, v -> v.getEmptyDir().getSizeLimit())))
                .isEqualTo(Map.of(
                        "node-tmp",
                        new Quantity("64Mi"),
                        "node-home",
                        new Quantity("16Mi"),
                        "node-run",
                        new Quantity("8Mi"),
                        "measure-tmp",
                        new Quantity("4Mi"),
                        "measure-run",
                        new Quantity("4Mi")));
    }

    @Test
    void shouldScheduleTheFirstNodeFreelyAndTheOthersOnItsClusterNode() {
        var anchor = objects.nodePod(SPEC, node("client"), "client", Set.of(), STARTED)
                .getSpec();
        var follower = objects.nodePod(SPEC, node("server"), "client", Set.of(), STARTED)
                .getSpec();

        assertThat(anchor.getAffinity()).isNull();
        var terms = follower.getAffinity().getPodAffinity().getRequiredDuringSchedulingIgnoredDuringExecution();
        assertThat(terms).hasSize(1);
        assertThat(terms.get(0).getTopologyKey()).isEqualTo("kubernetes.io/hostname");
        assertThat(terms.get(0).getLabelSelector().getMatchLabels())
                .isEqualTo(Map.of(
                        "tclab.app",
                        "tclab",
                        "tclab.instance",
                        "tclab-k1",
                        "tclab.lab",
                        "ab12cd34ef",
                        "tclab.node",
                        "client"));
        assertThat(follower.getAffinity().getPodAntiAffinity()).isNull();
    }

    @Test
    void shouldSendALabNeedingKernelFeaturesOnlyToNodesLabelledWithThem() {
        var spec = objects.nodePod(SPEC, node("client"), "client", Set.of("qdisc:cake", "link:ifb"), STARTED)
                .getSpec();

        assertThat(spec.getNodeSelector())
                .isEqualTo(Map.of("tclab.dev/qdisc-cake", "true", "tclab.dev/link-ifb", "true"));
        assertThat(objects.nodePod(SPEC, node("client"), "client", Set.of(), STARTED)
                        .getSpec()
                        .getNodeSelector())
                .isNull();
    }

    @Test
    void shouldCarryTheTopologysEnvironmentAndNamespacedSysctls() {
        Topology.Node router = new Topology.Node(
                "gw", null, false, Map.of("ROLE", "gw"), Map.of("net.ipv4.ip_forward", "1"), List.of(), List.of());

        var pod = objects.nodePod(SPEC, router, "client", Set.of(), STARTED);

        assertThat(pod.getSpec().getSecurityContext().getSysctls())
                .singleElement()
                .satisfies(s -> assertThat(s.getName() + "=" + s.getValue()).isEqualTo("net.ipv4.ip_forward=1"));
        assertThat(pod.getSpec().getContainers().get(0).getEnv())
                .singleElement()
                .satisfies(e -> assertThat(e.getName() + "=" + e.getValue()).isEqualTo("ROLE=gw"));
    }

    @Test
    void shouldHashAnOwnerThatIsNoValidLabelValueAndKeepItAsAnAnnotation() {
        String owner = "learner/with spaces and a very long name that goes past sixty-three characters";
        var pod = objects.nodePod(
                new LabSpec("ab12cd34ef", SPEC.topology(), owner, "two-node"),
                node("client"),
                "client",
                Set.of(),
                STARTED);

        assertThat(pod.getMetadata().getLabels().get("tclab.owner")).matches("h-[0-9a-f]{32}");
        assertThat(pod.getMetadata().getAnnotations()).containsEntry("tclab.owner", owner);
    }

    @Test
    void shouldGiveTheWiringHelperTheHostPidNamespaceAndNetAdminOnly() {
        var daemonSet = objects.wiringHelper("tclab-wiring", "tclab/lab-node:1");
        var spec = daemonSet.getSpec().getTemplate().getSpec();
        Container helper = spec.getContainers().get(0);

        assertThat(daemonSet.getMetadata().getName()).isEqualTo("tclab-wiring");
        assertThat(daemonSet.getMetadata().getNamespace()).isEqualTo("tclab-labs");
        assertThat(daemonSet.getSpec().getSelector().getMatchLabels())
                .isEqualTo(daemonSet.getSpec().getTemplate().getMetadata().getLabels())
                .isEqualTo(Map.of("tclab.app", "tclab", "tclab.role", "wiring", "tclab.helper", "tclab-wiring"));
        assertThat(spec.getHostPID()).isTrue();
        assertThat(spec.getHostNetwork()).isFalse();
        assertThat(spec.getHostIPC()).isNull();
        assertThat(spec.getAutomountServiceAccountToken()).isFalse();
        assertThat(spec.getVolumes()).isEmpty();
        assertThat(spec.getContainers()).hasSize(1);
        assertThat(helper.getName()).isEqualTo("wiring");
        assertThat(helper.getSecurityContext().getPrivileged()).isFalse();
        assertThat(helper.getSecurityContext().getAllowPrivilegeEscalation()).isFalse();
        assertThat(helper.getSecurityContext().getReadOnlyRootFilesystem()).isTrue();
        assertThat(helper.getSecurityContext().getCapabilities().getAdd()).containsExactly("NET_ADMIN");
        assertThat(helper.getSecurityContext().getCapabilities().getDrop()).containsExactly("ALL");
        assertThat(helper.getResources().getLimits()).containsEntry("memory", new Quantity("64Mi"));
    }

    @Test
    void shouldDenyAllIngressAndEgressOfLabPods() {
        var policy = objects.isolation();

        assertThat(policy.getMetadata().getName()).isEqualTo("tclab-labs-isolated");
        assertThat(policy.getMetadata().getNamespace()).isEqualTo("tclab-labs");
        assertThat(policy.getSpec().getPodSelector().getMatchLabels()).isEqualTo(Map.of("tclab.app", "tclab"));
        assertThat(policy.getSpec().getPodSelector().getMatchExpressions())
                .singleElement()
                .satisfies(e -> {
                    assertThat(e.getKey()).isEqualTo("tclab.role");
                    assertThat(e.getOperator()).isEqualTo("In");
                    assertThat(e.getValues()).containsExactlyInAnyOrder("node", "uml");
                });
        assertThat(policy.getSpec().getPolicyTypes()).containsExactlyInAnyOrder("Ingress", "Egress");
        assertThat(policy.getSpec().getIngress()).isEmpty();
        assertThat(policy.getSpec().getEgress()).isEmpty();
        assertThat(objects.nodePod(SPEC, node("client"), "client", Set.of(), STARTED)
                        .getMetadata()
                        .getLabels())
                .as("every lab pod carries what it selects")
                .containsAllEntriesOf(policy.getSpec().getPodSelector().getMatchLabels())
                .containsEntry("tclab.role", "node");
        assertThat(objects.umlPod(SPEC, STARTED).getMetadata().getLabels())
                .as("a User-Mode Linux lab's pod too")
                .containsAllEntriesOf(policy.getSpec().getPodSelector().getMatchLabels())
                .containsEntry("tclab.role", "uml");
    }

    private static void assertTrafficControlOnly(SecurityContext context) {
        assertThat(context.getCapabilities().getAdd()).containsExactly("NET_ADMIN", "NET_RAW");
        assertThat(context.getCapabilities().getDrop()).containsExactly("ALL");
        assertThat(context.getPrivileged()).isFalse();
        assertThat(context.getAllowPrivilegeEscalation()).isFalse();
        assertThat(context.getReadOnlyRootFilesystem()).isTrue();
        assertThat(context.getRunAsNonRoot())
                .as("learners are root: tc needs it")
                .isNull();
    }

    private static Map<String, String> mounts(Container container) {
        return container.getVolumeMounts().stream()
                .collect(Collectors.toMap(VolumeMount::getMountPath, VolumeMount::getName));
    }
}
