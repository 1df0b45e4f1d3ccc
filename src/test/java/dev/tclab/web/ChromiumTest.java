package dev.tclab.web;

import io.quarkus.test.common.http.TestHTTPResource;
import java.net.URI;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/** Base of @QuarkusTest classes that drive the app's pages in one headless Chromium, launched for the class. */
public abstract class ChromiumTest {

    protected static Chromium chromium;

    /** The app's root, ending in a slash. */
    @TestHTTPResource("/")
    protected URI root;

    @BeforeAll
    static void launchChromium() {
        chromium = Chromium.launch();
    }

    @AfterAll
    static void closeChromium() {
        if (chromium != null) {
            chromium.close();
            chromium = null;
        }
    }
}
