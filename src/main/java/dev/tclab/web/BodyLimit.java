package dev.tclab.web;

import io.quarkus.runtime.configuration.MemorySize;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * Refuses a request body above {@code quarkus.http.limits.max-body-size} before anything reads it, with a JSON 413
 * that says the limit (issue 25, row 7: a 10 MB lesson slug was read, parsed and echoed). A body sent without a
 * length (chunked) is cut by Quarkus itself at the same limit, with a bare 413.
 */
@ApplicationScoped
public class BodyLimit {

    private final long maxBytes;

    public BodyLimit(@ConfigProperty(name = "quarkus.http.limits.max-body-size") MemorySize max) {
        this.maxBytes = max.asLongValue();
    }

    void register(@Observes Router router) {
        // Before the Origin and type checks and the identity filters: nothing is worth doing for such a request.
        router.route().order(-1200).handler(this::limit);
    }

    private void limit(RoutingContext ctx) {
        String length = ctx.request().getHeader(HttpHeaders.CONTENT_LENGTH);
        if (length != null && tooLong(length)) {
            ctx.response()
                    .setStatusCode(413)
                    .putHeader(HttpHeaders.CONTENT_TYPE, "application/json")
                    .putHeader(HttpHeaders.CONNECTION, "close")
                    .end(new JsonObject()
                            .put(
                                    "error",
                                    "This request's body is larger than tclab accepts ("
                                            + maxBytes / 1024
                                            + " KiB); every API request is a small JSON document, so send only the "
                                            + "fields the API documents.")
                            .put("problems", new JsonArray())
                            .encode());
            return;
        }
        ctx.next();
    }

    private boolean tooLong(String length) {
        try {
            return Long.parseLong(length.strip()) > maxBytes;
        } catch (NumberFormatException e) {
            return false; // the HTTP server refuses a malformed length itself
        }
    }
}
