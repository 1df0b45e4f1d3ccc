package dev.tclab.common;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * A configured duration in words for learners and hosts: "4 hours", "30 minutes", "1 hour 30 minutes", "90 seconds"
 * is "1 minute 30 seconds". Whole units only, never rounded to zero: what is under a second reads "under a second".
 */
public final class DurationWords {

    private DurationWords() {}

    public static String of(Duration duration) {
        long seconds = duration.toSeconds();
        if (seconds < 1) {
            return "under a second";
        }
        List<String> parts = new ArrayList<>();
        add(parts, seconds / 3600, "hour");
        add(parts, seconds % 3600 / 60, "minute");
        add(parts, seconds % 60, "second");
        return String.join(" ", parts);
    }

    private static void add(List<String> parts, long count, String unit) {
        if (count > 0) {
            parts.add(count + " " + unit + (count == 1 ? "" : "s"));
        }
    }
}
