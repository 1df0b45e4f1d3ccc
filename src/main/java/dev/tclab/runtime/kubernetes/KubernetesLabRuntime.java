package dev.tclab.runtime.kubernetes;

import dev.tclab.common.WorkerThreads;
import dev.tclab.config.TclabConfig;
import dev.tclab.runtime.EngineStatus;
import dev.tclab.runtime.EngineUnavailableException;
import dev.tclab.runtime.ExecResult;
import dev.tclab.runtime.KernelCapabilities;
import dev.tclab.runtime.KernelProbe;
import dev.tclab.runtime.LabExpiry;
import dev.tclab.runtime.LabProgressListener;
import dev.tclab.runtime.LabProgressListener.Stage;
import dev.tclab.runtime.LabScripts;
import dev.tclab.runtime.LabSpec;
import dev.tclab.runtime.LabStartException;
import dev.tclab.runtime.LabelKeys;
import dev.tclab.runtime.NodeNotFoundException;
import dev.tclab.runtime.NodeStatus;
import dev.tclab.runtime.ParallelCalls;
import dev.tclab.runtime.ProcessStream;
import dev.tclab.runtime.RuntimeAdapter;
import dev.tclab.runtime.StreamListener;
import dev.tclab.runtime.topology.Topology;
import dev.tclab.runtime.topology.TopologySource;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.smallrye.common.annotation.Identifier;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * Labs as pods on a Kubernetes cluster (chosen by {@code tclab.runtime=kubernetes}). Each lab node is a hardened pod
 * holding the learner's container and its measurement sidecar; all pods of a lab run on one cluster node, where the
 * wiring helper DaemonSet's pod creates the lab's veth pairs straight into their network namespaces, as the Docker
 * runtime's helper does. Every call goes through the API server, so any app replica can reach any lab.
 */
@ApplicationScoped
@Identifier("kubernetes")
public class KubernetesLabRuntime implements RuntimeAdapter {

    private final KubernetesClient client;
    private final TopologySource topologies;
    private final String namespace;
    private final String instance;
    private final String helperName;
    private final Duration startTimeout;
    private final LabObjects objects;
    private final ExecutorService pool = Executors.newCachedThreadPool(WorkerThreads.named("tclab-kubernetes"));
    private final ParallelCalls parallel;
    private final KubeCalls calls;

    public KubernetesLabRuntime(KubernetesClient client, TclabConfig config, TopologySource topologies) {
        this.client = client;
        this.topologies = topologies;
        this.namespace = config.kubernetes().namespace();
        this.instance = config.instance();
        this.helperName = config.kubernetes().helperName();
        this.startTimeout = config.lab().startTimeout();
        this.objects = new LabObjects(config);
        this.calls = new KubeCalls(client, namespace, objects);
        this.parallel = new ParallelCalls(pool, startTimeout, new ParallelCalls.EngineFailures() {
            @Override
            public LabStartException refused(RuntimeException e) {
                return e instanceof KubernetesClientException ke && ke.getCode() > 0 ? KubeCalls.refused(ke) : null;
            }

            @Override
            public EngineUnavailableException unavailable(RuntimeException e) {
                return calls.unavailable(e);
            }
        });
    }

    @Override
    public EngineStatus engine() {
        return calls.engine();
    }

    /**
     * Images live on the cluster's nodes, which pull them on their own: the API server cannot say whether one is
     * there. A missing image fails the lab start with the kubelet's reason instead.
     */
    @Override
    public boolean imagePresent(String image) {
        return true;
    }

