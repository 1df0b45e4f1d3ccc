package dev.tclab.terminal;

import dev.tclab.runtime.EngineUnavailableException;
import dev.tclab.runtime.LabRuntime;
import dev.tclab.runtime.NodeNotFoundException;
import dev.tclab.runtime.ProcessStream;
import dev.tclab.runtime.StreamListener;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * One learner's shell on one lab node. It outlives the WebSocket that shows it by a grace period, keeping its recent
 * output, so a page that reconnects finds the same shell and screen. At most one page is attached at a time;
 * besides it, workshop hosts may watch (see every output) and type, which the learner is told in their terminal.
 */
final class TerminalSession implements StreamListener {

    /** Keys, Ctrl-C too, queue behind what waits: they reach the shell once its command reads or ends. */
    static final byte[] INPUT_DROPPED_NOTICE = ("\r\n[tclab: input dropped: the running command is not reading its "
                    + "input (1 MiB is waiting); keys work again once it reads or ends]\r\n")
            .getBytes(java.nio.charset.StandardCharsets.UTF_8);
    /**
     * Shown when a new shell stays silent on a node at its process limit (issue 25, row 8): bash retries its forks
     * for seconds before it prints a prompt, and says nothing meanwhile. Its built-in kill needs no new process.
     */
    static final byte[] PROCESS_LIMIT_NOTICE = ("\r\n[tclab: this node has hit its process limit: kill something or "
                    + "reset the lab. The prompt comes once bash gives up forking; its built-in kill needs no new "
                    + "process]\r\n")
            .getBytes(java.nio.charset.StandardCharsets.UTF_8);
    /** What bash and sh print when a fork fails at the process limit ("fork: ... Resource temporarily ..."). */
    private static final String FORK_FAILED = "fork";

    private static final Duration HOST_NOTICE_EVERY = Duration.ofSeconds(15);
    /**
     * How often at most the learner is told that input is dropped. Not once per run of refused writes: while the
     * queue fills, the engine's writer still drains a little of it into its socket now and then, so a write between
     * two refused ones may be taken, and a paste would say it twice (as TerminalDockerIT saw).
     */
    static final Duration INPUT_DROPPED_NOTICE_EVERY = Duration.ofSeconds(10);

    /** Changes once at most: from the pool's key to its learner's, when a pooled lab's shell is handed out. */
    private volatile SessionKey key;

    private final OutputRing recent;
    private final Consumer<TerminalSession> onEnd;
    private final Object lock = new Object();
    private final InstantSource clock;
    private ProcessStream process;
    private TerminalSink sink;
    private int attaches;
    private ScheduledFuture<?> expiry;
    private String endReason;
    private Instant lastInputDroppedNotice = Instant.EPOCH;
    /** Whether the shell was given the platform's notice (see {@link #notice}). */
    private boolean noticed;

    private final Set<TerminalSink> watchers = new LinkedHashSet<>();
    private Instant lastHostNotice = Instant.EPOCH;

    TerminalSession(SessionKey key, int replayBytes, Consumer<TerminalSession> onEnd, InstantSource clock) {
        this.key = key;
        this.recent = new OutputRing(replayBytes);
        this.onEnd = onEnd;
        this.clock = clock;
    }

    SessionKey key() {
        return key;
    }

    /** This shell, started with a pooled lab, now belongs to the learner the lab was handed to. */
    void handTo(SessionKey learners) {
        key = learners;
    }

    /** How many pages attached to this shell so far; 1 right after the first attach means a new shell. */
    int attaches() {
        synchronized (lock) {
            return attaches;
        }
    }

    /**
     * Starts the shell unless it runs already; concurrent callers wait for the first one. True when this call started
     * it.
     */
    boolean startIfNeeded(LabRuntime runtime, List<String> command)
            throws EngineUnavailableException, NodeNotFoundException {
        synchronized (this) {
            if (process != null || ended()) {
                return false;
            }
            ProcessStream started = runtime.shell(key.labId(), key.node(), command, this);
            synchronized (lock) {
                if (endReason == null) {
                    process = started;
                    return true;
                }
            }
            started.close();
            return false;
        }
    }

    /**
     * Whether the shell is alive and has printed nothing yet but that its forks failed (bash at a process limit says
     * "fork: retry: Resource temporarily unavailable", and no word of what to do), nor been given a notice. The
     * output is looked at whole, as a chunk may end inside a line.
     */
    boolean silent() {
        synchronized (lock) {
            return endReason == null
                    && !noticed
                    && new String(recent.snapshot(), java.nio.charset.StandardCharsets.UTF_8)
                            .lines()
                            .allMatch(line -> line.isBlank() || line.contains(FORK_FAILED));
        }
    }

    /** Writes the platform's {@code notice} to the screens (never into the shell), kept for a page that reconnects. */
    void notice(byte[] notice) {
        synchronized (lock) {
            noticed = true;
            recent.append(notice);
            if (sink != null) {
                sink.output(notice);
            }
            watchers.forEach(v -> v.output(notice));
        }
    }

