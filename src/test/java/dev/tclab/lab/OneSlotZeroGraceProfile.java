package dev.tclab.lab;

import io.quarkus.test.junit.QuarkusTestProfile;
import java.util.Map;

/**
 * Real Docker with one lab slot and a queue of one ({@code StartQueueIT}: the second lab queues), and shells ended as
 * soon as their socket closes, with no grace period ({@code TerminalThreadsIT} observes their resources released,
 * opening far more terminals a minute than a learner may: no limit on opens here). One profile for both, so that Quarkus starts once for them: the terminal test uses one lab at a time, and the queue
 * test opens no terminal.
 */
public class OneSlotZeroGraceProfile implements QuarkusTestProfile {

    @Override
    public Map<String, String> getConfigOverrides() {
        return Map.of(
                "tclab.lab.max-running",
                "1",
                "tclab.lab.queue-size",
                "1",
                "tclab.terminal.grace-period",
                "0s",
                "tclab.sockets.opens-per-learner",
                "100000");
    }
}
