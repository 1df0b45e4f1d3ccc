package dev.tclab.runtime.kubernetes;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tclab.lab.TestTopologies;
import dev.tclab.runtime.LabSpec;
import dev.tclab.runtime.agent.SidecarAgent;
import dev.tclab.runtime.agent.UmlScripts;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.SecurityContext;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeMount;
import java.time.Instant;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * A User-Mode Linux lab's pod, field by field, and against the Pod Security {@code baseline} level: what a cluster will
 * be asked to run for a lab whose kernel is its own.
 */
class UmlPodTest {

    private static final Instant STARTED = Instant.parse("2026-12-01T10:00:00Z");
    private static final LabSpec SPEC =
            new LabSpec("ab12cd34ef", TestTopologies.load("two-node"), "learner-1", "two-node");

    private final LabObjects objects = new LabObjects(TestConfig.tclab(
            Map.of("tclab.instance", "tclab-k1", "tclab.lab.cpus", "1.5", "tclab.lab.uml-memory-mib", "200")));

    private Pod pod() {
        return objects.umlPod(SPEC, STARTED);
    }

    private Container kernel() {
        return pod().getSpec().getContainers().get(0);
    }

    @Test
    void shouldMeetThePodSecurityBaselineLevel() {
        assertThat(PodSecurityBaseline.violations(pod())).isEmpty();
    }

    @Test
    void shouldSeeWhatBaselineRefusesSoThatTheCheckAboveCanFail() {
        assertThat(PodSecurityBaseline.violations(
                        objects.nodePod(SPEC, SPEC.topology().nodes().get("client"), "client", Set.of(), STARTED)))
                .as("a host-kernel lab's node pod needs NET_ADMIN: baseline refuses it")
                .contains("node: adds capability NET_ADMIN", "measure: adds capability NET_ADMIN");
        assertThat(PodSecurityBaseline.violations(new PodBuilder(pod())
                        .editSpec()
                        .editFirstContainer()
                        .editSecurityContext()
                        .withPrivileged(true)
                        .editCapabilities()
                        .withAdd("SYS_PTRACE")
                        .endCapabilities()
                        .endSecurityContext()
                        .endContainer()
                        .withHostPID(true)
                        .addNewVolume()
                        .withName("root")
                        .withNewHostPath()
                        .withPath("/")
                        .endHostPath()
                        .endVolume()
                        .endSpec()
                        .build()))
                .containsExactlyInAnyOrder(
                        "hostPID", "hostPath volume root", "kernel: privileged", "kernel: adds capability SYS_PTRACE");
    }

    @Test
    void shouldAddNoCapabilityAtAllAndDropEveryOne() {
        SecurityContext context = kernel().getSecurityContext();

        assertThat(context.getCapabilities().getAdd())
                .as("no capability, not even one baseline allows")
                .isEmpty();
        assertThat(context.getCapabilities().getDrop()).containsExactly("ALL");
        assertThat(context.getPrivileged()).isFalse();
        assertThat(context.getAllowPrivilegeEscalation()).isFalse();
        assertThat(context.getReadOnlyRootFilesystem()).isTrue();
        assertThat(context.getProcMount()).isNull();
        assertThat(context.getSeLinuxOptions()).isNull();
        assertThat(pod().getSpec().getSecurityContext().getSeccompProfile().getType())
                .isEqualTo("RuntimeDefault");
        assertThat(pod().getSpec().getSecurityContext().getSysctls())
                .as("the nodes' sysctls are the lab kernel's own")
                .isNullOrEmpty();
    }

    @Test
    void shouldShareNoHostNamespaceAndMountNoHostPath() {
        var spec = pod().getSpec();

        assertThat(spec.getHostNetwork()).isFalse();
        assertThat(spec.getHostPID()).isFalse();
        assertThat(spec.getHostIPC()).isFalse();
        assertThat(spec.getShareProcessNamespace()).isFalse();
        assertThat(spec.getAutomountServiceAccountToken()).isFalse();
        assertThat(spec.getEnableServiceLinks()).isFalse();
        assertThat(spec.getVolumes()).allSatisfy(v -> {
            assertThat(v.getHostPath()).isNull();
            assertThat(v.getEmptyDir().getMedium()).isEqualTo("Memory");
        });
        assertThat(spec.getInitContainers()).isEmpty();
        assertThat(spec.getContainers()).hasSize(1);
        assertThat(kernel().getPorts()).isEmpty();
    }

