package dev.tclab.runtime.agent;

import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Which UML labs' kernels stopped answering. Each beat asks every lab's agent to say it is there; an agent that printed
 * nothing at all (no answer, no acknowledgement, no stream output) for {@link #SILENCE} has a kernel that no longer
 * runs its processes: a learner's {@code echo 0 > /proc/sysemu} once left one spinning at 100 % of a core, its terminals
 * blank and its lab {@code running}.
 */
final class KernelHeartbeat {

    /** How long a running lab's kernel may say nothing before it counts as stopped. */
    static final Duration SILENCE = Duration.ofSeconds(10);

    /** An agent as the heartbeat sees it. */
    interface Pulse {
        /** A count that moves whenever the agent's output arrives. */
        long heard();

        /** Asks the agent to say it is there. */
        void ping();
    }

    private record Heard(Pulse agent, long count, Instant at) {}

    private final InstantSource clock;
    /** Each lab's agent at the latest beat, its count then, and since when it has had that count. */
    private final Map<String, Heard> last = new ConcurrentHashMap<>();

    KernelHeartbeat(InstantSource clock) {
        this.clock = clock;
    }

    /**
     * Pings each lab's agent and returns the labs whose agent has said nothing for {@link #SILENCE}. A lab's silence
     * counts from the first beat that met it; a lab left out of {@code agents} is forgotten.
     */
    Set<String> beat(Map<String, ? extends Pulse> agents) {
        Instant now = clock.instant();
        last.keySet().retainAll(agents.keySet());
        Set<String> silent = new HashSet<>();
        agents.forEach((lab, agent) -> {
            long count = agent.heard();
            // A new agent for the lab (attached again) starts its silence anew.
            Heard heard = last.compute(
                    lab,
                    (key, was) -> was == null || was.agent() != agent || was.count() != count
                            ? new Heard(agent, count, now)
                            : was);
            if (Duration.between(heard.at(), now).compareTo(SILENCE) >= 0) {
                silent.add(lab);
            } else {
                agent.ping();
            }
        });
        last.keySet().removeAll(silent);
        return silent;
    }
}
