package dev.tclab.runtime.agent;

import dev.tclab.runtime.BoundedCommand;
import dev.tclab.runtime.ExecResult;
import dev.tclab.runtime.ProcessStream;
import dev.tclab.runtime.QueueInputStream;
import dev.tclab.runtime.StreamListener;
import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import org.jboss.logging.Logger;

/**
 * Runs commands in a measurement sidecar through the sidecar's main process ({@code sidecar-agent.pl}), attached
 * over its standard input and output, instead of one exec each. A Docker exec costs the engine 50-80 ms of CPU
 * (runc starting a process in the container): a class of 30 pressing Check at once made 90 of them, and they, not
 * the measurements, were what the Checks waited for. A fork in the agent costs about a millisecond.
 *
 * <p>The bounds are a runtime's exec's ({@link BoundedCommand}): the command runs under timeout(1) (the sidecar's own, which the learner
 * cannot replace), the first {@link BoundedCommand#MAX_CAPTURE_BYTES} of each stream are kept, and past the app's
 * deadline the agent kills the command's processes. Once the attachment breaks (the engine or the container went
 * away) its commands throw {@link Gone}: a new one attaches, or the caller falls back to an exec.
 *
 * <p>The User-Mode Linux labs talk to the same agent in a UML kernel, over the kernel's console ({@link #onConsole}):
 * there the agent's output starts with the kernel's boot, the agent also streams processes ({@link #stream}), and what
 * is sent waits for the agent to acknowledge what it read, since the console hangs when more than its 4 KiB input
 * buffer arrives at once.
 *
 * <p>The agent knows no runtime: each one carries its standard input and output its own way ({@link Attachment}), a
 * Docker container's attach stream or a pod's.
 */
public final class SidecarAgent implements AutoCloseable, KernelHeartbeat.Pulse {

    private static final Logger LOG = Logger.getLogger(SidecarAgent.class);
    /** The agent's program, run as the sidecar's command: {@code perl -e SCRIPT}. */
    static final String SCRIPT = readScript();

    private static final String VERSION = ScriptDigest.of(SCRIPT);

    private static final Duration KILL_WAIT = Duration.ofSeconds(5);
    /** Input bytes sent to a console agent and not yet acknowledged, at most: well under the console's 4 KiB. */
    private static final int CONSOLE_WINDOW = 2048;
    /** Stream input per request line: its hex stays well under the window, so a keystroke never waits on a paste. */
    private static final int INPUT_CHUNK = 512;
    /**
     * Requests queued for the agent past which a stream refuses more input (its terminal drops it with a note): the
     * platform's next request waits behind at most this much. With the whole 1 MiB queue open to a terminal's input,
     * a UML lab's console (0.3-0.6 MB/s on a loaded machine) held a check behind it for 1.4 to 27 s.
     */
    private static final int STREAM_INPUT_AHEAD = 32 * 1024;

    private final String where;
    private final QueueInputStream stdin = new QueueInputStream(1 << 20);
    private final Map<String, CompletableFuture<ExecResult>> waiting = new ConcurrentHashMap<>();
    private final Map<String, AgentStream> streams = new ConcurrentHashMap<>();
    private final CompletableFuture<Void> ready = new CompletableFuture<>();
    /** What a UML kernel's console printed before the agent was ready; null for a sidecar. */
    private final BootConsole bootConsole;

    private final WindowedInput window;
    private final AgentAnswers answers;
    private final Closeable attachment;
    /** Why the agent can no longer run commands, or null while it can. */
    private volatile String gone;
    /** How many times its output arrived: a UML kernel's heartbeat ({@link KernelHeartbeat}). */
    private final AtomicLong heard = new AtomicLong();
    /** Whether the attachment ended: the engine or the container went away, and nothing can be heard any more. */
    private volatile boolean detached;

    /** How a runtime carries the agent's standard input and output: a Docker container's attach, a pod's. */
    @FunctionalInterface
    public interface Attachment {
        /**
         * Starts sending {@code input} to the agent's standard input and telling {@code output} what it prints; closing
         * what it returns ends the attachment.
         */
        Closeable attach(InputStream input, Output output);
    }

    /** What an {@link Attachment} tells the agent's client. */
    public interface Output {
        /** What the agent printed on its standard output: its answers. */
        void stdout(byte[] bytes);

        /** What the agent printed on its standard error: logged only. */
        void stderr(byte[] bytes);

