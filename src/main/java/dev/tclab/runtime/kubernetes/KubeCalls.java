package dev.tclab.runtime.kubernetes;

import dev.tclab.runtime.EngineStatus;
import dev.tclab.runtime.EngineUnavailableException;
import dev.tclab.runtime.LabStartException;
import dev.tclab.runtime.LabelKeys;
import dev.tclab.runtime.RootCause;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;

/**
 * What both Kubernetes runtimes (a pod per node, a pod per User-Mode Linux lab) ask the API server the same way: its
 * version, the namespace's NetworkPolicy, a lab's pods until they run, and every call with its failures sorted into
 * refusals (which pass through) and an API server out of reach.
 */
final class KubeCalls {

    /** How often a starting lab's pods are looked at. */
    private static final Duration POLL = Duration.ofMillis(200);
    /** Container waiting reasons that no amount of waiting cures. */
    private static final Set<String> HOPELESS = Set.of(
            "ErrImagePull",
            "ImagePullBackOff",
            "InvalidImageName",
            "CreateContainerConfigError",
            "CreateContainerError",
            "CrashLoopBackOff",
            "RunContainerError");

    private final KubernetesClient client;
    private final String namespace;
    private final LabObjects objects;
    private volatile boolean isolated;

    KubeCalls(KubernetesClient client, String namespace, LabObjects objects) {
        this.client = client;
        this.namespace = namespace;
        this.objects = objects;
    }

    EngineStatus engine() {
        String endpoint = client.getMasterUrl().toString();
        try {
            return EngineStatus.up("Kubernetes " + client.getKubernetesVersion().getGitVersion(), endpoint);
        } catch (RuntimeException e) {
            return EngineStatus.down(endpoint, RootCause.describe(e));
        }
    }

    /** Creates the namespace's NetworkPolicy that isolates lab pods, once per app; an existing one is kept. */
    void ensureIsolation() throws EngineUnavailableException {
        if (isolated) {
            return;
        }
        call(() -> {
            var policies = client.network().v1().networkPolicies().inNamespace(namespace);
            if (policies.withName(LabObjects.NETWORK_POLICY).get() == null) {
                policies.resource(objects.isolation()).create();
            }
            return null;
        });
        isolated = true;
    }

    /**
     * Waits until the {@code count} pods {@code selector} finds run with every container; fails early on what
     * waiting cannot cure, and at {@code deadline} ({@link System#nanoTime}) with each pod's phase.
     */
    List<Pod> awaitRunning(Map<String, String> selector, int count, long deadline, Duration startTimeout)
            throws LabStartException, EngineUnavailableException {
        while (true) {
            List<Pod> pods = call(() -> client.pods()
                    .inNamespace(namespace)
                    .withLabels(selector)
                    .list()
                    .getItems());
            for (Pod pod : pods) {
                String problem = hopeless(pod);
                if (problem != null) {
                    throw new LabStartException("node " + nodeOf(pod) + " cannot start: " + problem);
                }
            }
            if (pods.size() == count && pods.stream().allMatch(KubeCalls::running)) {
                return pods;
            }
            if (System.nanoTime() > deadline) {
                throw new LabStartException("the lab did not become ready within " + startTimeout.toSeconds()
                        + " s (pods: "
                        + pods.stream().map(p -> nodeOf(p) + " " + phase(p)).toList() + ")");
            }
            sleep(POLL);
        }
    }

    static boolean running(Pod pod) {
        return "Running".equals(phase(pod))
                && pod.getStatus().getContainerStatuses() != null
                && !pod.getStatus().getContainerStatuses().isEmpty()
                && pod.getStatus().getContainerStatuses().stream()
                        .allMatch(s -> s.getState() != null && s.getState().getRunning() != null);
    }

    static String phase(Pod pod) {
        return pod.getStatus() == null || pod.getStatus().getPhase() == null
                ? "Pending"
                : pod.getStatus().getPhase();
    }

    /** The lab node a pod holds, or the pod's name for a pod that holds a whole lab. */
    static String nodeOf(Pod pod) {
        return pod.getMetadata()
                .getLabels()
                .getOrDefault(LabelKeys.NODE, pod.getMetadata().getName());
    }

    /** Why a pod will never run, or null: an image that cannot be pulled, an unschedulable pod. */
    private static String hopeless(Pod pod) {
        if (pod.getStatus() == null) {
            return null;
        }
        if ("Failed".equals(pod.getStatus().getPhase())) {
            return "the pod failed: " + pod.getStatus().getReason();
        }
        if (pod.getStatus().getContainerStatuses() != null) {
            for (ContainerStatus status : pod.getStatus().getContainerStatuses()) {
                var waiting =
                        status.getState() == null ? null : status.getState().getWaiting();
                if (waiting != null && HOPELESS.contains(waiting.getReason())) {
                    return status.getName() + ": " + waiting.getReason() + " " + waiting.getMessage();
                }
            }
        }
        return null;
    }

    private static void sleep(Duration duration) throws LabStartException {
        try {
            Thread.sleep(duration.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new LabStartException("interrupted while starting", e);
        }
    }

    /** A call to the API server: its answers (codes) pass through; failing to reach it becomes a checked error. */
    <T> T call(Callable<T> call) throws EngineUnavailableException {
        try {
            return call.call();
        } catch (KubernetesClientException e) {
            if (e.getCode() > 0) {
                throw e;
            }
            throw unavailable(e);
        } catch (RuntimeException e) {
            throw unavailable(e);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    EngineUnavailableException unavailable(RuntimeException e) {
        return new EngineUnavailableException(
                "cannot reach the Kubernetes API server at " + client.getMasterUrl() + ": " + RootCause.describe(e), e);
    }

    /** The API server's refusal of a lab's start, in the words a learner or host sees. */
    static LabStartException refused(KubernetesClientException e) {
        return new LabStartException("the Kubernetes API server refused: " + RootCause.describe(e), e);
    }
}
