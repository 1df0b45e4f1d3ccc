package dev.tclab.workshop;

import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Locale;

/**
 * News about one learner's lab for their open pages, pushed over /ws/workshop as {@code {"notice": ...}}: the lab
 * ended (stopped by the host or by the learner elsewhere, culled, its workshop closed), it is restarting (a host's
 * reset ended it and a fresh lab of the same lesson is starting in its place), the host gave it more
 * time, or the host started or stopped watching its terminals. {@code text} is what the page shows, in words that
 * name who did what; {@code labId} lets a page that shows another lab ignore it.
 */
public record LearnerNotice(String learnerId, Kind kind, String labId, String lesson, String text) {

    /** What happened to the lab (lower case in the JSON). */
    public enum Kind {
        ENDED,
        RESTARTING,
        EXTENDED,
        WATCHED,
        UNWATCHED;

        @JsonValue
        public String json() {
            return name().toLowerCase(Locale.ROOT);
        }
    }
}
