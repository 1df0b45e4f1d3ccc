package dev.tclab.web;

import static org.assertj.core.api.Assertions.assertThat;

import com.microsoft.playwright.BrowserContext;
import com.microsoft.playwright.Page;
import com.microsoft.playwright.options.ColorScheme;
import dev.tclab.lab.FakeLabRuntime;
import dev.tclab.lab.FakeRuntimeProfile;
import dev.tclab.lab.LabService;
import dev.tclab.lab.Labs;
import dev.tclab.web.Chromium.Screen;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import jakarta.inject.Inject;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The smaller things a learner meets (issue 27): the lesson's network diagram fits its column at 1366x768, the
 * catalog names kernel features in words, the page has a favicon, /api/labs is asked once per load, and a phone
 * shows no keyboard shortcut. Screenshots go to target/layout-*.png.
 */
@QuarkusTest
@TestProfile(FakeRuntimeProfile.class)
class LessonLayoutBrowserTest {

    @Inject
    SharedChromium browsers;

    private static final Duration TIMEOUT = Duration.ofSeconds(30);

    @TestHTTPResource("/")
    URI root;

    @Inject
    LabService labs;

    @Inject
    FakeLabRuntime runtime;

    @AfterEach
    void clean() throws Exception {
        Labs.clean(labs, runtime);
    }

    @Test
    void diagramsFitTheColumnAndTheCatalogSpeaksInWords() {
        try (Chromium chromium = browsers.session()) {
            for (ColorScheme scheme : List.of(ColorScheme.LIGHT, ColorScheme.DARK)) {
                Page page = chromium.context(Screen.LAPTOP, scheme, TIMEOUT).newPage();
                List<String> labCalls = new ArrayList<>();
                page.onRequest(request -> {
                    if (request.url().endsWith("/api/labs")) labCalls.add(request.method());
                });
                page.navigate(root.resolve("/lessons/tbf-basics").toString());
                page.locator("#lab-start").waitFor();
                page.waitForTimeout(500);
                assertThat(labCalls).as("GET /api/labs once per load").containsExactly("GET");
                Object overflow = page.evaluate("() => { const pre = document.querySelector('.lesson pre');"
                        + " return pre.scrollWidth - pre.clientWidth; }");
                assertThat(((Number) overflow).intValue())
                        .as("the network diagram scrolls by")
                        .isLessThanOrEqualTo(0);
                assertThat(page.locator(".lesson").getAttribute("class")).isNotNull();
                Chromium.screenshot(page, "layout-lesson-1366-" + scheme.name().toLowerCase());

                page.navigate(root.toString());
                assertThat(page.locator(".requirements").first().innerText())
                        .contains("What its lab needs from this server's Linux")
                        .contains("queueing discipline (qdisc)")
                        .doesNotContain("qdisc:tbf");
                Chromium.screenshot(page, "layout-catalog-1366-" + scheme.name().toLowerCase());
                assertThat(page.evaluate(
                                "async () => (await fetch(document.querySelector('link[rel=icon]').href)).status"))
                        .isEqualTo(200);
            }

            BrowserContext phone = chromium.context(
                    Screen.PHONE.options().setIsMobile(true).setHasTouch(true).setColorScheme(ColorScheme.DARK),
                    TIMEOUT);
            Page page = phone.newPage();
            page.navigate(root.resolve("/lessons/example").toString());
            page.click("#lab-start");
            page.locator(".tclab-tab[data-node=client]").waitFor();
            assertThat(page.locator(".tclab-keys").isVisible())
                    .as("no Ctrl+] on a phone")
                    .isFalse();
            page.click(".view-switch a[data-view=lab]");
            Chromium.screenshot(page, "layout-lab-phone-dark");
        }
    }
}
