package dev.tclab.terminal;

import dev.tclab.common.WorkerThreads;
import dev.tclab.config.TclabConfig;
import dev.tclab.lab.PooledLabReady;
import dev.tclab.runtime.EngineUnavailableException;
import dev.tclab.runtime.LabRuntime;
import dev.tclab.runtime.NodeNotFoundException;
import io.quarkus.runtime.ShutdownEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.event.ObservesAsync;
import java.time.Duration;
import java.time.InstantSource;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.jboss.logging.Logger;

/** Every open shell of this server, by learner, lab and node. Calls block (they start engine streams). */
@ApplicationScoped
public class TerminalSessions {

    /** A login shell, so /etc/bash.bashrc sets the prompt naming the node (the runtime sets TERM and a UTF-8 LANG). */
    static final List<String> SHELL = List.of("bash", "-l");
    /** The owner of shells started with a pooled lab until it is handed out (learner ids are "l" and hex digits). */
    private static final String POOL = "(pool)";

    private static final Logger LOG = Logger.getLogger(TerminalSessions.class);
    /**
     * How long a new shell may print nothing before the node's process count is looked at: a shell prints its prompt
     * within a few hundred milliseconds even on a busy host, and a look costs two engine calls, only then.
     */
    static final Duration SILENCE = Duration.ofMillis(500);
    /** How many looks, {@link #SILENCE} apart, while the shell stays silent: a shell bomb's count wavers. */
    private static final int SILENCE_LOOKS = 8;

    private final LabRuntime runtime;
    private final TclabConfig.Terminal config;
    private final InstantSource clock;
    private final Map<SessionKey, TerminalSession> sessions = new ConcurrentHashMap<>();
    private final ScheduledExecutorService expiries =
            Executors.newSingleThreadScheduledExecutor(WorkerThreads.named("tclab-terminal-expiry"));
    /** Looks at silent new shells' nodes (engine calls), apart from the expiries, which must never wait for them. */
    private final ScheduledExecutorService silences =
            Executors.newSingleThreadScheduledExecutor(WorkerThreads.named("tclab-terminal-silence"));

    public TerminalSessions(LabRuntime runtime, TclabConfig config, InstantSource clock) {
        this.clock = clock;
        this.runtime = runtime;
        this.config = config.terminal();
    }

    /** Attaches {@code page} to the learner's shell on the node, starting the shell if there is none. */
    TerminalSession attach(SessionKey key, TerminalSink page) throws EngineUnavailableException, NodeNotFoundException {
        return join(key, session -> session.attach(page));
    }

    /** Lets a host's {@code viewer} watch the learner's shell on the node, starting it if there is none. */
    TerminalSession watch(SessionKey key, TerminalSink viewer)
            throws EngineUnavailableException, NodeNotFoundException {
        return join(key, session -> session.watch(viewer));
    }

    /**
     * The running shell of {@code key} that {@code joined} could join, starting one when there is none; a shell that
     * ended meanwhile (joining it answers false) is forgotten and a new one started.
     */
    private TerminalSession join(SessionKey key, Predicate<TerminalSession> joined)
            throws EngineUnavailableException, NodeNotFoundException {
        while (true) {
            claimPrestarted(key);
            TerminalSession session = sessions.computeIfAbsent(
                    key, k -> new TerminalSession(k, config.replayBytes(), this::forget, clock));
            try {
                if (session.startIfNeeded(runtime, SHELL)) {
                    lookIfSilent(session, SILENCE_LOOKS);
                }
            } catch (EngineUnavailableException | NodeNotFoundException | RuntimeException e) {
                sessions.remove(key, session);
                throw e;
            }
            if (joined.test(session)) {
                return session;
            }
            sessions.remove(key, session);
        }
    }

    /**
     * A new shell that prints nothing for {@link #SILENCE} (or only that its forks failed) on a node at its process
     * limit (a fork bomb) gets a notice saying so, instead of a blank screen while bash retries its forks (issue 25,
     * row 8); looked at again while it stays silent, {@code looks} times in all.
     */
    private void lookIfSilent(TerminalSession session, int looks) {
        silences.schedule(
                () -> {
                    if (!session.silent()) {
                        return;
                    }
                    SessionKey key = session.key();
                    try {
                        if (runtime.atProcessLimit(key.labId(), key.node())) {
                            session.notice(TerminalSession.PROCESS_LIMIT_NOTICE);
                            return;
                        }
                    } catch (EngineUnavailableException | NodeNotFoundException | RuntimeException e) {
                        LOG.debugf(
                                "process count of %s in lab %s not read: %s", key.node(), key.labId(), e.getMessage());
                        return;
                    }
                    if (looks > 1) {
                        lookIfSilent(session, looks - 1);
                    }
                },
                SILENCE.toMillis(),
                TimeUnit.MILLISECONDS);
    }

    /**
     * Starts the shells of a lab of the warm pool right away, so the learner it is handed to finds a prompt waiting
     * (their page opens every terminal at once, so this starts nothing they would not have started). A shell nobody
     * claims ends with its lab.
     */
    void prestart(@ObservesAsync PooledLabReady ready) {
        for (String node : ready.terminalNodes()) {
            SessionKey key = pooled(ready.labId(), node);
            TerminalSession session = new TerminalSession(key, config.replayBytes(), this::forget, clock);
            boolean opened = sessions.keySet().stream()
                    .anyMatch(k -> k.labId().equals(ready.labId()) && k.node().equals(node));
            if (opened || sessions.putIfAbsent(key, session) != null) {
                continue; // handed out already, and its learner's page was quicker
            }
            try {
                session.startIfNeeded(runtime, SHELL);
            } catch (EngineUnavailableException | NodeNotFoundException | RuntimeException e) {
                sessions.remove(key, session);
                LOG.debugf("no shell started ahead on %s of pooled lab %s: %s", node, ready.labId(), e.getMessage());
            }
        }
    }

    /** Moves a shell started with the pooled lab (if any) to {@code key}: the learner's, who now owns the lab. */
    private void claimPrestarted(SessionKey key) {
        TerminalSession prestarted = sessions.remove(pooled(key.labId(), key.node()));
        if (prestarted == null) {
            return;
        }
        prestarted.handTo(key);
        if (sessions.putIfAbsent(key, prestarted) != null) {
            prestarted.end("The terminal was closed.");
        }
    }

    private static SessionKey pooled(String labId, String node) {
        return new SessionKey(labId, node, POOL);
    }

    /** The page left; the shell stays for the grace period. */
    void detach(TerminalSession session, TerminalSink page) {
        session.detach(page, gracePeriod(), expiries);
    }

    /** Number of shells alive (attached or in their grace period). */
    public int openCount() {
        return sessions.size();
    }

    /** Number of shells alive on the lab's nodes (whoever they belong to). */
    public int openCount(String labId) {
        return (int)
                sessions.keySet().stream().filter(k -> k.labId().equals(labId)).count();
    }

    private Duration gracePeriod() {
        return config.gracePeriod().isNegative() ? Duration.ZERO : config.gracePeriod();
    }

    private void forget(TerminalSession session) {
        sessions.remove(session.key(), session);
    }

    void onShutdown(@Observes ShutdownEvent event) {
        List.copyOf(sessions.values()).forEach(s -> s.end("The server stopped."));
        expiries.shutdownNow();
        silences.shutdownNow();
    }
}
