package dev.tclab.lab;

import dev.tclab.config.TclabConfig;
import dev.tclab.http.SocketCloseCodes;
import dev.tclab.http.SocketRefusedException;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Bounds the lab pages' WebSockets (issue 25, row 2: one learner opened 6,000 statistics sockets on their own lab and
 * never read them; the app grew by 3.3 GiB and every request stalled). Each kind of socket may have a limit per
 * learner, where the newest wins and the oldest is closed as taken over (as a terminal opened twice); and the whole
 * app holds at most {@code tclab.sockets.max}, beyond which a new socket is refused with 1013, try again later.
 */
@ApplicationScoped
public class SocketBudget {

    /** One admitted socket; {@code evict} closes it when a newer one of its learner and kind takes its place. */
    public static final class Ticket {
        private final String key;
        private final Runnable evict;

        private Ticket(String key, Runnable evict) {
            this.key = key;
            this.evict = evict;
        }
    }

    private final int max;
    private final Map<String, Deque<Ticket>> byLearnerAndKind = new HashMap<>();
    private int total;

    @Inject
    public SocketBudget(TclabConfig config) {
        this(config.sockets().max());
    }

    SocketBudget(int max) {
        this.max = max;
    }

    /**
     * Admits a socket of {@code learner} and {@code kind}; when the learner already has {@code perLearner} of that
     * kind (0: no limit), the oldest is evicted. Refused when the app holds its maximum.
     */
    public Ticket admit(String learner, String kind, int perLearner, Runnable evict) throws SocketRefusedException {
        List<Ticket> evicted = new ArrayList<>();
        Ticket ticket = new Ticket(learner + "\n" + kind, evict);
        synchronized (this) {
            Deque<Ticket> mine = byLearnerAndKind.getOrDefault(ticket.key, new ArrayDeque<>());
            int evicting = perLearner > 0 ? Math.max(0, mine.size() - perLearner + 1) : 0;
            if (total - evicting >= max) {
                throw new SocketRefusedException(
                        SocketCloseCodes.SERVER_BUSY,
                        "The server holds as many live "
                                + "connections as it allows (" + max
                                + "), so this one was refused; the page tries again by "
                                + "itself shortly.");
            }
            for (int i = 0; i < evicting; i++) {
                evicted.add(mine.removeFirst());
            }
            total -= evicting;
            byLearnerAndKind.put(ticket.key, mine);
            mine.addLast(ticket);
            total++;
        }
        // Outside the lock: closing a socket runs its close handler, which releases its ticket here.
        evicted.forEach(old -> old.evict.run());
        return ticket;
    }

    /** Releases a socket's place; a ticket already evicted or released is ignored. */
    public synchronized void release(Ticket ticket) {
        Deque<Ticket> mine = byLearnerAndKind.get(ticket.key);
        if (mine != null && mine.remove(ticket)) {
            total--;
            if (mine.isEmpty()) {
                byLearnerAndKind.remove(ticket.key);
            }
        }
    }

    /** Sockets held now. */
    public synchronized int held() {
        return total;
    }
}
