package dev.tclab.lab;

import dev.tclab.common.DurationWords;
import dev.tclab.config.TclabConfig;
import java.time.Instant;
import java.util.Optional;
import org.jboss.logging.Logger;

/**
 * The terms a lab runs under: a source's (a workshop event's) if one has some, else the server's; never ending
 * later than the server's maximum lifetime, which the containers' expiry labels hold.
 */
final class LabTermsPolicy {

    private static final Logger LOG = Logger.getLogger(LabTermsPolicy.class);

    private final TclabConfig.Lab config;
    private final Iterable<LabTermsSource> sources;

    LabTermsPolicy(TclabConfig.Lab config, Iterable<LabTermsSource> sources) {
        this.config = config;
        this.sources = sources;
    }

    /**
     * The terms of {@code owner}'s lab of {@code lesson} created at {@code createdAt}. A pooled lab (no owner yet)
     * has the server's: it gets its learner's terms when claimed.
     */
    LabTerms termsFor(String owner, String lesson, Instant createdAt) {
        LabTerms server = new LabTerms(
                config.idleTimeout(),
                createdAt.plus(config.maxLifetime()),
                "Stopped after reaching the maximum lab lifetime of " + DurationWords.of(config.maxLifetime()) + ".");
        if (owner == null) {
            return server;
        }
        for (LabTermsSource source : sources) {
            try {
                Optional<LabTerms> terms = source.termsFor(owner, lesson, createdAt);
                if (terms.isPresent()) {
                    return terms.get().within(server);
                }
            } catch (RuntimeException e) {
                // The server's terms still bound the lab; a lookup that failed must not keep a learner from working.
                LOG.errorf(
                        "could not look up the terms of %s's lab of %s, the server's apply: %s",
                        owner, lesson, e.getMessage());
            }
        }
        return server;
    }
}
