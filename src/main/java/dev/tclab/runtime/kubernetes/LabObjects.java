package dev.tclab.runtime.kubernetes;

import dev.tclab.config.TclabConfig;
import dev.tclab.runtime.LabExpiry;
import dev.tclab.runtime.LabSpec;
import dev.tclab.runtime.LabelKeys;
import dev.tclab.runtime.agent.SidecarAgent;
import dev.tclab.runtime.agent.UmlScripts;
import dev.tclab.runtime.topology.Topology;
import io.fabric8.kubernetes.api.model.Affinity;
import io.fabric8.kubernetes.api.model.AffinityBuilder;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ResourceRequirements;
import io.fabric8.kubernetes.api.model.ResourceRequirementsBuilder;
import io.fabric8.kubernetes.api.model.SecurityContext;
import io.fabric8.kubernetes.api.model.SecurityContextBuilder;
import io.fabric8.kubernetes.api.model.Sysctl;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeBuilder;
import io.fabric8.kubernetes.api.model.VolumeMount;
import io.fabric8.kubernetes.api.model.VolumeMountBuilder;
import io.fabric8.kubernetes.api.model.apps.DaemonSet;
import io.fabric8.kubernetes.api.model.apps.DaemonSetBuilder;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyBuilder;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The Kubernetes objects of the lab runtime, built from a lab and the configuration: one pod per lab node (the node
 * and its measurement sidecar), or one pod per User-Mode Linux lab, the wiring helper DaemonSet, and the NetworkPolicy
 * that cuts lab pods off the cluster network. Pure: it builds objects and never talks to the API server, so every field can be asserted.
 */
final class LabObjects {

    static final String NODE_CONTAINER = "node";
    static final String SIDECAR_CONTAINER = "measure";
    static final String NETWORK_POLICY = "tclab-labs-isolated";
    /** The one container of a User-Mode Linux lab's pod: the kernel, whose console is the agent's line. */
    static final String KERNEL_CONTAINER = "kernel";

    /** The same sidecar limits as on Docker: enough for iperf3, ping and tc, the sidecar runs nothing else. */
    private static final int SIDECAR_MEMORY_MIB = 64;

    private static final int SIDECAR_TMPFS_MIB = 4;
    private static final int HELPER_MEMORY_MIB = 64;
    /**
     * PID 1 of a node: a shell that reaps the zombies learners' background jobs leave (Docker's --init does it
     * there; a pod has no such option and shares no process namespace with a pause process that would).
     */
    static final List<String> KEEP_ALIVE =
            List.of("sh", "-c", "trap 'exit 0' TERM; while :; do sleep 3600 & wait $!; done");

    private final String namespace;
    private final String instance;
    private final TclabConfig.Lab limits;
    private final String defaultImage;
    private final String measurementImage;
    private final String umlImage;
    private final int umlMemoryMib;

    LabObjects(TclabConfig config) {
        this.namespace = config.kubernetes().namespace();
        this.instance = config.instance();
        this.limits = config.lab();
        this.defaultImage = config.lab().image();
        this.measurementImage = config.lab().measurementImage().orElse(defaultImage);
        this.umlImage = config.lab().umlImage();
        this.umlMemoryMib = config.lab().umlMemoryMib();
    }

    static String podName(String labId, String node) {
        return "tclab-" + labId + "-" + node;
    }

