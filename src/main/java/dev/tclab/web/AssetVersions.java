package dev.tclab.web;

import io.quarkus.qute.TemplateExtension;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.io.IOException;
import java.io.InputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Fingerprinted URLs of the pages' scripts and styles, and their caching. Pages link {@code /app/lab.js?v=<hash of
 * its content>} ({@code {asset:url('/app/lab.js')}} in a template): such a URL names one version for ever, so it is
 * cached for a year as immutable, and an upgrade changes the URL. The same files asked for without the current
 * version (an old page, a source map, a module one of them imports) must be revalidated ({@code no-cache}), so no
 * browser keeps an old bundle after an upgrade.
 */
@ApplicationScoped
public class AssetVersions {

    /** Where the static assets are served from (META-INF/resources). */
    private static final List<String> PREFIXES = List.of("/app/", "/css/");

    private static final String IMMUTABLE = "public, max-age=31536000, immutable";
    private static final String REVALIDATE = "no-cache";
    private static final Map<String, Optional<String>> VERSIONS = new ConcurrentHashMap<>();

    /** The asset's URL with its content version, or the path as it is when no such resource exists. */
    @TemplateExtension(namespace = "asset")
    static String url(String path) {
        return version(path).map(v -> path + "?v=" + v).orElse(path);
    }

    /** The first 12 hex digits of the SHA-256 of the resource's bytes; read once. */
    static Optional<String> version(String path) {
        return VERSIONS.computeIfAbsent(path, AssetVersions::hash);
    }

    private static Optional<String> hash(String path) {
        try (InputStream in =
                Thread.currentThread().getContextClassLoader().getResourceAsStream("META-INF/resources" + path)) {
            if (in == null) {
                return Optional.empty();
            }
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(in.readAllBytes());
            return Optional.of(HexFormat.of().formatHex(digest, 0, 6));
        } catch (IOException | NoSuchAlgorithmException e) {
            return Optional.empty();
        }
    }

    void register(@Observes Router router) {
        router.route().order(Integer.MIN_VALUE + 10).handler(this::cacheHeaders);
    }

    private void cacheHeaders(RoutingContext ctx) {
        String path = ctx.normalizedPath();
        if (PREFIXES.stream().anyMatch(path::startsWith)) {
            String asked = ctx.request().getParam("v");
            String policy = asked != null && version(path).filter(asked::equals).isPresent() ? IMMUTABLE : REVALIDATE;
            // Set last, over the static handler's own header (a day, immutable, whatever the URL).
            ctx.addHeadersEndHandler(v -> {
                if (ctx.response().getStatusCode() < 400) {
                    ctx.response().headers().set("Cache-Control", policy);
                }
            });
        }
        ctx.next();
    }
}
