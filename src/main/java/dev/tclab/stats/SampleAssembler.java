package dev.tclab.stats;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * Turns the sampler's byte stream (chunks split anywhere) into whole {@link RawSample}s, one per round. Not
 * thread-safe: the runtime delivers one stream's chunks one after another.
 *
 * <p>Bounded: the learner is root in the node and can write to the sampler's stdout, or create thousands of
 * qdiscs and filters. Once more than {@code maxRoundBytes} arrive since a round began, what was gathered is dropped,
 * everything after is ignored and {@code onOverflow} runs (once): the sampler must then be restarted.
 */
final class SampleAssembler {

    private static final int MAX_LINE = 1 << 20;

    private final Consumer<RawSample> onSample;
    private final Runnable onOverflow;
    private final long maxRoundBytes;
    private long roundBytes;
    private boolean overflowed;
    private final LineSplitter lines = new LineSplitter(MAX_LINE, this::line);
    private long nanos = -1;
    private final List<RawSample.RawDetails> details = new ArrayList<>();
    private String dev;
    private String section;
    private final StringBuilder links = new StringBuilder();
    private final StringBuilder qdiscs = new StringBuilder();
    private final StringBuilder classes = new StringBuilder();
    private final StringBuilder filters = new StringBuilder();
    private final StringBuilder ingress = new StringBuilder();
    private final Map<String, StringBuilder> filtersByParent = new LinkedHashMap<>();
    private StringBuilder parentFilters;

    SampleAssembler(Consumer<RawSample> onSample, long maxRoundBytes, Runnable onOverflow) {
        this.onSample = onSample;
        this.maxRoundBytes = maxRoundBytes;
        this.onOverflow = onOverflow;
    }

    void accept(byte[] chunk) {
        if (overflowed) {
            return;
        }
        roundBytes += chunk.length;
        if (roundBytes > maxRoundBytes) {
            overflowed = true;
            lines.reset();
            clearRound();
            onOverflow.run();
            return;
        }
        lines.accept(chunk);
    }

    private void line(String text) {
        if (!text.startsWith(SamplerScript.MARK)) {
            StringBuilder target = target();
            if (target != null) {
                target.append(text).append('\n');
            }
            return;
        }
        String marker = text.substring(SamplerScript.MARK.length());
        if (marker.startsWith("sample ")) {
            clearRound();
            roundBytes = text.length() + 1L;
            nanos = nanosFromMicros(marker.substring(7).trim());
        } else if (marker.startsWith("dev ")) {
            finishDevice();
            dev = marker.substring(4).trim();
            section = null;
        } else if (marker.startsWith("filter ")) {
            section = "filter at";
            parentFilters = filtersByParent.computeIfAbsent(marker.substring(7).trim(), p -> new StringBuilder());
        } else if (marker.equals("end")) {
            finishDevice();
            if (nanos >= 0) {
                onSample.accept(new RawSample(nanos, links.toString(), qdiscs.toString(), List.copyOf(details)));
            }
            clearRound();
        } else {
            section = marker.trim();
        }
    }

    private StringBuilder target() {
        if ("links".equals(section)) {
            return links;
        }
        if ("qdiscs".equals(section)) {
            return qdiscs;
        }
        if (dev == null || section == null) {
            return null;
        }
        return switch (section) {
            case "class" -> classes;
            case "filter" -> filters;
            case "ingress" -> ingress;
            case "filter at" -> parentFilters;
            default -> null;
        };
    }

    private void finishDevice() {
        if (dev != null) {
            Map<String, String> byParent = new LinkedHashMap<>();
            filtersByParent.forEach((parent, text) -> byParent.put(parent, text.toString()));
            details.add(new RawSample.RawDetails(
                    dev, classes.toString(), filters.toString(), byParent, ingress.toString()));
        }
        dev = null;
        classes.setLength(0);
        filters.setLength(0);
        ingress.setLength(0);
        filtersByParent.clear();
        parentFilters = null;
    }

    /** Forgets the round gathered so far; lines before the next sample marker then go nowhere. */
    private void clearRound() {
        dev = null;
        finishDevice();
        details.clear();
        links.setLength(0);
        qdiscs.setLength(0);
        section = null;
        nanos = -1;
    }

    /** The sample marker carries bash's clock in µs since the epoch. */
    private static long nanosFromMicros(String text) {
        try {
            return Math.multiplyExact(Long.parseLong(text), 1000L);
        } catch (NumberFormatException | ArithmeticException e) {
            return -1;
        }
    }
}