    /**
     * A lab node's pod: the learner's container and its measurement sidecar, which shares the pod's network namespace
     * (so it sees the node's interfaces and qdiscs) but has its own read-only filesystem and, with
     * {@code shareProcessNamespace: false}, its own processes. {@code anchor} is the lab's first node: every other
     * pod must land on the cluster node that one runs on, so links stay veth pairs on one kernel. {@code features}
     * are the kernel features the lesson needs; the pod goes only to cluster nodes the probe labelled with them.
     */
    Pod nodePod(LabSpec spec, Topology.Node node, String anchor, Set<String> features, Instant started) {
        Instant expires = LabExpiry.of(started, limits.maxLifetime(), spec.pooled());
        Map<String, String> labels = KubeLabels.node(instance, spec, node.name(), expires);
        Map<String, String> nodeSelector = new TreeMap<>();
        features.forEach(f -> nodeSelector.put(KubeLabels.feature(f), "true"));
        List<Sysctl> sysctls = node.sysctls().entrySet().stream()
                .map(e -> new Sysctl(e.getKey(), e.getValue()))
                .toList();
        return new PodBuilder()
                .withNewMetadata()
                .withName(podName(spec.labId(), node.name()))
                .withNamespace(namespace)
                .withLabels(labels)
                .withAnnotations(Map.of(LabelKeys.OWNER, spec.owner()))
                .endMetadata()
                .withNewSpec()
                .withHostname(node.name())
                .withRestartPolicy("Never")
                .withActiveDeadlineSeconds(Duration.between(started, expires).toSeconds())
                .withTerminationGracePeriodSeconds(2L)
                .withShareProcessNamespace(false)
                .withAutomountServiceAccountToken(false)
                .withEnableServiceLinks(false)
                .withNodeSelector(nodeSelector.isEmpty() ? null : nodeSelector)
                .withAffinity(node.name().equals(anchor) ? null : sameNodeAs(spec.labId(), anchor))
                .withNewSecurityContext()
                .withSysctls(sysctls.isEmpty() ? null : sysctls)
                .withNewSeccompProfile()
                .withType("RuntimeDefault")
                .endSeccompProfile()
                .endSecurityContext()
                .withContainers(nodeContainer(node), sidecar())
                .withVolumes(
                        memoryVolume("node-tmp", limits.tmpMib()),
                        memoryVolume("node-home", limits.homeMib()),
                        memoryVolume("node-run", limits.runMib()),
                        memoryVolume("measure-tmp", SIDECAR_TMPFS_MIB),
                        memoryVolume("measure-run", SIDECAR_TMPFS_MIB))
                .endSpec()
                .build();
    }

    static String umlPodName(String labId) {
        return "tclab-" + labId + ".uml";
    }

    /**
     * A User-Mode Linux lab's pod: one container whose main process is the lab's own kernel, every node a namespace
     * inside it and every link a veth pair there, so the pod needs nothing the Pod Security {@code baseline} level
     * forbids, nor the wiring helper: no capability at all (UML traces its own processes; what a learner's NET_ADMIN
     * reaches is that kernel), not privileged, no privilege escalation, no host namespace, no hostPath, no sysctls
     * (the nodes' are the kernel's own), no nodeSelector (the kernel has every qdisc as a module). The agent speaks
     * on the kernel's console, the container's standard input and output ({@code stdin: true}, no TTY), reached
     * through {@code pods/attach}. Its /dev/shm is a memory-backed emptyDir: the kernel's memory is a file there, and
     * UML's ptrace mode needs it executable (kubelet mounts an emptyDir without noexec; a container's own /dev/shm
     * may be noexec).
     */
    Pod umlPod(LabSpec spec, Instant started) {
        Instant expires = LabExpiry.of(started, limits.maxLifetime(), spec.pooled());
        String memory = UmlScripts.containerMemoryMib(umlMemoryMib) + "Mi";
        String cpu = Math.round(limits.cpus() * 1000) + "m";
        Container kernel = new ContainerBuilder()
                .withName(KERNEL_CONTAINER)
                .withImage(umlImage)
                .withImagePullPolicy("IfNotPresent")
                .withCommand(UmlScripts.boot(umlMemoryMib))
                .withEnv(
                        new EnvVar(UmlScripts.INIT_ENV, UmlScripts.init(), null),
                        new EnvVar(UmlScripts.AGENT_ENV, SidecarAgent.script(), null),
                        new EnvVar(UmlScripts.LAB_ENV, UmlScripts.lab(), null))
                .withStdin(true)
                .withStdinOnce(false)
                .withTty(false)
                .withSecurityContext(new SecurityContextBuilder()
                        .withPrivileged(false)
                        .withAllowPrivilegeEscalation(false)
                        .withReadOnlyRootFilesystem(true)
                        .withNewCapabilities()
                        .withDrop("ALL")
                        .endCapabilities()
                        .build())
                .withResources(resources(memory, cpu))
                .withVolumeMounts(
                        mount("/dev/shm", "kernel-memory"),
                        mount(UmlScripts.DIR, "kernel-scripts"),
                        mount("/tmp", "kernel-tmp"))
                .build();
        return new PodBuilder()
                .withNewMetadata()
                .withName(umlPodName(spec.labId()))
                .withNamespace(namespace)
                .withLabels(KubeLabels.uml(instance, spec, expires))
                .withAnnotations(Map.of(
                        LabelKeys.OWNER,
                        spec.owner(),
                        LabelKeys.NODES,
                        String.join(",", spec.topology().nodes().keySet())))
                .endMetadata()
                .withNewSpec()
                .withHostname(spec.labId())
                .withRestartPolicy("Never")
                .withActiveDeadlineSeconds(Duration.between(started, expires).toSeconds())
                // A UML kernel ignores SIGTERM, and everything it wrote is in its own memory: nothing to wait for.
                .withTerminationGracePeriodSeconds(0L)
                .withHostNetwork(false)
                .withHostPID(false)
                .withHostIPC(false)
                .withShareProcessNamespace(false)
                .withAutomountServiceAccountToken(false)
                .withEnableServiceLinks(false)
                .withNewSecurityContext()
                .withNewSeccompProfile()
                .withType("RuntimeDefault")
                .endSeccompProfile()
                .endSecurityContext()
                .withContainers(kernel)
                .withVolumes(
                        memoryVolume("kernel-memory", UmlScripts.shmMib(umlMemoryMib)),
                        memoryVolume("kernel-scripts", 1),
                        memoryVolume("kernel-tmp", 8))
                .endSpec()
                .build();
    }

