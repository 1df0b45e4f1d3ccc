package dev.tclab.web;

import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpMethod;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.io.IOException;
import java.io.InputStream;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Brotli for the bundle: the web build writes {@code lab.js.br} beside {@code lab.js} (src/main/web/build.mjs, at
 * brotli's best quality), and a browser that accepts {@code br} gets that copy. Others get the file as the static
 * handler serves it, gzip-compressed on the fly ({@code quarkus.http.enable-compression}). Brotli on the fly would
 * need a native library (brotli4j); compressing once at build time needs none and compresses better.
 */
@ApplicationScoped
public class PrecompressedAssets {

    private static final String PREFIX = "/app/";
    private static final Map<String, String> TYPES =
            Map.of(".js", "text/javascript; charset=utf-8", ".css", "text/css; charset=utf-8");
    /** The .br copies, read once each (a bundle is some 100 KiB compressed); empty when the build made none. */
    private static final Map<String, Optional<Buffer>> COPIES = new ConcurrentHashMap<>();

    void register(@Observes Router router) {
        // After AssetVersions' handler, so the Cache-Control it sets covers this answer too.
        router.route().order(Integer.MIN_VALUE + 20).handler(this::serve);
    }

    private void serve(RoutingContext ctx) {
        String path = ctx.normalizedPath();
        HttpMethod method = ctx.request().method();
        Optional<String> type = typeOf(path);
        if (!path.startsWith(PREFIX) || type.isEmpty() || (method != HttpMethod.GET && method != HttpMethod.HEAD)) {
            ctx.next();
            return;
        }
        ctx.response().headers().add(HttpHeaders.VARY, HttpHeaders.ACCEPT_ENCODING);
        Optional<Buffer> copy = acceptsBrotli(ctx.request().getHeader(HttpHeaders.ACCEPT_ENCODING))
                ? COPIES.computeIfAbsent(path, PrecompressedAssets::read)
                : Optional.empty();
        if (copy.isEmpty()) {
            ctx.next();
            return;
        }
        String etag = "\"br-" + AssetVersions.version(path).orElse("0") + "\"";
        ctx.response().putHeader(HttpHeaders.ETAG, etag);
        if (etag.equals(ctx.request().getHeader(HttpHeaders.IF_NONE_MATCH))) {
            ctx.response().setStatusCode(304).end();
            return;
        }
        ctx.response()
                .putHeader(HttpHeaders.CONTENT_TYPE, type.get())
                .putHeader(HttpHeaders.CONTENT_ENCODING, "br")
                .putHeader(HttpHeaders.CONTENT_LENGTH, String.valueOf(copy.get().length()));
        if (method == HttpMethod.HEAD) {
            ctx.response().end();
        } else {
            ctx.response().end(copy.get());
        }
    }

    private static Optional<String> typeOf(String path) {
        int dot = path.lastIndexOf('.');
        return dot < 0 ? Optional.empty() : Optional.ofNullable(TYPES.get(path.substring(dot)));
    }

    /** Whether an Accept-Encoding header lists br with a quality above 0 ("gzip, deflate, br", "br;q=0.8"). */
    static boolean acceptsBrotli(String acceptEncoding) {
        if (acceptEncoding == null) {
            return false;
        }
        for (String coding : acceptEncoding.toLowerCase(Locale.ROOT).split(",")) {
            String[] parts = coding.split(";");
            if (!parts[0].trim().equals("br")) {
                continue;
            }
            for (int i = 1; i < parts.length; i++) {
                String param = parts[i].trim();
                if (param.startsWith("q=")) {
                    try {
                        return Double.parseDouble(param.substring(2).trim()) > 0;
                    } catch (NumberFormatException e) {
                        return false;
                    }
                }
            }
            return true;
        }
        return false;
    }

    private static Optional<Buffer> read(String path) {
        try (InputStream in = Thread.currentThread()
                .getContextClassLoader()
                .getResourceAsStream("META-INF/resources" + path + ".br")) {
            return in == null ? Optional.empty() : Optional.of(Buffer.buffer(in.readAllBytes()));
        } catch (IOException e) {
            return Optional.empty();
        }
    }
}
