package dev.tclab.web;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.Locale;

/**
 * The one reading of the {@code Origin} header, shared by the WebSocket handshake check and the state-change guard.
 * A browser's Origin is exactly {@code scheme://host[:port]}; anything more (userinfo, a path, a query) is not one a
 * browser sends and is refused, so {@code http://evil.example@tclab.example} cannot pass for tclab's own origin.
 */
public final class Origins {

    private Origins() {}

    /** True when {@code origin} names the same host and port as the request's Host header. */
    public static boolean sameOrigin(String origin, String host, boolean secure) {
        if (origin == null || host == null || host.isBlank()) {
            return false;
        }
        try {
            URI originUri = new URI(origin);
            URI hostUri = new URI((secure ? "https://" : "http://") + host);
            if (!bareOrigin(originUri) || hostUri.getHost() == null || hostUri.getRawUserInfo() != null) {
                return false;
            }
            return originUri
                            .getHost()
                            .toLowerCase(Locale.ROOT)
                            .equals(hostUri.getHost().toLowerCase(Locale.ROOT))
                    && effectivePort(originUri) == effectivePort(hostUri);
        } catch (URISyntaxException e) {
            return false;
        }
    }

    private static boolean bareOrigin(URI uri) {
        String scheme = uri.getScheme();
        return ("http".equalsIgnoreCase(scheme) || "https".equalsIgnoreCase(scheme))
                && uri.getHost() != null
                && uri.getRawUserInfo() == null
                && (uri.getRawPath() == null || uri.getRawPath().isEmpty())
                && uri.getRawQuery() == null
                && uri.getRawFragment() == null;
    }

    private static int effectivePort(URI uri) {
        if (uri.getPort() != -1) {
            return uri.getPort();
        }
        return "https".equalsIgnoreCase(uri.getScheme()) ? 443 : 80;
    }
}