    private Container nodeContainer(Topology.Node node) {
        List<EnvVar> env = new ArrayList<>();
        node.env().forEach((k, v) -> env.add(new EnvVar(k, v, null)));
        String memory = limits.memoryMib() + "Mi";
        String cpu = Math.round(limits.cpus() * 1000) + "m";
        return new ContainerBuilder()
                .withName(NODE_CONTAINER)
                .withImage(node.image() == null ? defaultImage : node.image())
                .withImagePullPolicy("IfNotPresent")
                .withCommand(KEEP_ALIVE)
                .withEnv(env.isEmpty() ? null : env)
                .withSecurityContext(trafficControl())
                .withResources(resources(memory, cpu))
                .withVolumeMounts(mount("/tmp", "node-tmp"), mount("/root", "node-home"), mount("/run", "node-run"))
                .build();
    }

    /** The measurement sidecar; NET_ADMIN is for tc and iperf3's {@code -C cubic}, NET_RAW for ping. */
    private Container sidecar() {
        return new ContainerBuilder()
                .withName(SIDECAR_CONTAINER)
                .withImage(measurementImage)
                .withImagePullPolicy("IfNotPresent")
                .withCommand(KEEP_ALIVE)
                .withSecurityContext(trafficControl())
                .withResources(resources(SIDECAR_MEMORY_MIB + "Mi", "500m"))
                .withVolumeMounts(mount("/tmp", "measure-tmp"), mount("/run", "measure-run"))
                .build();
    }

    /**
     * Learners are root in these containers, so they get only what traffic control needs: NET_ADMIN and NET_RAW,
     * every other capability dropped, no privilege escalation, and a read-only root filesystem.
     */
    private static SecurityContext trafficControl() {
        return new SecurityContextBuilder()
                .withPrivileged(false)
                .withAllowPrivilegeEscalation(false)
                .withReadOnlyRootFilesystem(true)
                .withNewCapabilities()
                .withAdd("NET_ADMIN", "NET_RAW")
                .withDrop("ALL")
                .endCapabilities()
                .build();
    }

    /** Requests equal limits: a lab's figures must not depend on what else its cluster node runs. */
    private static ResourceRequirements resources(String memory, String cpu) {
        Map<String, Quantity> amounts = new LinkedHashMap<>();
        amounts.put("memory", new Quantity(memory));
        amounts.put("cpu", new Quantity(cpu));
        return new ResourceRequirementsBuilder()
                .withRequests(amounts)
                .withLimits(amounts)
                .build();
    }

    private static VolumeMount mount(String path, String volume) {
        return new VolumeMountBuilder().withMountPath(path).withName(volume).build();
    }

