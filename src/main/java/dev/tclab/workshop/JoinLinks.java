package dev.tclab.workshop;

import dev.tclab.config.TclabConfig;
import io.quarkus.runtime.Startup;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.net.URI;
import java.util.Optional;

/**
 * The link a learner joins a workshop by: on {@code tclab.workshop.public-url} when it is set (the address a class
 * reaches the server at), else on the address the host's browser used. Made at start-up, so a wrong address stops the
 * start with what to give rather than a host's first dashboard.
 */
@Startup
@ApplicationScoped
public class JoinLinks {

    private final Optional<URI> publicUrl;

    @Inject
    public JoinLinks(TclabConfig config) {
        this(config.workshop().publicUrl());
    }

    JoinLinks(Optional<String> publicUrl) {
        this.publicUrl = publicUrl.map(JoinLinks::checked);
    }

    /** The join link of {@code joinCode}, on the public address or else on {@code asked}, the request's own base. */
    String of(String joinCode, URI asked) {
        URI base = publicUrl.orElse(asked);
        return base.resolve("/join/" + joinCode).toString();
    }

    private static URI checked(String url) {
        URI uri;
        try {
            uri = URI.create(url.strip());
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(refusal(url, e.getMessage()), e);
        }
        if (!("http".equals(uri.getScheme()) || "https".equals(uri.getScheme())) || uri.getHost() == null) {
            throw new IllegalArgumentException(refusal(url, "it needs http:// or https:// and a host name or address"));
        }
        return uri;
    }

    private static String refusal(String url, String why) {
        return "tclab.workshop.public-url=" + url + " is not an address learners can open (" + why
                + "): give one such as http://10.1.2.3:8080, or leave it unset";
    }
}