    @Override
    public void start(LabSpec spec, LabProgressListener progress) throws LabStartException, EngineUnavailableException {
        Topology topology = spec.topology();
        long deadline = System.nanoTime() + startTimeout.toNanos();
        try {
            calls.ensureIsolation();
            progress.onStage(Stage.CREATING, topology.nodes().size() + " nodes");
            String anchor = topology.nodes().keySet().iterator().next();
            Set<String> features = topologies.kernelFeaturesFor(spec.lesson());
            Instant now = Instant.now();
            for (Topology.Node node : topology.nodes().values()) {
                call(() -> client.pods()
                        .inNamespace(namespace)
                        .resource(objects.nodePod(spec, node, anchor, features, now))
                        .create());
            }
            List<Pod> pods = calls.awaitRunning(
                    KubeLabels.labOf(instance, spec.labId()), topology.nodes().size(), deadline, startTimeout);
            progress.onStage(Stage.WIRING, topology.links().size() + " links");
            wire(spec.labId(), topology, pods, deadline);
            progress.onStage(Stage.CONFIGURING, "interfaces, addresses and setup commands");
            List<Callable<Void>> setups = new ArrayList<>();
            for (Topology.Node node : topology.nodes().values()) {
                setups.add(() -> {
                    configure(
                            spec.labId(), node, topology.interfacesOf(node.name()), ParallelCalls.remaining(deadline));
                    return null;
                });
            }
            parallel.all(setups, deadline);
            progress.onStage(Stage.READY, "");
        } catch (KubernetesClientException e) {
            stopQuietly(spec.labId());
            // The API server answered with a refusal: a Pod Security level that forbids NET_ADMIN, a quota, RBAC.
            throw KubeCalls.refused(e);
        } catch (LabStartException | EngineUnavailableException | RuntimeException e) {
            stopQuietly(spec.labId());
            throw e;
        }
    }

    /**
     * Wires the links in the helper pod on the lab's cluster node. Each pod's cluster interface is first set down
     * and renamed (in its sidecar, which shares the pod's network namespace), so a lab has no route out even before
     * the NetworkPolicy applies, and a topology may name its own interfaces eth0.
     */
    private void wire(String labId, Topology topology, List<Pod> pods, long deadline)
            throws LabStartException, EngineUnavailableException {
        Set<String> hosts = new TreeSet<>();
        pods.forEach(p -> hosts.add(p.getSpec().getNodeName()));
        if (hosts.size() != 1) {
            throw new LabStartException("the lab's pods landed on different cluster nodes " + hosts
                    + ": its links need one kernel (is the pod affinity honoured?)");
        }
        List<Callable<Void>> detaches = new ArrayList<>();
        for (Pod pod : pods) {
            detaches.add(() -> {
                ExecResult result = KubeExec.run(
                        client,
                        namespace,
                        pod.getMetadata().getName(),
                        LabObjects.SIDECAR_CONTAINER,
                        List.of("sh", "-c", WiringScript.DETACH_CLUSTER_INTERFACE),
                        ParallelCalls.remaining(deadline));
                if (!result.ok()) {
                    throw new LabStartException("cutting node " + KubeCalls.nodeOf(pod)
                            + " off the cluster network failed: " + (result.stderr() + result.stdout()).trim());
                }
                return null;
            });
        }
        parallel.all(detaches, deadline);
        if (topology.links().isEmpty()) {
            return;
        }
        String host = hosts.iterator().next();
        String helper = call(() ->
                client
                        .pods()
                        .inNamespace(namespace)
                        .withLabels(KubeLabels.wiring(helperName))
                        .list()
                        .getItems()
                        .stream()
                        .filter(p -> host.equals(p.getSpec().getNodeName()) && KubeCalls.running(p))
                        .map(p -> p.getMetadata().getName())
                        .findFirst()
                        .orElse(null));
        if (helper == null) {
            throw new LabStartException("no running wiring helper (DaemonSet " + helperName + ") on cluster node "
                    + host + ": apply deploy/kubernetes and check its pods");
        }
        Map<String, String> podUids = new LinkedHashMap<>();
        pods.forEach(p -> podUids.put(KubeCalls.nodeOf(p), p.getMetadata().getUid()));
        ExecResult result = call(() -> KubeExec.run(
                client,
                namespace,
                helper,
                WiringScript.CONTAINER,
                List.of("sh", "-c", WiringScript.links(topology.links(), podUids)),
                ParallelCalls.remaining(deadline)));
        if (!result.ok()) {
            throw new LabStartException("wiring the links failed: " + (result.stderr() + result.stdout()).trim()
                    + " (pods " + podUids + ")");
        }
    }