    /** A size-capped tmpfs, charged to the pod's memory like Docker's --tmpfs. */
    private static Volume memoryVolume(String name, int mib) {
        return new VolumeBuilder()
                .withName(name)
                .withNewEmptyDir()
                .withMedium("Memory")
                .withSizeLimit(new Quantity(mib + "Mi"))
                .endEmptyDir()
                .build();
    }

    /** Required pod affinity to the lab's anchor pod, on the same cluster node (hostname topology). */
    private Affinity sameNodeAs(String labId, String anchor) {
        Map<String, String> anchorLabels = new TreeMap<>(KubeLabels.labOf(instance, labId));
        anchorLabels.put(LabelKeys.NODE, anchor);
        return new AffinityBuilder()
                .withNewPodAffinity()
                .addNewRequiredDuringSchedulingIgnoredDuringExecution()
                .withNewLabelSelector()
                .withMatchLabels(anchorLabels)
                .endLabelSelector()
                .withTopologyKey("kubernetes.io/hostname")
                .endRequiredDuringSchedulingIgnoredDuringExecution()
                .endPodAffinity()
                .build();
    }

    /**
     * The wiring helper: one pod per cluster node that creates a lab's veth pairs straight into its pods' network
     * namespaces. It needs the host's PID namespace (to find a pod's processes by its UID in /proc/PID/cgroup and name
     * its namespace by pid) and NET_ADMIN (to create the veth pair and move its ends), nothing else: not privileged,
     * no SYS_ADMIN (it never enters a namespace), no host network, no service account token, a read-only root.
     */
    DaemonSet wiringHelper(String name, String image) {
        Map<String, String> labels = KubeLabels.wiring(name);
        return new DaemonSetBuilder()
                .withNewMetadata()
                .withName(name)
                .withNamespace(namespace)
                .withLabels(labels)
                .endMetadata()
                .withNewSpec()
                .withNewSelector()
                .withMatchLabels(labels)
                .endSelector()
                .withNewTemplate()
                .withNewMetadata()
                .withLabels(labels)
                .endMetadata()
                .withNewSpec()
                .withHostPID(true)
                .withHostNetwork(false)
                .withAutomountServiceAccountToken(false)
                .withEnableServiceLinks(false)
                .withTerminationGracePeriodSeconds(2L)
                .withNewSecurityContext()
                .withNewSeccompProfile()
                .withType("RuntimeDefault")
                .endSeccompProfile()
                .endSecurityContext()
                .addNewContainer()
                .withName("wiring")
                .withImage(image)
                .withImagePullPolicy("IfNotPresent")
                .withCommand(KEEP_ALIVE)
                .withNewSecurityContext()
                .withPrivileged(false)
                .withAllowPrivilegeEscalation(false)
                .withReadOnlyRootFilesystem(true)
                .withNewCapabilities()
                .withAdd("NET_ADMIN")
                .withDrop("ALL")
                .endCapabilities()
                .endSecurityContext()
                .withResources(resources(HELPER_MEMORY_MIB + "Mi", "200m"))
                .endContainer()
                .endSpec()
                .endTemplate()
                .endSpec()
                .build();
    }

    /**
     * Denies all ingress and egress of every lab pod on its cluster interface: lab traffic runs on the veth links the
     * helper creates (or inside a UML lab's kernel), which no NetworkPolicy sees, and nothing else may leave or reach a
     * lab (a learner is root there and could bring the cluster interface back up; a UML kernel has no interface on the
     * pod's network at all, and the policy keeps it so should one escape the kernel).
     */
    NetworkPolicy isolation() {
        return new NetworkPolicyBuilder()
                .withNewMetadata()
                .withName(NETWORK_POLICY)
                .withNamespace(namespace)
                .withLabels(Map.of(LabelKeys.APP, "tclab"))
                .endMetadata()
                .withNewSpec()
                .withNewPodSelector()
                .withMatchLabels(Map.of(LabelKeys.APP, "tclab"))
                .addNewMatchExpression()
                .withKey(LabelKeys.ROLE)
                .withOperator("In")
                .withValues(LabelKeys.ROLE_NODE, LabelKeys.ROLE_UML)
                .endMatchExpression()
                .endPodSelector()
                .withPolicyTypes("Ingress", "Egress")
                .endSpec()
                .build();
    }
}
