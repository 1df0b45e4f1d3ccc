package dev.tclab.runtime.kubernetes;

import dev.tclab.config.TclabConfig;
import dev.tclab.runtime.EngineStatus;
import dev.tclab.runtime.EngineUnavailableException;
import dev.tclab.runtime.LabExpiry;
import dev.tclab.runtime.LabProgressListener;
import dev.tclab.runtime.LabProgressListener.Stage;
import dev.tclab.runtime.LabSpec;
import dev.tclab.runtime.LabStartException;
import dev.tclab.runtime.LabelKeys;
import dev.tclab.runtime.NodeStatus;
import dev.tclab.runtime.ParallelCalls;
import dev.tclab.runtime.agent.SidecarAgent;
import dev.tclab.runtime.agent.UmlAgentRuntime;
import dev.tclab.runtime.agent.UmlAgents;
import dev.tclab.runtime.agent.UmlLab;
import dev.tclab.runtime.agent.UmlScripts;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.smallrye.common.annotation.Identifier;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * User-Mode Linux labs on a Kubernetes cluster (lab.yml {@code kernel: uml}, or {@code auto} choosing it, with
 * {@code tclab.runtime=kubernetes}): one pod per lab whose only container is the lab's own kernel, built as the Docker
 * engine's UML labs are ({@link UmlLab}), its agent reached over the container's standard input and output through the
 * API server ({@code pods/attach}). The pod needs no capability, no privileged helper and no host namespace
 * ({@link LabObjects#umlPod}), so its namespace may enforce the Pod Security {@code baseline} level.
 *
 * <p>The agent's attachment lives in the app replica that made it: a replica that meets a lab it did not start (or
 * after a restart) attaches anew ({@link UmlAgents}), as the Docker UML runtime does after a restart.
 */
@ApplicationScoped
@Identifier("kubernetes-uml")
public class KubernetesUmlLabRuntime extends UmlAgentRuntime {

    private static final Duration ATTACH_TIMEOUT = Duration.ofSeconds(10);

    private final KubernetesClient client;
    private final String namespace;
    private final String instance;
    private final Duration startTimeout;
    private final LabObjects objects;
    private final KubeCalls calls;
    private final UmlLab umlLab;

    public KubernetesUmlLabRuntime(KubernetesClient client, TclabConfig config) {
        this.client = client;
        this.namespace = config.kubernetes().namespace();
        this.instance = config.instance();
        this.startTimeout = config.lab().startTimeout();
        this.objects = new LabObjects(config);
        this.calls = new KubeCalls(client, namespace, objects);
        this.umlLab = new UmlLab(config.lab());
    }

    @Override
    public EngineStatus engine() {
        return calls.engine();
    }

    /** As for the other Kubernetes runtime: a missing image fails the start with the kubelet's reason. */
    @Override
    public boolean imagePresent(String image) {
        return true;
    }

    @Override
    public void start(LabSpec spec, LabProgressListener progress) throws LabStartException, EngineUnavailableException {
        long begin = System.nanoTime();
        long deadline = begin + startTimeout.toNanos();
        try {
            progress.onStage(
                    Stage.CREATING, "a kernel for " + spec.topology().nodes().size() + " nodes");
            SidecarAgent agent = boot(spec, deadline);
            agents.started(
                    spec.labId(), agent, List.copyOf(spec.topology().nodes().keySet()));
            umlLab.build(spec.labId(), spec.topology(), agent, progress, begin, deadline);
        } catch (KubernetesClientException e) {
            stopQuietly(spec.labId());
            // The API server answered with a refusal: the namespace's Pod Security level, a quota, RBAC.
            throw KubeCalls.refused(e);
        } catch (LabStartException | EngineUnavailableException | RuntimeException e) {
            stopQuietly(spec.labId());
            throw e;
        }
    }

    /** Creates the lab's pod, waits until its kernel runs, and attaches to the agent in it once it answers. */
    private SidecarAgent boot(LabSpec spec, long deadline) throws LabStartException, EngineUnavailableException {
        calls.ensureIsolation();
        Pod pod = objects.umlPod(spec, Instant.now());
        calls.call(() -> client.pods().inNamespace(namespace).resource(pod).create());
        calls.awaitRunning(KubeLabels.umlOf(instance, spec.labId()), 1, deadline, startTimeout);
        try {
            return attach(spec.labId(), ParallelCalls.remaining(deadline));
        } catch (SidecarAgent.Gone e) {
            throw new LabStartException("the lab's kernel did not come up: " + e.getMessage());
        }
    }

    /** A lab's nodes as its pod's annotation names them, when its kernel runs. */
    @Override
    protected List<String> runningNodes(String labId) throws EngineUnavailableException {
        List<Pod> found = pods(KubeLabels.umlOf(instance, labId));
        return found.isEmpty()
                        || !KubeCalls.running(found.get(0))
                        || !UmlScripts.bootedByThisBuild(
                                found.get(0).getMetadata().getLabels())
                ? List.of()
                : nodesOf(found.get(0));
    }

    @Override
    protected SidecarAgent attach(String labId) throws SidecarAgent.Gone, EngineUnavailableException {
        return attach(labId, ATTACH_TIMEOUT);
    }

    private SidecarAgent attach(String labId, Duration timeout) throws SidecarAgent.Gone, EngineUnavailableException {
        String pod = LabObjects.umlPodName(labId);
        try {
            return SidecarAgent.onConsole(
                    "pod " + pod, KubeAttach.to(client, namespace, pod, LabObjects.KERNEL_CONTAINER), timeout);
        } catch (KubernetesClientException e) {
            // As any call: a refusal (the pod went, RBAC lacks pods/attach) passes through; no answer is an outage.
            if (e.getCode() > 0) {
                throw e;
            }
            throw calls.unavailable(e);
        }
    }

    /** Deletes the lab's pod, with no grace (see {@link LabObjects#umlPod}). Idempotent. */
    @Override
    public void stop(String labId) throws EngineUnavailableException {
        agents.forget(labId);
        calls.call(() -> client.pods()
                .inNamespace(namespace)
                .withLabels(KubeLabels.umlOf(instance, labId))
                .withGracePeriod(0)
                .delete());
    }

    /** Every node of a lab whose kernel runs counts as running: they live and die with it. */
    @Override
    public List<NodeStatus> status(String labId) throws EngineUnavailableException {
        List<NodeStatus> nodes = new ArrayList<>();
        for (Pod pod : pods(KubeLabels.umlOf(instance, labId))) {
            boolean running = KubeCalls.running(pod);
            // A kernel another build booted counts as dead: adoption and the cull end its lab, saying why.
            boolean ours = UmlScripts.bootedByThisBuild(pod.getMetadata().getLabels());
            for (String node : nodesOf(pod)) {
                String state = !ours ? UmlScripts.OTHER_BUILD : running ? "running" : KubeCalls.phase(pod);
                nodes.add(new NodeStatus(node, running && ours, state));
            }
        }
        return nodes;
    }

    private List<Pod> pods(Map<String, String> selector) throws EngineUnavailableException {
        return calls.call(() ->
                client.pods().inNamespace(namespace).withLabels(selector).list().getItems());
    }

    private static List<String> nodesOf(Pod pod) {
        Map<String, String> annotations = pod.getMetadata().getAnnotations();
        String nodes = annotations == null ? null : annotations.get(LabelKeys.NODES);
        return nodes == null || nodes.isEmpty() ? List.of() : Arrays.asList(nodes.split(","));
    }

    /** In a pod of its own, on whichever cluster node: every cluster node runs the same kernel. */
    @Override
    protected SidecarAgent bootProbe(LabSpec spec, Duration timeout)
            throws LabStartException, EngineUnavailableException {
        try {
            return boot(spec, System.nanoTime() + timeout.toNanos());
        } catch (KubernetesClientException e) {
            throw KubeCalls.refused(e);
        }
    }

    @Override
    public Set<String> labsOnEngine() throws EngineUnavailableException {
        Set<String> labs = new HashSet<>();
        pods(KubeLabels.umlInstance(instance))
                .forEach(p -> labs.add(p.getMetadata().getLabels().get(LabelKeys.LAB)));
        return labs;
    }

    /** Deletes the UML lab pods of any instance past their expiry label (see the other Kubernetes runtime's). */
    @Override
    public Set<String> removeExpiredLabs(Instant now) throws EngineUnavailableException {
        Set<String> expired = new HashSet<>();
        for (Pod pod : pods(KubeLabels.allUmlPods())) {
            if (LabExpiry.passed(pod.getMetadata().getLabels().get(LabelKeys.EXPIRES), now)) {
                calls.call(() -> client.pods()
                        .inNamespace(namespace)
                        .withName(pod.getMetadata().getName())
                        .withGracePeriod(0)
                        .delete());
                String labId = pod.getMetadata().getLabels().get(LabelKeys.LAB);
                expired.add(labId);
                agents.forget(labId);
            }
        }
        return expired;
    }

    @PreDestroy
    void close() {
        agents.closeAll();
    }
}