        /** The attachment ended or broke; {@code why} says which. */
        void ended(String why);
    }

    /** The sidecar's command: the agent. */
    public static List<String> command() {
        return List.of("perl", "-e", SCRIPT);
    }

    /** The agent that is a sidecar's main process, attached from its start ({@code where} names it in the log). */
    public static SidecarAgent attached(String where, Attachment attachment) {
        return new SidecarAgent(where, attachment, false);
    }

    /**
     * The agent in a UML kernel, on the kernel's console (the standard input and output of the kernel's process);
     * returns once the agent said it is ready. Throws {@link Gone} when it did not within {@code timeout}.
     */
    public static SidecarAgent onConsole(String where, Attachment attachment, Duration timeout) throws Gone {
        SidecarAgent agent = new SidecarAgent(where, attachment, true);
        agent.send("P");
        try {
            agent.ready.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
            return agent;
        } catch (TimeoutException e) {
            agent.close();
            throw new Gone(agent.withLastWords("it did not answer within " + timeout.toSeconds() + " s"));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            agent.close();
            throw new Gone("interrupted while waiting for it");
        } catch (ExecutionException e) {
            agent.close();
            throw new Gone(agent.withLastWords(e.getCause().getMessage()));
        }
    }

    /**
     * How the UML kernel on whose console this agent runs runs its processes (seccomp or ptrace), from what it printed
     * before it started; null for an agent in a sidecar container.
     */
    public String kernelMode() {
        return bootConsole == null ? null : bootConsole.userspaceMode();
    }

    /** {@code why}, and what the kernel's console last said of note before its agent was ready. */
    private String withLastWords(String why) {
        String words = bootConsole.lastWords();
        return words.isEmpty() ? why + "; its console printed nothing" : why + "; its console last said: " + words;
    }

    /**
     * The version of the agent's program, from its content: a label on the containers that run it, so that one made
     * by another build (whose agent may not answer as this one asks) is told apart.
     */
    public static String version() {
        return VERSION;
    }

    /** The agent's program, for a runtime that runs it otherwise than as a sidecar's command. */
    public static String script() {
        return SCRIPT;
    }

    private SidecarAgent(String where, Attachment attachment, boolean console) {
        this.where = where;
        this.window = console ? new WindowedInput(stdin, CONSOLE_WINDOW) : null;
        this.bootConsole = console ? new BootConsole() : null;
        this.answers = new AgentAnswers(
                this::answered,
                this::end,
                new AgentAnswers.Events() {
                    @Override
                    public void output(String id, byte[] chunk) {
                        AgentStream stream = streams.get(id);
                        if (stream != null) {
                            stream.listener.onOutput(chunk);
                        }
                    }

                    @Override
                    public void ended(String id, int exitCode) {
                        AgentStream stream = streams.remove(id);
                        if (stream != null) {
                            stream.ended("the process exited");
                        }
                    }

                    @Override
                    public void acknowledged(int bytes) {
                        if (window != null) {
                            window.acknowledge(bytes);
                        }
                    }

                    @Override
                    public void ready() {
                        ready.complete(null);
                    }
                },
                console);
        this.attachment = attachment.attach(window != null ? window : stdin, new Output() {
            @Override
            public void stdout(byte[] bytes) {
                heard.incrementAndGet();
                if (bootConsole != null && !ready.isDone() && bootConsole.feed(bytes)) {
                    // A panicked UML kernel spins where it stopped: waiting out the start's timeout changes nothing.
                    end("it panicked");
                }
                answers.feed(bytes);
            }

            @Override
            public void stderr(byte[] bytes) {
                LOG.debugf("agent in %s: %s", where, new String(bytes, StandardCharsets.UTF_8));
                // A UML kernel prints its checks before it starts (seccomp or ptrace) on its standard error.
                if (bootConsole != null && !ready.isDone()) {
                    bootConsole.feed(bytes);
                }
            }

            @Override
            public void ended(String why) {
                detached = true;
                end(why);
            }
        });
    }

    /**
     * Starts {@code command} as a streamed process of the agent (with a pseudo-terminal of {@code columns} x
     * {@code rows} when {@code tty}) whose output goes to {@code listener} until it ends or the stream is closed.
     */
    public ProcessStream stream(List<String> command, boolean tty, StreamListener listener) throws Gone {
        return open(tty ? "T" : "S", command, tty, listener);
    }

