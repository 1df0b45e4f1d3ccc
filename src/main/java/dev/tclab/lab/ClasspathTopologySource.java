package dev.tclab.lab;

import jakarta.enterprise.context.ApplicationScoped;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import java.util.regex.Pattern;

/** Reads {@code lessons/<slug>/lab.yml} from the application's resources. */
@ApplicationScoped
public class ClasspathTopologySource implements TopologySource {

    private static final Pattern SLUG = Pattern.compile("[a-z0-9][a-z0-9-]{0,62}");

    @Override
    public Optional<Topology> topologyFor(String lesson) throws TopologyException {
        if (!SLUG.matcher(lesson).matches()) {
            return Optional.empty();
        }
        String path = "lessons/" + lesson + "/lab.yml";
        try (InputStream in = Thread.currentThread().getContextClassLoader().getResourceAsStream(path)) {
            if (in == null) {
                return Optional.empty();
            }
            return Optional.of(TopologyParser.parse(path, new String(in.readAllBytes(), StandardCharsets.UTF_8)));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