    @Test
    void shouldNeedNoWiringHelperNoNodeSelectorAndNoAffinity() {
        var spec = pod().getSpec();

        assertThat(spec.getNodeSelector())
                .as("the lab's kernel has every qdisc as a module")
                .isEmpty();
        assertThat(spec.getAffinity()).as("one pod: nothing to keep together").isNull();
        assertThat(pod().getMetadata().getLabels()).doesNotContainKey("tclab.node");
    }

    @Test
    void shouldBootTheKernelWithTheAgentOnItsConsole() {
        Container kernel = kernel();

        assertThat(kernel.getName()).isEqualTo("kernel");
        assertThat(kernel.getImage()).isEqualTo("tclab/lab-uml:2");
        assertThat(kernel.getImagePullPolicy()).isEqualTo("IfNotPresent");
        assertThat(kernel.getCommand()).isEqualTo(UmlScripts.boot(200));
        assertThat(String.join(" ", kernel.getCommand()))
                .contains("con0=fd:0,fd:1", "mem=200M", "exec perl -e '", "' linux.uml rootfstype=hostfs");
        assertThat(kernel.getEnv())
                .extracting(EnvVar::getName, EnvVar::getValue)
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple(UmlScripts.INIT_ENV, UmlScripts.init()),
                        org.assertj.core.groups.Tuple.tuple(UmlScripts.AGENT_ENV, SidecarAgent.script()),
                        org.assertj.core.groups.Tuple.tuple(UmlScripts.LAB_ENV, UmlScripts.lab()));
        assertThat(kernel.getStdin())
                .as("the agent's line is the container's standard input")
                .isTrue();
        assertThat(kernel.getStdinOnce())
                .as("a replica may attach again after a restart")
                .isFalse();
        assertThat(kernel.getTty()).as("the console is a pipe, not a terminal").isFalse();
    }

    @Test
    void shouldLimitTheKernelsMemoryTmpfsAndCpuAsOnDocker() {
        Container kernel = kernel();
        Map<String, Quantity> limits = kernel.getResources().getLimits();

        assertThat(limits).containsEntry("memory", new Quantity("296Mi")).containsEntry("cpu", new Quantity("1500m"));
        assertThat(kernel.getResources().getRequests()).isEqualTo(limits);
        Map<String, String> mounts = kernel.getVolumeMounts().stream()
                .collect(Collectors.toMap(VolumeMount::getMountPath, VolumeMount::getName));
        assertThat(mounts)
                .containsExactlyInAnyOrderEntriesOf(
                        Map.of("/dev/shm", "kernel-memory", "/tclab", "kernel-scripts", "/tmp", "kernel-tmp"));
        Map<String, Quantity> sizes = pod().getSpec().getVolumes().stream()
                .collect(Collectors.toMap(Volume::getName, v -> v.getEmptyDir().getSizeLimit()));
        assertThat(sizes)
                .containsExactlyInAnyOrderEntriesOf(Map.of(
                        "kernel-memory", new Quantity("216Mi"),
                        "kernel-scripts", new Quantity("1Mi"),
                        "kernel-tmp", new Quantity("8Mi")));
    }

    @Test
    void shouldLabelTheLabForReapingAndListItsNodesInAnAnnotation() {
        var pod = pod();

        assertThat(pod.getMetadata().getName()).isEqualTo("tclab-ab12cd34ef.uml");
        assertThat(pod.getMetadata().getNamespace()).isEqualTo("tclab-labs");
        assertThat(pod.getMetadata().getLabels())
                .containsExactlyInAnyOrderEntriesOf(Map.of(
                        "tclab.app", "tclab",
                        "tclab.instance", "tclab-k1",
                        "tclab.role", "uml",
                        "tclab.lab", "ab12cd34ef",
                        "tclab.owner", "learner-1",
                        "tclab.lesson", "two-node",
                        "tclab.expires",
                                Long.toString(
                                        STARTED.plusSeconds(4 * 3600 + 600).getEpochSecond()),
                        "tclab.platform", UmlScripts.VERSION));
        assertThat(pod.getMetadata().getAnnotations())
                .containsExactlyInAnyOrderEntriesOf(Map.of("tclab.owner", "learner-1", "tclab.nodes", "client,server"));
        assertThat(pod.getSpec().getActiveDeadlineSeconds()).isEqualTo(4 * 3600 + 600);
        assertThat(pod.getSpec().getRestartPolicy()).isEqualTo("Never");
        assertThat(pod.getSpec().getTerminationGracePeriodSeconds()).isZero();
        assertThat(pod.getSpec().getHostname()).isEqualTo("ab12cd34ef");
    }
}
