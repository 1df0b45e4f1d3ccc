package dev.tclab.bench;

import dev.tclab.runtime.ProcessStream;
import dev.tclab.runtime.RuntimeAdapter;
import dev.tclab.runtime.StreamListener;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeoutException;

/**
 * A node's login shell opened straight through a lab runtime ({@link RuntimeAdapter#shell}), in this JVM, without the
 * app's terminal socket: for a UML lab, the agent's terminal in its kernel, the most direct path to the learner's
 * shell. The floor of the app's prompt and echo figures on UML.
 */
final class RuntimeShell implements StreamListener, AutoCloseable {

    private final ByteArrayOutputStream output = new ByteArrayOutputStream();
    private final ProcessStream stream;
    private volatile String closed;

    private RuntimeShell(RuntimeAdapter runtime, String labId, String node) throws Exception {
        this.stream = runtime.shell(labId, node, List.of("bash", "-l"), this);
    }

    /** Milliseconds from asking {@code runtime} for {@code node}'s login shell to its prompt ({@code @<node>}). */
    static double promptMillis(RuntimeAdapter runtime, String labId, String node, Duration wait) throws Exception {
        long t0 = System.nanoTime();
        try (RuntimeShell shell = new RuntimeShell(runtime, labId, node)) {
            shell.await(node, wait);
            return (System.nanoTime() - t0) / 1e6;
        }
    }

    /** {@code keys} keystrokes to a new login shell of {@code node}, one at a time; each one's echo time in ns. */
    static long[] echoNanos(RuntimeAdapter runtime, String labId, String node, int keys) throws Exception {
        long[] nanos = new long[keys];
        try (RuntimeShell shell = new RuntimeShell(runtime, labId, node)) {
            shell.await(node, Duration.ofSeconds(30));
            Thread.sleep(500);
            for (int i = 0; i < keys; i++) {
                if (i > 0 && i % 50 == 0) {
                    shell.type("\u0015"); // Ctrl-U: keep the line short
                    Thread.sleep(200);
                }
                int before = shell.length();
                long start = System.nanoTime();
                shell.type("x");
                shell.awaitLongerThan(before, Duration.ofSeconds(5));
                nanos[i] = System.nanoTime() - start;
            }
        }
        return nanos;
    }

    private void type(String keys) {
        stream.write(keys.getBytes(StandardCharsets.UTF_8));
    }

    private void await(String node, Duration wait) throws Exception {
        long deadline = System.nanoTime() + wait.toNanos();
        synchronized (output) {
            while (!output.toString(StandardCharsets.UTF_8).contains("@" + node)) {
                waitUntil(deadline, "the prompt of " + node);
            }
        }
    }

    private int length() {
        synchronized (output) {
            return output.size();
        }
    }

    private void awaitLongerThan(int length, Duration wait) throws Exception {
        long deadline = System.nanoTime() + wait.toNanos();
        synchronized (output) {
            while (output.size() <= length) {
                waitUntil(deadline, "the echo");
            }
        }
    }

    /** Waits on {@code output}'s monitor (held) until notified; throws once past the deadline or closed. */
    private void waitUntil(long deadline, String what) throws Exception {
        long left = deadline - System.nanoTime();
        if (closed != null) {
            throw new IllegalStateException("the shell ended (" + closed + ") before " + what + ": " + output);
        }
        if (left <= 0) {
            throw new TimeoutException("no " + what + " within the wait: " + output);
        }
        output.wait(Math.max(1, left / 1_000_000));
    }

    @Override
    public void onOutput(byte[] chunk) {
        synchronized (output) {
            output.writeBytes(chunk);
            output.notifyAll();
        }
    }

    @Override
    public void onClosed(String reason) {
        synchronized (output) {
            closed = reason;
            output.notifyAll();
        }
    }

    @Override
    public void close() {
        stream.close();
    }
}