    private void configure(String labId, Topology.Node node, List<String> interfaces, Duration timeout)
            throws LabStartException {
        ExecResult result = KubeExec.run(
                client,
                namespace,
                LabObjects.podName(labId, node.name()),
                LabObjects.NODE_CONTAINER,
                List.of("sh", "-c", LabScripts.nodeSetup(node, interfaces)),
                timeout);
        if (!result.ok()) {
            throw new LabStartException("setting up node " + node.name() + " failed"
                    + (result.timedOut() ? " (timed out)" : "") + ": " + (result.stderr() + result.stdout()).trim());
        }
    }

    /** Deletes every pod of the lab at once (no grace: nothing in a lab needs a clean shutdown). Idempotent. */
    @Override
    public void stop(String labId) throws EngineUnavailableException {
        call(() -> client.pods()
                .inNamespace(namespace)
                .withLabels(KubeLabels.labOf(instance, labId))
                .withGracePeriod(0)
                .delete());
    }

    /** A node whose measurement sidecar is not running cannot be graded, so it counts as not running either. */
    @Override
    public List<NodeStatus> status(String labId) throws EngineUnavailableException {
        List<Pod> pods = call(() -> client.pods()
                .inNamespace(namespace)
                .withLabels(KubeLabels.labOf(instance, labId))
                .list()
                .getItems());
        return pods.stream()
                .map(pod -> {
                    String node = KubeCalls.nodeOf(pod);
                    String nodeState = containerState(pod, LabObjects.NODE_CONTAINER);
                    String sidecarState = containerState(pod, LabObjects.SIDECAR_CONTAINER);
                    boolean nodeRunning = "running".equals(nodeState);
                    if (nodeRunning && !"running".equals(sidecarState)) {
                        return new NodeStatus(node, false, "running, but what measures it is " + sidecarState);
                    }
                    return new NodeStatus(
                            node, nodeRunning, nodeRunning ? "running" : KubeCalls.phase(pod) + ", " + nodeState);
                })
                .toList();
    }

    @Override
    public ExecResult exec(String labId, String node, List<String> command, Duration timeout)
            throws EngineUnavailableException, NodeNotFoundException {
        String pod = existingPod(labId, node);
        try {
            return call(() -> KubeExec.run(client, namespace, pod, LabObjects.SIDECAR_CONTAINER, command, timeout));
        } catch (KubernetesClientException e) {
            throw gone(e, labId, node);
        }
    }

    @Override
    public ProcessStream stream(String labId, String node, List<String> command, StreamListener listener)
            throws EngineUnavailableException, NodeNotFoundException {
        return attach(labId, node, LabObjects.SIDECAR_CONTAINER, command, false, listener);
    }

    @Override
    public ProcessStream shell(String labId, String node, List<String> command, StreamListener listener)
            throws EngineUnavailableException, NodeNotFoundException {
        return attach(labId, node, LabObjects.NODE_CONTAINER, command, true, listener);
    }

    private ProcessStream attach(
            String labId, String node, String container, List<String> command, boolean tty, StreamListener listener)
            throws EngineUnavailableException, NodeNotFoundException {
        String pod = existingPod(labId, node);
        try {
            return call(() -> new KubeProcessStream(client, namespace, pod, container, command, tty, listener, pool));
        } catch (KubernetesClientException e) {
            throw gone(e, labId, node);
        }
    }

    /**
     * The API server's refusal of an exec: the pod went away (404) or its container is not running (400) since it
     * was looked up, which is a node the lab no longer has; anything else passes through.
     */
    private static KubernetesClientException gone(KubernetesClientException e, String labId, String node)
            throws NodeNotFoundException {
        if (e.getCode() == 404 || e.getCode() == 400) {
            throw new NodeNotFoundException(labId, node);
        }
        return e;
    }

    /** The node's pod name, once it is known to run: an exec into a missing pod would wait for it instead. */
    private String existingPod(String labId, String node) throws EngineUnavailableException, NodeNotFoundException {
        String name = LabObjects.podName(labId, node);
        Pod pod = call(() -> client.pods().inNamespace(namespace).withName(name).get());
        if (pod == null
                || pod.getMetadata().getLabels() == null
                || !KubeLabels.value(instance)
                        .equals(pod.getMetadata().getLabels().get(LabelKeys.INSTANCE))
                || !"Running".equals(KubeCalls.phase(pod))) {
            throw new NodeNotFoundException(labId, node);
        }
        return name;
    }

