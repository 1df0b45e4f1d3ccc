package dev.tclab.runtime.kubernetes;

import dev.tclab.runtime.BoundedCommand;
import dev.tclab.runtime.ExecResult;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.ExecWatch;
import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.jboss.logging.Logger;

/**
 * Runs a command in a pod's container through the API server and captures its output, bounded as on Docker (see
 * {@link BoundedCommand}): timeout(1) inside, the app's own deadline outside, output capped. A Kubernetes exec cannot
 * set the environment, so {@code env} puts the marker on the command's processes.
 */
final class KubeExec {

    private static final Logger LOG = Logger.getLogger(KubeExec.class);

    private KubeExec() {}

    static ExecResult run(
            KubernetesClient client,
            String namespace,
            String pod,
            String container,
            List<String> command,
            Duration timeout) {
        long seconds = BoundedCommand.seconds(timeout);
        String marker = UUID.randomUUID().toString();
        List<String> wrapped = new ArrayList<>(List.of("env", BoundedCommand.MARKER + "=" + marker));
        wrapped.addAll(BoundedCommand.withTimeout(command, seconds));
        CappedOutput out = new CappedOutput();
        CappedOutput err = new CappedOutput();
        try (ExecWatch watch = client.pods()
                .inNamespace(namespace)
                .withName(pod)
                .inContainer(container)
                .writingOutput(out)
                .writingError(err)
                .exec(wrapped.toArray(String[]::new))) {
            int code = watch.exitCode().get(BoundedCommand.deadlineMillis(seconds), TimeUnit.MILLISECONDS);
            boolean timedOut = code == BoundedCommand.TIMEOUT_EXIT;
            return result(timedOut ? -1 : code, out, err, timedOut);
        } catch (TimeoutException e) {
            killMarked(client, namespace, pod, container, marker);
            return result(-1, out, err, true);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            killMarked(client, namespace, pod, container, marker);
            return result(-1, out, err, true);
        } catch (ExecutionException e) {
            throw e.getCause() instanceof RuntimeException re ? re : new IllegalStateException(e.getCause());
        }
    }

    private static ExecResult result(int code, CappedOutput out, CappedOutput err, boolean timedOut) {
        return new ExecResult(code, out.text(), err.text(), timedOut, out.truncated() || err.truncated());
    }

    /** Closing an exec's stream does not reliably end its process; killing it by its marker does. */
    private static void killMarked(
            KubernetesClient client, String namespace, String pod, String container, String marker) {
        try (ExecWatch kill = client.pods()
                .inNamespace(namespace)
                .withName(pod)
                .inContainer(container)
                .writingOutput(OutputStream.nullOutputStream())
                .writingError(OutputStream.nullOutputStream())
                .exec("sh", "-c", BoundedCommand.killMarked(marker))) {
            kill.exitCode().get(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException | TimeoutException | RuntimeException e) {
            // The pod is gone, or the API server with it: so is the command.
            LOG.debugf("killing a timed-out command in %s failed: %s", pod, e.getMessage());
        }
    }

    /** Keeps the first {@link BoundedCommand#MAX_CAPTURE_BYTES} written, and reads and drops the rest. */
    static final class CappedOutput extends OutputStream {
        private final ByteArrayOutputStream kept = new ByteArrayOutputStream();
        private boolean truncated;

        @Override
        public synchronized void write(int b) {
            write(new byte[] {(byte) b}, 0, 1);
        }

        @Override
        public synchronized void write(byte[] bytes, int offset, int length) {
            int room = BoundedCommand.MAX_CAPTURE_BYTES - kept.size();
            if (length > room) {
                truncated = true;
            }
            kept.write(bytes, offset, Math.max(0, Math.min(room, length)));
        }

        synchronized String text() {
            return kept.toString(StandardCharsets.UTF_8);
        }

        synchronized boolean truncated() {
            return truncated;
        }
    }
}
