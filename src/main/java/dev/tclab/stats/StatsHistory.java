package dev.tclab.stats;

import dev.tclab.config.TclabConfig;
import dev.tclab.lab.LabEnded;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.InstantSource;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The last few minutes of each lab's sample frames ({@code tclab.stats.history}), so a page that opens the statistics
 * socket again (a reload) redraws the curves it had. Kept while the lab's statistics are watched and for that long
 * after; bounded per lab and in total, counted in characters of JSON (one byte each: the frames are ASCII but for
 * names). A lab's frames go when it ends.
 */
@ApplicationScoped
public class StatsHistory {

    private record Frame(long atMillis, String json) {}

    /** One lab's frames, oldest first. */
    private static final class LabFrames {
        final ArrayDeque<Frame> frames = new ArrayDeque<>();
        long chars;
    }

    private final Duration keep;
    private final long maxLabChars;
    private final long maxTotalChars;
    private final InstantSource clock;
    private final Map<String, LabFrames> labs = new HashMap<>();
    private long totalChars;

    @Inject
    public StatsHistory(TclabConfig config, InstantSource clock) {
        this(
                config.stats().history(),
                (long) config.stats().historyLabMib() << 20,
                (long) config.stats().historyTotalMib() << 20,
                clock);
    }

    StatsHistory(Duration keep, long maxLabChars, long maxTotalChars, InstantSource clock) {
        if (keep.isNegative() || maxLabChars < 0 || maxTotalChars < 0) {
            throw new IllegalArgumentException("tclab.stats.history and its sizes must not be negative (history is "
                    + keep + ", " + maxLabChars + " per lab, " + maxTotalChars + " in all).");
        }
        this.keep = keep;
        this.maxLabChars = maxLabChars;
        this.maxTotalChars = maxTotalChars;
        this.clock = clock;
    }

    /** Keeps one sample frame of a lab; a frame bigger than a lab's share is not kept. */
    synchronized void record(String labId, String json) {
        if (keep.isZero() || json.length() > Math.min(maxLabChars, maxTotalChars)) {
            return;
        }
        long now = clock.millis();
        LabFrames lab = labs.computeIfAbsent(labId, id -> new LabFrames());
        lab.frames.addLast(new Frame(now, json));
        lab.chars += json.length();
        totalChars += json.length();
        // Every lab's, not only this one's: a lab nobody watches any more records nothing that would prune it.
        labs.values().forEach(l -> pruneOld(l, now));
        while (lab.chars > maxLabChars) {
            dropOldest(lab);
        }
        while (totalChars > maxTotalChars) {
            dropOldest(biggest());
        }
        labs.values().removeIf(l -> l.frames.isEmpty());
    }

    /**
     * The lab's kept samples as one {@code history} frame (see docs/api.md), oldest first; empty when none are kept.
     * Built from the frames as they were sent, without parsing them again.
     */
    synchronized Optional<String> frame(String labId) {
        LabFrames lab = labs.get(labId);
        if (lab == null) {
            return Optional.empty();
        }
        pruneOld(lab, clock.millis());
        if (lab.frames.isEmpty()) {
            labs.remove(labId);
            return Optional.empty();
        }
        List<String> samples = new ArrayList<>(lab.frames.size());
        lab.frames.forEach(f -> samples.add(f.json()));
        return Optional.of("{\"type\":\"history\",\"samples\":[" + String.join(",", samples) + "]}");
    }

    /** Characters kept for all labs together. */
    synchronized long totalChars() {
        return totalChars;
    }

    void onLabEnded(@Observes LabEnded ended) {
        forget(ended.labId());
    }

    synchronized void forget(String labId) {
        LabFrames lab = labs.remove(labId);
        if (lab != null) {
            totalChars -= lab.chars;
        }
    }

    private void pruneOld(LabFrames lab, long now) {
        long oldest = now - keep.toMillis();
        while (!lab.frames.isEmpty() && lab.frames.peekFirst().atMillis() < oldest) {
            dropOldest(lab);
        }
    }

    private LabFrames biggest() {
        return labs.values().stream()
                .max(Comparator.comparingLong(l -> l.chars))
                .orElseThrow();
    }

    private void dropOldest(LabFrames lab) {
        Frame dropped = lab.frames.removeFirst();
        lab.chars -= dropped.json().length();
        totalChars -= dropped.json().length();
    }
}