    /**
     * Shows this shell on {@code page}: the recent output first, then everything new. A page attached before is
     * told it was taken over. False when the shell has already ended (the caller then starts a new one).
     */
    boolean attach(TerminalSink page) {
        TerminalSink previous;
        synchronized (lock) {
            if (endReason != null) {
                return false;
            }
            if (expiry != null) {
                expiry.cancel(false);
                expiry = null;
            }
            previous = sink;
            sink = page;
            attaches++;
            byte[] replay = recent.snapshot();
            if (replay.length > 0) {
                page.output(replay);
            }
        }
        if (previous != null && previous != page) {
            previous.takenOver();
        }
        return true;
    }

    /** A host's viewer sees this shell: the recent output first, then everything new. False when it has ended. */
    boolean watch(TerminalSink viewer) {
        synchronized (lock) {
            if (endReason != null) {
                return false;
            }
            watchers.add(viewer);
            byte[] replay = recent.snapshot();
            if (replay.length > 0) {
                viewer.output(replay);
            }
            return true;
        }
    }

    /** The host's viewer left; a shell nobody shows any more (no page, no grace period running) ends. */
    void unwatch(TerminalSink viewer) {
        synchronized (lock) {
            watchers.remove(viewer);
            if (sink != null || !watchers.isEmpty() || expiry != null || endReason != null) {
                return;
            }
        }
        end("The terminal was closed.");
    }

    /**
     * A host types into the learner's shell. The learner's terminal says so (at most every 15 s, and only on their
     * screen, never into the shell), so nobody types unseen.
     */
    void writeAsHost(byte[] input, String host) {
        synchronized (lock) {
            Instant now = clock.instant();
            if (sink != null && Duration.between(lastHostNotice, now).compareTo(HOST_NOTICE_EVERY) >= 0) {
                lastHostNotice = now;
                sink.output(("\r\n[tclab: your host " + host + " is typing in this terminal]\r\n")
                        .getBytes(java.nio.charset.StandardCharsets.UTF_8));
            }
        }
        write(input);
    }

    /** The page went away: the shell ends after {@code grace} unless a page attaches again before. */
    void detach(TerminalSink page, Duration grace, ScheduledExecutorService scheduler) {
        synchronized (lock) {
            if (sink != page || endReason != null) {
                return;
            }
            sink = null;
            if (!grace.isZero()) {
                expiry = scheduler.schedule(
                        () -> end("The terminal was closed."), grace.toMillis(), TimeUnit.MILLISECONDS);
                return;
            }
        }
        end("The terminal was closed.");
    }

    /**
     * Types into the shell: queues the bytes for the exec's stdin, never blocking (it runs on the event loop). When
     * the shell does not read and its queue is full, the bytes are dropped and the learner told in the terminal, at
     * most every {@link #INPUT_DROPPED_NOTICE_EVERY}: a note says more than a stalled paste (the socket pauses only
     * for what its own handlers have not taken, {@link InputInFlight}). False when the input was dropped.
     */
    boolean write(byte[] input) {
        ProcessStream target = running();
        if (target == null) {
            return true;
        }
        boolean taken = target.write(input);
        if (!taken) {
            synchronized (lock) {
                Instant now = clock.instant();
                if (sink != null
                        && Duration.between(lastInputDroppedNotice, now).compareTo(INPUT_DROPPED_NOTICE_EVERY) >= 0) {
                    lastInputDroppedNotice = now;
                    sink.output(INPUT_DROPPED_NOTICE);
                }
            }
        }
        return taken;
    }

    void resize(int columns, int rows) {
        ProcessStream target = running();
        if (target != null) {
            target.resize(columns, rows);
        }
    }

    /** Ends the shell and releases its stream; idempotent. */
    void end(String why) {
        end(why, false);
    }

    /** As {@link #end(String)}; with {@code engineLost}, the page is told to come back later instead of "ended". */
    private void end(String why, boolean engineLost) {
        ProcessStream toClose;
        TerminalSink attached;
        List<TerminalSink> viewers;
        synchronized (lock) {
            if (endReason != null) {
                return;
            }
            endReason = why;
            toClose = process;
            attached = sink;
            sink = null;
            viewers = List.copyOf(watchers);
            watchers.clear();
            if (expiry != null) {
                expiry.cancel(false);
                expiry = null;
            }
        }
        if (toClose != null) {
            toClose.close();
        }
        if (attached != null && engineLost) {
            attached.engineLost("The Docker engine does not answer (" + why + "); the terminal reconnects once it is"
                    + " back, with a new shell.");
        } else if (attached != null) {
            attached.ended(why);
        }
        viewers.forEach(v -> v.ended(why));
        onEnd.accept(this);
    }

    boolean ended() {
        synchronized (lock) {
            return endReason != null;
        }
    }

    @Override
    public void onOutput(byte[] chunk) {
        synchronized (lock) {
            recent.append(chunk);
            if (sink != null) {
                sink.output(chunk);
            }
            watchers.forEach(v -> v.output(chunk));
        }
    }

    @Override
    public void onClosed(String reason) {
        end(reason == null || reason.isBlank() ? "The shell ended." : reason);
    }

    @Override
    public void onEngineLost(String reason) {
        end(reason, true);
    }

    private ProcessStream running() {
        synchronized (lock) {
            return endReason == null ? process : null;
        }
    }
}