    /**
     * Starts perl {@code source} with {@code args} as its {@code @ARGV} in a fork of the agent, on a pseudo-terminal
     * as {@link #stream} with a TTY, starting no program for it (as {@link #runPerl}); the source may exec one.
     */
    public ProcessStream terminalOfPerl(String source, List<String> args, StreamListener listener) throws Gone {
        List<String> argv = new ArrayList<>(List.of(source));
        argv.addAll(args);
        return open("U", argv, true, listener);
    }

    private ProcessStream open(String kind, List<String> argv, boolean tty, StreamListener listener) throws Gone {
        String id = UUID.randomUUID().toString();
        AgentStream stream = new AgentStream(id, listener);
        streams.put(id, stream);
        String request = kind + " " + id + (tty ? " 80 24 " : " ") + hex(argv);
        if (gone != null || !send(request)) {
            streams.remove(id);
            throw new Gone(gone != null ? gone : "its input is full");
        }
        return stream;
    }

    /**
     * Runs {@code command} as a runtime's exec does. Throws {@link Gone} when the agent cannot take it, or went
     * away before it answered (the command may then have run).
     */
    public ExecResult run(List<String> command, Duration timeout) throws Gone {
        long seconds = BoundedCommand.seconds(timeout);
        return request("R", BoundedCommand.withTimeout(command, seconds), seconds);
    }

    /**
     * Runs perl {@code source} with {@code args} as its {@code @ARGV} in a fork of the agent, which starts no program
     * for it (in a UML kernel a new perl costs 0.1-0.5 s); bounded as {@link #run} is, by the agent killing it past
     * the deadline.
     */
    public ExecResult runPerl(String source, List<String> args, Duration timeout) throws Gone {
        List<String> argv = new ArrayList<>(List.of(source));
        argv.addAll(args);
        return request("E", argv, BoundedCommand.seconds(timeout));
    }

    private ExecResult request(String kind, List<String> argv, long seconds) throws Gone {
        String id = UUID.randomUUID().toString();
        CompletableFuture<ExecResult> answer = new CompletableFuture<>();
        waiting.put(id, answer);
        try {
            if (gone != null || !send(kind + " " + id + " " + hex(argv))) {
                throw new Gone(gone != null ? gone : "its input is full");
            }
            try {
                return answer.get(BoundedCommand.deadlineMillis(seconds), TimeUnit.MILLISECONDS);
            } catch (TimeoutException e) {
                return killed(id, answer);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                send("K " + id);
                return new ExecResult(-1, "", "", true);
            } catch (ExecutionException e) {
                throw new Gone(e.getCause().getMessage());
            }
        } finally {
            waiting.remove(id);
        }
    }

    /** Past the deadline: the command's process group is killed; what it printed until then is its output. */
    private ExecResult killed(String id, CompletableFuture<ExecResult> answer) {
        send("K " + id);
        try {
            ExecResult last = answer.get(KILL_WAIT.toMillis(), TimeUnit.MILLISECONDS);
            return new ExecResult(-1, last.stdout(), last.stderr(), true, last.truncated());
        } catch (TimeoutException e) {
            LOG.warnf("could not kill a timed-out command in %s within %d s", where, KILL_WAIT.toSeconds());
            return new ExecResult(-1, "", "", true);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new ExecResult(-1, "", "", true);
        } catch (ExecutionException e) {
            // Gone while killing: the command timed out all the same, and must not run again by exec.
            return new ExecResult(-1, "", "", true);
        }
    }

    private boolean send(String line) {
        return stdin.offer((line + "\n").getBytes(StandardCharsets.US_ASCII));
    }

    /** Each argument's bytes in hex, separated by a NUL (00): no byte of an argument can break the request's line. */
    private static String hex(List<String> argv) {
        StringBuilder line = new StringBuilder();
        for (String arg : argv) {
            if (!line.isEmpty()) {
                line.append("00");
            }
            line.append(HexFormat.of().formatHex(arg.getBytes(StandardCharsets.UTF_8)));
        }
        return line.toString();
    }

    private void answered(String id, ExecResult result) {
        CompletableFuture<ExecResult> answer = waiting.get(id);
        if (answer != null) {
            answer.complete(result);
        }
    }

    private void end(String why) {
        fail(why);
        streams.values().forEach(s -> s.lost("the lab's agent went away: " + why));
        streams.clear();
    }

    private void fail(String why) {
        if (gone == null) {
            gone = why;
        }
        waiting.values().forEach(f -> f.completeExceptionally(new Gone(why)));
        ready.completeExceptionally(new Gone(why));
    }

