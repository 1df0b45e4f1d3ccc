package dev.tclab.lab;

import dev.tclab.runtime.topology.Topology;
import dev.tclab.runtime.topology.TopologyException;
import dev.tclab.runtime.topology.TopologyParser;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/** The lab.yml files under src/test/resources/labs, parsed. */
public final class TestTopologies {

    private TestTopologies() {}

    public static Topology load(String name) {
        String path = "labs/" + name + ".yml";
        try (InputStream in = TestTopologies.class.getClassLoader().getResourceAsStream(path)) {
            return TopologyParser.parse(path, new String(in.readAllBytes(), StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (TopologyException e) {
            throw new IllegalStateException(e.getMessage(), e);
        }
    }
}
