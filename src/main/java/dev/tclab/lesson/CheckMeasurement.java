package dev.tclab.lesson;

import com.fasterxml.jackson.databind.JsonNode;
import dev.tclab.lesson.markdown.BlockContext;
import dev.tclab.yaml.YamlDocument;
import dev.tclab.yaml.YamlException;
import java.util.ArrayList;
import java.util.List;

/**
 * One entry of a check block's {@code measure} list, as the lesson lints read it: the check, the index of its step
 * in the lesson (0 for the first), the parsed block (for file lines) and the entry's JSON pointer in it. A check
 * block that does not parse has no entries here; the validator reports it.
 */
record CheckMeasurement(BlockContext.CheckRef check, int step, YamlDocument doc, String at) {

    /** Every measurement of the lesson's checks as validation renders them, in page order. */
    static List<CheckMeasurement> of(LessonView view) {
        List<CheckMeasurement> all = new ArrayList<>();
        for (int step = 0; step < view.steps().size(); step++) {
            for (BlockContext.CheckRef check : view.steps().get(step).checks()) {
                YamlDocument doc;
                try {
                    doc = YamlDocument.parse(check.file(), "the check block", check.yaml(), check.line());
                } catch (YamlException e) {
                    continue;
                }
                for (int i = 0; i < doc.at("/measure").size(); i++) {
                    all.add(new CheckMeasurement(check, step, doc, YamlDocument.child("/measure", i)));
                }
            }
        }
        return all;
    }

    JsonNode entry() {
        return doc.at(at);
    }

    /** The value of one of its keys ({@code iperf3}, {@code command}, ...), missing when it has none. */
    JsonNode kind(String key) {
        return doc.at(YamlDocument.child(at, key));
    }

    /** The file line of the value at {@code key}, or of the entry when it has none. */
    int line(String key) {
        return doc.line(YamlDocument.child(at, key));
    }

    /** {@code check 'borrow', command 'detail'} */
    String title(String kind) {
        return "check '" + check.id() + "', " + kind + " '"
                + entry().path("name").asText() + "'";
    }
}
