package dev.tclab.lab.docker;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.exception.DockerException;
import com.github.dockerjava.api.exception.NotFoundException;
import com.github.dockerjava.api.model.Container;
import dev.tclab.lab.EngineStatus;
import dev.tclab.lab.EngineUnavailableException;
import dev.tclab.lab.LabExpiry;
import java.time.Instant;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.function.Consumer;

/**
 * Calls to one Docker engine, as every runtime on it makes them: the engine's own API errors pass through; failing to
 * reach the engine becomes a checked {@link EngineUnavailableException} that says where and why.
 */
public final class EngineCalls {

    private final DockerClient docker;
    private final String endpoint;

    public EngineCalls(DockerClient docker, String endpoint) {
        this.docker = docker;
        this.endpoint = endpoint;
    }

    /** Whether the engine answers, and its version; never throws. */
    public EngineStatus engine() {
        try {
            docker.pingCmd().exec();
            return EngineStatus.up(docker.versionCmd().exec().getVersion(), endpoint);
        } catch (RuntimeException e) {
            return EngineStatus.down(endpoint, describe(e));
        }
    }

    public boolean imagePresent(String image) throws EngineUnavailableException {
        return call(() -> {
            try {
                docker.inspectImageCmd(image).exec();
                return true;
            } catch (NotFoundException e) {
                return false;
            }
        });
    }

    /** The labs of the containers the labels select. */
    public Set<String> labs(Map<String, String> labels) throws EngineUnavailableException {
        return call(() -> {
            Set<String> labs = new HashSet<>();
            for (Container c : docker.listContainersCmd().withShowAll(true).withLabelFilter(labels).exec()) {
                String lab = c.getLabels().get(Labels.LAB);
                if (lab != null) {
                    labs.add(lab);
                }
            }
            return labs;
        });
    }

    /**
     * Removes (with {@code remover}) the containers the labels select that are past their expiry; their labs (a
     * throwaway container, such as a kernel probe, belongs to none).
     */
    public Set<String> removeExpired(Map<String, String> labels, Instant now, Consumer<String> remover)
            throws EngineUnavailableException {
        return call(() -> {
            Set<String> expired = new HashSet<>();
            for (Container c : docker.listContainersCmd().withShowAll(true).withLabelFilter(labels).exec()) {
                if (LabExpiry.passed(c.getLabels().get(Labels.EXPIRES), now)) {
                    remover.accept(c.getId());
                    String lab = c.getLabels().get(Labels.LAB);
                    if (lab != null) {
                        expired.add(lab);
                    }
                }
            }
            return expired;
        });
    }

    public <T> T call(Callable<T> call) throws EngineUnavailableException {
        try {
            return call.call();
        } catch (DockerException e) {
            throw e;
        } catch (RuntimeException e) {
            throw unavailable(e);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof DockerException de) {
                throw de;
            }
            if (e.getCause() instanceof RuntimeException re) {
                throw unavailable(re);
            }
            throw new IllegalStateException(e.getCause());
        } catch (EngineUnavailableException e) {
            throw e;
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    public EngineUnavailableException unavailable(RuntimeException e) {
        return new EngineUnavailableException("cannot reach the Docker engine at " + endpoint + ": " + describe(e), e);
    }

    /** The innermost cause's message: what an operator can act on. */
    public static String describe(Throwable e) {
        Throwable root = e;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        String message = root.getMessage() == null ? root.getClass().getSimpleName() : root.getMessage();
        return message.trim();
    }
}
