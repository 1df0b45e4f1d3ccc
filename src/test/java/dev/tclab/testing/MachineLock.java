package dev.tclab.testing;

import java.io.IOException;

/**
 * The machine, between the suite's parts (dev.tclab.parts): every part shares it from its start to its end, but the
 * part of the classes that hold User-Mode Linux figures, which has it to itself. A UML lab's kernel is one process on
 * the host, and what it carries is what the host's CPU leaves it: beside the other fork's unit tests, all at the
 * lowest CPU priority, a 90 Mbit/s HTB class in UML carried 81.3 Mbit/s (85 to 86 alone), at its check's floor of 81.
 * A lock file under {@code test-fork-locks}, like {@link RunsAloneExtension}'s.
 */
public final class MachineLock {

    /** The one a fork holds: a fork runs one part at a time. */
    private static ForkLock held;

    private MachineLock() {}

    /** Blocks while a part has the machine to itself, then shares it until {@link #release()}. */
    public static synchronized void share() throws IOException {
        take("the part", true);
    }

    /** Blocks until no other part runs, then has the machine to itself until {@link #release()}. */
    public static synchronized void haveAlone(String part) throws IOException {
        take(part, false);
    }

    public static synchronized void release() throws IOException {
        if (held != null) {
            held.close();
            held = null;
        }
    }

    private static void take(String part, boolean shared) throws IOException {
        if (held != null) {
            throw new IllegalStateException(part + " takes the machine while this fork still holds it");
        }
        long since = System.nanoTime();
        held = ForkLock.take(ForkLock.ofThisBuild("machine.lock"), shared);
        System.out.printf(
                "%s %s the machine after waiting %.1f s%n",
                part, shared ? "shares" : "has", (System.nanoTime() - since) / 1e9);
    }
}
