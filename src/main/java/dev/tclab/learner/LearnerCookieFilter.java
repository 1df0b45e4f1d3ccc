package dev.tclab.learner;

import io.vertx.core.http.Cookie;
import io.vertx.core.http.CookieSameSite;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

/**
 * Gives every visitor a learner id before any page, API call or WebSocket handshake is handled: the id from a
 * valid signed cookie, or a new one (and its cookie).
 */
@ApplicationScoped
public class LearnerCookieFilter {

    static final String CONTEXT_KEY = "tclab.learner";
    private static final long ONE_YEAR_SECONDS = 365L * 24 * 3600;

    private final LearnerIds ids;

    public LearnerCookieFilter(LearnerIds ids) {
        this.ids = ids;
    }

    void register(@Observes Router router) {
        router.route().order(-1000).handler(this::identify);
    }

    private void identify(RoutingContext ctx) {
        Cookie cookie = ctx.request().getCookie(LearnerIds.COOKIE);
        String id = cookie == null ? null : ids.verify(cookie.getValue()).orElse(null);
        if (id == null) {
            id = ids.newId();
            ctx.response().addCookie(Cookie.cookie(LearnerIds.COOKIE, ids.sign(id))
                    .setPath("/").setHttpOnly(true).setSameSite(CookieSameSite.LAX).setMaxAge(ONE_YEAR_SECONDS));
        }
        ctx.put(CONTEXT_KEY, id);
        ctx.next();
    }

    /** The learner id the filter put on this request. */
    public static String learnerOf(RoutingContext ctx) {
        String id = ctx.get(CONTEXT_KEY);
        if (id == null) {
            throw new IllegalStateException("LearnerCookieFilter did not run for " + ctx.request().path());
        }
        return id;
    }
}
