package dev.tclab.runtime.docker;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.exception.DockerException;
import com.github.dockerjava.api.exception.NotFoundException;
import com.github.dockerjava.api.model.Container;
import com.github.dockerjava.core.DockerClientConfig;
import dev.tclab.runtime.EngineStatus;
import dev.tclab.runtime.EngineUnavailableException;
import dev.tclab.runtime.LabExpiry;
import dev.tclab.runtime.LabelKeys;
import dev.tclab.runtime.RootCause;
import java.net.SocketException;
import java.time.Instant;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.function.Consumer;
import javax.net.ssl.SSLException;

/**
 * Calls to one Docker engine, as every runtime on it makes them: the engine's own API errors pass through; failing to
 * reach the engine becomes a checked {@link EngineUnavailableException} that says where and why.
 */
public final class EngineCalls {

    private final DockerClient docker;
    private final String endpoint;
    /** Whether the client talks TLS to the engine (DOCKER_TLS_VERIFY with DOCKER_CERT_PATH). */
    private final boolean tls;

    public EngineCalls(DockerClient docker, DockerClientConfig config) {
        this.docker = docker;
        this.endpoint = config.getDockerHost().toString();
        this.tls = config.getSSLConfig() != null;
    }

    /** Whether the engine answers, and its version; never throws. */
    public EngineStatus engine() {
        try {
            docker.pingCmd().exec();
            return EngineStatus.up(docker.versionCmd().exec().getVersion(), endpoint);
        } catch (RuntimeException e) {
            return EngineStatus.down(endpoint, explain(e));
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
            for (Container c : docker.listContainersCmd()
                    .withShowAll(true)
                    .withLabelFilter(labels)
                    .exec()) {
                String lab = c.getLabels().get(LabelKeys.LAB);
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
            for (Container c : docker.listContainersCmd()
                    .withShowAll(true)
                    .withLabelFilter(labels)
                    .exec()) {
                if (LabExpiry.passed(c.getLabels().get(LabelKeys.EXPIRES), now)) {
                    remover.accept(c.getId());
                    String lab = c.getLabels().get(LabelKeys.LAB);
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
        return new EngineUnavailableException("cannot reach the Docker engine at " + endpoint + ": " + explain(e), e);
    }

    /**
     * {@link RootCause#describe}, and over TLS, where the certificates come from when the connection broke: an engine that
     * refuses the client's certificate (TLS 1.3) only closes the connection, which the client sees as "Broken pipe"
     * or "Connection reset", and a client that does not trust the engine says "PKIX path building failed".
     */
    private String explain(Throwable e) {
        String message = RootCause.describe(e);
        return tls && brokenByPeer(e)
                ? message + " (over TLS this is how a certificate is refused: DOCKER_CERT_PATH "
                        + "must hold the engine's CA certificate as ca.pem and a client certificate that CA signed as cert.pem, "
                        + "with its key.pem)"
                : message;
    }

    private static boolean brokenByPeer(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            String message = t.getMessage() == null ? "" : t.getMessage();
            if (t instanceof SSLException
                    || t instanceof SocketException
                            && (message.contains("Broken pipe") || message.contains("Connection reset"))) {
                return true;
            }
        }
        return false;
    }
}
