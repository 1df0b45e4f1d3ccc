package dev.tclab.restart;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tclab.web.TestSocket;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/** What the tests of packaged app processes share: the engine's view of an instance, and a statistics wait. */
final class EngineAndSockets {

    private EngineAndSockets() {}

    /** Reads statistics frames until a sample shows a tbf qdisc; fails after {@code wait}. */
    static void awaitTbfSample(TestSocket stats, Duration wait) throws Exception {
        long deadline = System.nanoTime() + wait.toNanos();
        String sample = stats.nextText(wait);
        while (!(sample.contains("\"type\":\"sample\"") && sample.contains("\"tbf\""))) {
            assertThat(System.nanoTime())
                    .as("a sample showing the tbf, last frame: " + sample)
                    .isLessThan(deadline);
            sample = stats.nextText(wait);
        }
    }

    /** Removes every container labelled with the instance; returns the ids still there afterwards. */
    static String removeContainersOf(String instance) throws IOException, InterruptedException {
        String ids = docker("ps", "-aq", "--filter", "label=tclab.instance=" + instance);
        if (!ids.isBlank()) {
            List<String> rm = new ArrayList<>(List.of("rm", "-f"));
            rm.addAll(List.of(ids.split("\\s+")));
            docker(rm.toArray(String[]::new));
        }
        return docker("ps", "-aq", "--filter", "label=tclab.instance=" + instance);
    }

    static String docker(String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of("docker"));
        command.addAll(List.of(args));
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        if (p.waitFor() != 0) {
            throw new IOException("docker " + String.join(" ", args) + " failed: " + out);
        }
        return out;
    }
}
