package dev.tclab.bench;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.async.ResultCallback;
import com.github.dockerjava.api.model.Frame;
import java.io.PipedInputStream;
import java.io.PipedOutputStream;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The floor of keystroke-to-echo latency: a {@code bash -l} started by a direct docker-java exec attach with a TTY,
 * with no app in between. One key at a time; the clock stops at the first byte of the echo.
 */
final class ExecAttachEcho {

    private ExecAttachEcho() {}

    /** {@code keys} keystrokes to a new shell in the container, {@code pauseMillis} apart; each one's echo time in ns. */
    static long[] latencies(DockerClient docker, String containerId, int keys, long pauseMillis) throws Exception {
        String exec = docker.execCreateCmd(containerId)
                .withCmd("bash", "-l")
                .withTty(true)
                .withAttachStdin(true)
                .withAttachStdout(true)
                .withAttachStderr(true)
                .withEnv(List.of("TERM=xterm-256color"))
                .exec()
                .getId();
        PipedOutputStream keyboard = new PipedOutputStream();
        PipedInputStream stdin = new PipedInputStream(keyboard, 4096);
        AtomicLong received = new AtomicLong();
        Object signal = new Object();
        ResultCallback.Adapter<Frame> callback = new ResultCallback.Adapter<>() {
            @Override
            public void onNext(Frame frame) {
                synchronized (signal) {
                    received.addAndGet(frame.getPayload().length);
                    signal.notifyAll();
                }
            }
        };
        long[] nanos = new long[keys];
        try (callback) {
            docker.execStartCmd(exec).withTty(true).withStdIn(stdin).exec(callback);
            Thread.sleep(1500);
            for (int i = 0; i < nanos.length; i++) {
                if (i > 0 && i % 50 == 0) {
                    keyboard.write(0x15); // Ctrl-U: keep the line short
                    keyboard.flush();
                    Thread.sleep(200);
                }
                long before;
                synchronized (signal) {
                    before = received.get();
                }
                long start = System.nanoTime();
                keyboard.write('x');
                keyboard.flush();
                synchronized (signal) {
                    long deadline = System.currentTimeMillis() + 5000;
                    while (received.get() == before && System.currentTimeMillis() < deadline) {
                        signal.wait(5000);
                    }
                }
                nanos[i] = System.nanoTime() - start;
                Thread.sleep(pauseMillis);
            }
            keyboard.write("\u0015exit\r".getBytes());
            keyboard.close();
            // Let the shell end before the attach is closed, or docker-java's stdin copier writes to a closed socket.
            callback.awaitCompletion(5, java.util.concurrent.TimeUnit.SECONDS);
        }
        return nanos;
    }
}
