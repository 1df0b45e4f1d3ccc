package dev.tclab.web;

import dev.tclab.lab.LabWatchers;
import io.quarkus.websockets.next.OpenConnections;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Objects;
import java.util.Set;
import java.util.stream.Collectors;

/** The labs that an open terminal or statistics socket (both have a {@code labId} in their path) is on. */
@ApplicationScoped
public class OpenLabPages implements LabWatchers {

    private final OpenConnections connections;

    public OpenLabPages(OpenConnections connections) {
        this.connections = connections;
    }

    @Override
    public Set<String> watchedLabs() {
        return connections.stream()
                .map(c -> c.pathParam("labId"))
                .filter(Objects::nonNull)
                .collect(Collectors.toSet());
    }
}
