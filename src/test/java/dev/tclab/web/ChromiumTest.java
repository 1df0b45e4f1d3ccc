package dev.tclab.web;

import io.quarkus.test.common.http.TestHTTPResource;
import jakarta.inject.Inject;
import java.net.URI;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

/** Base of @QuarkusTest classes that drive the app's pages in headless Chromium: a session of the app's shared one. */
public abstract class ChromiumTest {

    @Inject
    SharedChromium browsers;

    protected Chromium chromium;

    /** The app's root, ending in a slash. */
    @TestHTTPResource("/")
    protected URI root;

    @BeforeEach
    void openSession() {
        chromium = browsers.session();
    }

    @AfterEach
    void closeSession() {
        chromium.close();
    }
}
