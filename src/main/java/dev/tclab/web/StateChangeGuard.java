package dev.tclab.web;

import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Keeps pages on other sites from changing anything in tclab with a learner's browser (cross-site request forgery),
 * before any resource runs:
 * <ul>
 *   <li>a {@code POST}, {@code PUT}, {@code PATCH} or {@code DELETE} whose {@code Origin} names another site is
 *       refused with 403; one without an Origin (curl, scripts) goes on, as browsers send Origin on all of these;</li>
 *   <li>a {@code POST}, {@code PUT} or {@code PATCH} must be {@code application/json} (415 otherwise): a page on another
 *       site cannot send that type without a CORS preflight, and tclab answers no preflight. The no-JavaScript quiz
 *       form is the one exception, as a form post. {@code DELETE} needs no type: it is never sent without a
 *       preflight.</li>
 * </ul>
 */
@ApplicationScoped
public class StateChangeGuard {

    private static final Set<HttpMethod> STATE_CHANGES =
            Set.of(HttpMethod.POST, HttpMethod.PUT, HttpMethod.PATCH, HttpMethod.DELETE);
    private static final String JSON = "application/json";
    private static final String FORM = "application/x-www-form-urlencoded";
    /** The lesson page's quiz form (see LessonPages#answer). */
    private static final Pattern QUIZ_FORM = Pattern.compile("/lessons/[^/]+/quizzes/[^/]+");

    void register(@Observes Router router) {
        // Before the learner cookie filter: a refused request gets no learner id either.
        router.route().order(-1100).handler(this::guard);
    }

    private void guard(RoutingContext ctx) {
        HttpServerRequest request = ctx.request();
        if (!STATE_CHANGES.contains(request.method())) {
            ctx.next();
            return;
        }
        String origin = request.getHeader(HttpHeaders.ORIGIN);
        if (origin != null && !Origins.sameOrigin(origin, request.getHeader(HttpHeaders.HOST), request.isSSL())) {
            refuse(
                    ctx,
                    403,
                    "This request came from a page that is not tclab's own (its Origin is another site), so "
                            + "it was refused. Use tclab's own pages, or call the API without an Origin header.");
            return;
        }
        if (request.method() != HttpMethod.DELETE && !acceptedType(request)) {
            refuse(
                    ctx,
                    415,
                    "Send changes as JSON, with the header 'Content-Type: application/json' (even with no "
                            + "body); tclab refuses other types so that other sites cannot send them.");
            return;
        }
        ctx.next();
    }

    private static boolean acceptedType(HttpServerRequest request) {
        String type = mediaType(request.getHeader(HttpHeaders.CONTENT_TYPE));
        return JSON.equals(type)
                || FORM.equals(type) && QUIZ_FORM.matcher(request.path()).matches();
    }

    /** The type without parameters ({@code application/json; charset=utf-8} is {@code application/json}). */
    private static String mediaType(String contentType) {
        if (contentType == null) {
            return "";
        }
        int semicolon = contentType.indexOf(';');
        return (semicolon < 0 ? contentType : contentType.substring(0, semicolon))
                .strip()
                .toLowerCase(Locale.ROOT);
    }

    private static void refuse(RoutingContext ctx, int status, String error) {
        ctx.response()
                .setStatusCode(status)
                .putHeader(HttpHeaders.CONTENT_TYPE, JSON)
                .end(new JsonObject()
                        .put("error", error)
                        .put("problems", new JsonArray())
                        .encode());
    }
}
