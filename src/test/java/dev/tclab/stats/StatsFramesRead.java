package dev.tclab.stats;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.MissingNode;
import dev.tclab.web.TestSocket;
import java.time.Duration;

/** Reading a statistics socket's frames in tests against real labs (docs/api.md, /ws/labs/{lab}/stats). */
final class StatsFramesRead {

    private static final ObjectMapper JSON = new ObjectMapper();

    private StatsFramesRead() {}

    /** The next live sample of {@code node}, skipping other frames (other nodes, notices, the history). */
    static JsonNode nextSample(TestSocket stats, String node, Duration wait) throws Exception {
        long deadline = System.nanoTime() + wait.toNanos();
        while (System.nanoTime() < deadline) {
            JsonNode frame = JSON.readTree(stats.nextText(wait));
            if ("sample".equals(frame.path("type").asText())
                    && node.equals(frame.path("node").asText())) {
                return frame;
            }
        }
        throw new AssertionError("no sample of " + node + " within " + wait);
    }

    /** The sample's entry for interface {@code dev}, or a missing node. */
    static JsonNode device(JsonNode sample, String dev) {
        for (JsonNode d : sample.path("devices")) {
            if (dev.equals(d.path("dev").asText())) {
                return d;
            }
        }
        return MissingNode.getInstance();
    }
}
