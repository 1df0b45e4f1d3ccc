package dev.tclab.testing;

import java.io.IOException;

/**
 * A lock between the suite's parts (dev.tclab.parts), held from a part's start to its end: a lock file under
 * {@code test-fork-locks}, like {@link RunsAloneExtension}'s. A fork runs one part at a time, so it holds at most one
 * hold of each.
 */
public final class PartLock {

    /**
     * The machine: every part shares it, but the part of the classes that hold User-Mode Linux figures, which has it
     * to itself. A UML lab's kernel is one process on the host, and what it carries is what the host's CPU leaves it:
     * beside the other fork's unit tests, all at the lowest CPU priority, a 90 Mbit/s HTB class in UML carried 81.3
     * Mbit/s (85 to 86 alone), at its check's floor of 81.
     */
    public static final PartLock MACHINE = new PartLock("machine.lock", "the machine");

    /**
     * The two halves of the measurements lock's shared holders, which run side by side first: each shares this, and
     * the part of the other holders waits until both have ended. Their classes take the measurements lock one at a
     * time, so an exclusive holder waiting meanwhile would get it between two of a half's classes and hold that half
     * up for as long as it runs (34 s in one run), leaving its fork idle.
     */
    public static final PartLock HALVES = new PartLock("halves.lock", "the halves");

    private final String file;
    private final String what;
    private ForkLock held;

    private PartLock(String file, String what) {
        this.file = file;
        this.what = what;
    }

    /** Blocks while a part has this to itself, then shares it until {@link #release()}. */
    public synchronized void share(String part) throws IOException {
        take(part, true);
    }

    /** Blocks until no other part holds this, then has it to itself until {@link #release()}. */
    public synchronized void haveAlone(String part) throws IOException {
        take(part, false);
    }

    /** Blocks until no other part holds this. */
    public synchronized void awaitFree(String part) throws IOException {
        take(part, false);
        release();
    }

    public synchronized void release() throws IOException {
        if (held != null) {
            held.close();
            held = null;
        }
    }

    private void take(String part, boolean shared) throws IOException {
        if (held != null) {
            throw new IllegalStateException(part + " takes " + what + " while this fork still holds it");
        }
        long since = System.nanoTime();
        held = ForkLock.take(ForkLock.ofThisBuild(file), shared);
        System.out.printf(
                "%s %s %s after waiting %.1f s%n",
                part, shared ? "shares" : "has", what, (System.nanoTime() - since) / 1e9);
    }
}
