package dev.tclab.web;

import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;

/**
 * One headless Chromium for every browser test of a test app (a Quarkus test profile), launched when the first one
 * asks and closed when the app stops: a launch (Playwright's driver, then the browser) costs about a second, and the
 * unit tests alone made nine. Each test works in a {@link #session()} of its own, whose end closes the contexts and
 * pages it opened, so no page of one test is left open in the next.
 */
@ApplicationScoped
public class SharedChromium {

    private Chromium chromium;

    /** A session in the shared browser (launched now if it is not yet); close it when the test is done with it. */
    public synchronized Chromium session() {
        if (chromium == null) {
            chromium = Chromium.launch();
        }
        return Chromium.sessionIn(chromium.browser());
    }

    @PreDestroy
    synchronized void close() {
        if (chromium != null) {
            chromium.close();
            chromium = null;
        }
    }
}