    /**
     * Counts its output even once it is gone: an agent whose output fell out of step still hears whether its kernel
     * answers a {@link #ping}.
     */
    @Override
    public long heard() {
        return heard.get();
    }

    /** Whether the attachment ended (the engine or the container went away): nothing more can be heard on it. */
    public boolean detached() {
        return detached;
    }

    /** The agent answers with its ready line (and the acknowledgement of the request). */
    @Override
    public void ping() {
        send("P");
    }

    /**
     * Gives up on an agent whose kernel stopped answering: its requests fail and its streams end with {@code why}, as
     * their process's end (a terminal says it and offers no reconnection), then the attachment is closed.
     */
    public void abandon(String why) {
        fail(why);
        streams.values().forEach(s -> s.ended(why));
        streams.clear();
        close();
    }

    /** Whether the agent can no longer take requests. */
    public boolean gone() {
        return gone != null;
    }

    @Override
    public void close() {
        end("closed");
        stdin.close();
        if (window != null) {
            window.acknowledge(Integer.MAX_VALUE);
        }
        try {
            attachment.close();
        } catch (IOException e) {
            // Closing a stream that broke already cannot fail in a way that matters.
        }
    }

    /** The agent cannot run commands (any more); {@code getMessage()} says why. */
    public static final class Gone extends Exception {
        public Gone(String why) {
            super(why);
        }
    }

    /** A streamed process of the agent. */
    private final class AgentStream implements ProcessStream {
        private final String id;
        private final StreamListener listener;
        private final java.util.concurrent.atomic.AtomicBoolean reported =
                new java.util.concurrent.atomic.AtomicBoolean();

        AgentStream(String id, StreamListener listener) {
            this.id = id;
            this.listener = listener;
        }

        @Override
        public boolean write(byte[] input) {
            if (reported.get()) {
                return true; // its process is gone: there is nobody to tell
            }
            if (stdin.available() > STREAM_INPUT_AHEAD) {
                return false;
            }
            for (int from = 0; from < input.length; from += INPUT_CHUNK) {
                byte[] chunk = Arrays.copyOfRange(input, from, Math.min(input.length, from + INPUT_CHUNK));
                if (!send("I " + id + " " + HexFormat.of().formatHex(chunk))) {
                    return false;
                }
            }
            return true;
        }

        @Override
        public void resize(int columns, int rows) {
            send("Z " + id + " " + Math.max(1, Math.min(9999, columns)) + " " + Math.max(1, Math.min(9999, rows)));
        }

        @Override
        public void close() {
            if (streams.remove(id) != null) {
                send("C " + id);
            }
            ended("closed");
        }

        void ended(String reason) {
            if (reported.compareAndSet(false, true)) {
                listener.onClosed(reason);
            }
        }

        void lost(String reason) {
            if (reported.compareAndSet(false, true)) {
                listener.onEngineLost(reason);
            }
        }
    }

    /**
     * The attach's input for a console agent: what the attach reads (and sends) waits while {@code limit} bytes are
     * unacknowledged by the agent. One reader (the attach's thread); acknowledgements come from the output's.
     */
    private static final class WindowedInput extends InputStream {
        private final InputStream source;
        private final int limit;
        private int unacknowledged;

        WindowedInput(InputStream source, int limit) {
            this.source = source;
            this.limit = limit;
        }

        @Override
        public int read() throws IOException {
            byte[] one = new byte[1];
            int n = read(one, 0, 1);
            return n < 0 ? -1 : one[0] & 0xff;
        }

        @Override
        public int read(byte[] buffer, int offset, int length) throws IOException {
            int room;
            synchronized (this) {
                while (unacknowledged >= limit) {
                    try {
                        wait();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        return -1;
                    }
                }
                room = limit - unacknowledged;
            }
            int n = source.read(buffer, offset, Math.min(length, room));
            if (n > 0) {
                synchronized (this) {
                    unacknowledged += n;
                }
            }
            return n;
        }

        @Override
        public int available() throws IOException {
            return source.available();
        }

        synchronized void acknowledge(int bytes) {
            unacknowledged = (int) Math.max(0, (long) unacknowledged - bytes);
            notifyAll();
        }
    }

    private static String readScript() {
        try (InputStream in = SidecarAgent.class.getResourceAsStream("sidecar-agent.pl")) {
            if (in == null) {
                throw new IllegalStateException("sidecar-agent.pl is missing from the build");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