    @Override
    public Set<String> labsOnEngine() throws EngineUnavailableException {
        List<Pod> pods = call(() -> client.pods()
                .inNamespace(namespace)
                .withLabels(KubeLabels.instance(instance))
                .list()
                .getItems());
        Set<String> labs = new HashSet<>();
        pods.forEach(p -> labs.add(p.getMetadata().getLabels().get(LabelKeys.LAB)));
        return labs;
    }

    /**
     * Deletes the lab pods of any instance past their expiry label. Kubernetes ends them itself at their
     * activeDeadlineSeconds, but a pod that ended that way stays listed (Failed) until deleted.
     */
    @Override
    public Set<String> removeExpiredLabs(Instant now) throws EngineUnavailableException {
        List<Pod> pods = call(() -> client.pods()
                .inNamespace(namespace)
                .withLabels(KubeLabels.allLabPods())
                .list()
                .getItems());
        Set<String> expired = new HashSet<>();
        for (Pod pod : pods) {
            if (LabExpiry.passed(pod.getMetadata().getLabels().get(LabelKeys.EXPIRES), now)) {
                call(() -> client.pods()
                        .inNamespace(namespace)
                        .withName(pod.getMetadata().getName())
                        .withGracePeriod(0)
                        .delete());
                expired.add(pod.getMetadata().getLabels().get(LabelKeys.LAB));
            }
        }
        return expired;
    }

    /**
     * Probes the kernel of every cluster node that runs a wiring helper, publishes the result as node labels
     * ({@code tclab.dev/qdisc-cake=true}) for lab pods' nodeSelectors, and returns what at least one node supports:
     * a lesson needing CAKE can run as long as one node has it.
     */
    @Override
    public KernelCapabilities probeKernel() throws EngineUnavailableException {
        List<Pod> helpers = call(() ->
                client
                        .pods()
                        .inNamespace(namespace)
                        .withLabels(KubeLabels.wiring(helperName))
                        .list()
                        .getItems()
                        .stream()
                        .filter(KubeCalls::running)
                        .toList());
        Map<String, Boolean> union = new LinkedHashMap<>();
        Set<String> kernels = new TreeSet<>();
        for (Pod helper : helpers) {
            ExecResult result = call(() -> KubeExec.run(
                    client,
                    namespace,
                    helper.getMetadata().getName(),
                    WiringScript.CONTAINER,
                    List.of("sh", "-c", WiringScript.PROBE),
                    Duration.ofSeconds(30)));
            KernelCapabilities found = KernelProbe.read(result);
            if (!found.probed()) {
                continue;
            }
            kernels.add(found.kernel());
            found.features().forEach((feature, supported) -> union.merge(feature, supported, Boolean::logicalOr));
            Map<String, String> labels = new HashMap<>();
            found.features()
                    .forEach((feature, supported) ->
                            labels.put(KubeLabels.feature(feature), Boolean.toString(supported)));
            call(() -> client.nodes().withName(helper.getSpec().getNodeName()).edit(n -> {
                n.getMetadata().getLabels().putAll(labels);
                return n;
            }));
        }
        return union.isEmpty()
                ? KernelCapabilities.unknown()
                : new KernelCapabilities(union, String.join(", ", kernels));
    }

    @PreDestroy
    void close() {
        pool.shutdownNow();
    }

    /** running, waiting (reason), terminated (reason), or gone. */
    private static String containerState(Pod pod, String container) {
        if (pod.getStatus() == null || pod.getStatus().getContainerStatuses() == null) {
            return "gone";
        }
        for (ContainerStatus status : pod.getStatus().getContainerStatuses()) {
            if (container.equals(status.getName()) && status.getState() != null) {
                if (status.getState().getRunning() != null) {
                    return "running";
                }
                if (status.getState().getWaiting() != null) {
                    return "waiting (" + status.getState().getWaiting().getReason() + ")";
                }
                if (status.getState().getTerminated() != null) {
                    return "exited (" + status.getState().getTerminated().getReason() + ")";
                }
            }
        }
        return "gone";
    }

    private <T> T call(Callable<T> call) throws EngineUnavailableException {
        return calls.call(call);
    }
}
