package dev.tclab.terminal;

import dev.tclab.lab.WorkerThreads;
import dev.tclab.config.TclabConfig;
import dev.tclab.lab.EngineUnavailableException;
import dev.tclab.lab.LabRuntime;
import dev.tclab.lab.NodeNotFoundException;
import io.quarkus.runtime.ShutdownEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.function.Predicate;

/** Every open shell of this server, by learner, lab and node. Calls block (they start engine streams). */
@ApplicationScoped
public class TerminalSessions {

    /** A login shell, so /etc/bash.bashrc sets the prompt naming the node (the runtime sets TERM and a UTF-8 LANG). */
    static final List<String> SHELL = List.of("bash", "-l");

    private final LabRuntime runtime;
    private final TclabConfig.Terminal config;
    private final Map<SessionKey, TerminalSession> sessions = new ConcurrentHashMap<>();
    private final ScheduledExecutorService expiries = Executors.newSingleThreadScheduledExecutor(WorkerThreads.named("tclab-terminal-expiry"));

    public TerminalSessions(LabRuntime runtime, TclabConfig config) {
        this.runtime = runtime;
        this.config = config.terminal();
    }

    /** Attaches {@code page} to the learner's shell on the node, starting the shell if there is none. */
    TerminalSession attach(SessionKey key, TerminalSink page) throws EngineUnavailableException, NodeNotFoundException {
        return join(key, session -> session.attach(page));
    }

    /** Lets a host's {@code viewer} watch the learner's shell on the node, starting it if there is none. */
    TerminalSession watch(SessionKey key, TerminalSink viewer) throws EngineUnavailableException, NodeNotFoundException {
        return join(key, session -> session.watch(viewer));
    }

    /**
     * The running shell of {@code key} that {@code joined} could join, starting one when there is none; a shell that
     * ended meanwhile (joining it answers false) is forgotten and a new one started.
     */
    private TerminalSession join(SessionKey key, Predicate<TerminalSession> joined)
            throws EngineUnavailableException, NodeNotFoundException {
        while (true) {
            TerminalSession session = sessions.computeIfAbsent(key,
                    k -> new TerminalSession(k, config.replayBytes(), this::forget));
            try {
                session.startIfNeeded(runtime, SHELL);
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

    /** The page left; the shell stays for the grace period. */
    void detach(TerminalSession session, TerminalSink page) {
        session.detach(page, gracePeriod(), expiries);
    }

    /** Number of shells alive (attached or in their grace period). */
    public int openCount() {
        return sessions.size();
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
    }
}
