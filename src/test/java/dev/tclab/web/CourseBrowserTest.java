package dev.tclab.web;

import static com.microsoft.playwright.assertions.PlaywrightAssertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import com.microsoft.playwright.BrowserContext;
import com.microsoft.playwright.Locator;
import com.microsoft.playwright.Page;
import com.microsoft.playwright.Route;
import com.microsoft.playwright.options.ColorScheme;
import dev.tclab.lab.FakeLabRuntime;
import dev.tclab.lab.FakeRuntimeProfile;
import dev.tclab.lab.LabService;
import dev.tclab.lab.Labs;
import dev.tclab.web.Chromium.Screen;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The course in a real Chromium (issue 39, item 2): the catalog groups the lessons by track in the course's order,
 * each with its place, what to do first and the learner's progress in the track, the lessons in no track after them;
 * a lesson's completion summary points to the next lesson of its track. Screenshots go to target/course-*.png.
 */
@QuarkusTest
@TestProfile(FakeRuntimeProfile.class)
class CourseBrowserTest extends ChromiumTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(30);

    @Inject
    LabService labs;

    @Inject
    FakeLabRuntime runtime;

    @AfterEach
    void clean() throws Exception {
        Labs.clean(labs, runtime);
    }

    @Test
    void shouldGroupTheCatalogByTrackInTheCoursesOrder() {
        for (ColorScheme scheme : List.of(ColorScheme.LIGHT, ColorScheme.DARK)) {
            Page page = chromium.context(Screen.LAPTOP, scheme, TIMEOUT).newPage();
            page.navigate(root.toString());

            assertEquals(
                    List.of(
                            "track-foundations",
                            "track-queues-and-aqm",
                            "track-classes-and-policing",
                            "track-real-networks"),
                    page.locator("section.track").evaluateAll("all => all.map(s => s.id)"));
            Locator foundations = page.locator("#track-foundations");
            assertThat(foundations.locator("h2")).hasText("Track 1 Foundations");
            assertThat(foundations.locator(".track-summary")).containsText("token bucket");
            assertThat(foundations.locator(".track-progress"))
                    .hasText(Pattern.compile("0 of 3 lessons done · 0 of \\d+ graded steps passed"));
            assertEquals(
                    List.of("/lessons/tbf-basics", "/lessons/htb-rate-accuracy", "/lessons/netem-tcp"),
                    foundations.locator(".card h3 a").evaluateAll("all => all.map(a => a.getAttribute('href'))"));
            Locator htb = foundations.locator("article:has(h3 a[href='/lessons/htb-rate-accuracy'])");
            assertThat(htb.locator(".card-place")).hasText("Lesson 2 of 3");
            assertThat(htb.locator(".prerequisites a")).hasText("Token bucket basics");
            assertThat(htb.locator(".prerequisites a")).hasAttribute("href", "/lessons/tbf-basics");

            assertThat(page.locator("#track-real-networks .card-place").first()).hasText("Lesson 1 of 4");
            Locator more = page.locator("section.more-lessons");
            assertThat(more.locator("h2")).hasText("More lessons");
            assertThat(more.locator("a[href='/lessons/web-test']")).isVisible();
            assertEquals(0, more.locator(".card-place").count(), "a lesson in no track has no place");
            assertEquals(0, page.locator(".course-problems").count(), "the built-in course file has no problem");
            Chromium.screenshot(page, "course-catalog-1366-" + scheme.name().toLowerCase());
            page.context().close();
        }

        BrowserContext phone = chromium.context(
                Screen.PHONE.options().setIsMobile(true).setHasTouch(true).setColorScheme(ColorScheme.DARK), TIMEOUT);
        Page page = phone.newPage();
        page.navigate(root.toString());
        assertThat(page.locator("#track-foundations .track-progress")).isVisible();
        Object overflow = page.evaluate("() => document.documentElement.scrollWidth > window.innerWidth");
        assertFalse(Boolean.TRUE.equals(overflow), "the catalog scrolls sideways on a phone");
        Chromium.screenshot(page, "course-catalog-phone-dark");
    }

    @Test
    void shouldPointTheCompletionSummaryToTheNextLessonOfTheTrack() {
        Page page = chromium.context(Screen.LAPTOP, ColorScheme.LIGHT, TIMEOUT).newPage();
        // Every graded step passed, as the lab's step progress says once the lab is running.
        page.route(
                "**/api/labs/*/steps",
                route -> json(route, "{\"passed\": {\"baseline\": true, \"shape\": true}," + " \"active\": null}"));
        page.navigate(root.resolve("/lessons/tbf-basics").toString());
        page.click("#lab-start");
        Locator complete = page.locator("#lesson-complete");
        assertThat(complete).isVisible();
        assertThat(complete.locator(".lesson-next"))
                .containsText("Next in Foundations: How accurate is HTB? A rate sweep.");
        assertThat(complete.locator(".lesson-next a")).hasAttribute("href", "/lessons/htb-rate-accuracy");
        complete.scrollIntoViewIfNeeded();
        Chromium.screenshot(page, "course-complete-1366");
        // Finished: the summary offers to stop the lab, asking first as the panel's Stop does; gone once stopped.
        Locator stopOffer = complete.locator(".lesson-complete-stop");
        assertThat(stopOffer).isVisible();
        page.click("#lesson-complete-stop");
        assertThat(page.locator("#lab-stop-cancel")).isFocused();
        page.click("#lab-stop-confirm");
        assertThat(page.locator("#lab-start")).isVisible();
        assertThat(stopOffer).isHidden();

        // On a phone in dark mode: the offer reads, and its question shows in the lab's view.
        Page phone = chromium.context(
                        Screen.PHONE
                                .options()
                                .setIsMobile(true)
                                .setHasTouch(true)
                                .setColorScheme(ColorScheme.DARK),
                        TIMEOUT)
                .newPage();
        phone.route(
                "**/api/labs/*/steps",
                route -> json(route, "{\"passed\": {\"baseline\": true, \"shape\": true}," + " \"active\": null}"));
        phone.navigate(root.resolve("/lessons/tbf-basics").toString());
        phone.click("#lab-start");
        assertThat(phone.locator("#lab-stop")).isAttached();
        phone.click(".view-switch a[data-view=lesson]");
        Locator phoneOffer = phone.locator("#lesson-complete .lesson-complete-stop");
        phoneOffer.scrollIntoViewIfNeeded();
        assertThat(phoneOffer).isVisible();
        Chromium.screenshot(phone, "course-complete-phone-dark");
        phone.click("#lesson-complete-stop");
        assertThat(phone.locator("#lab-stop-confirm")).isVisible();
        Chromium.screenshot(phone, "course-complete-stop-phone-dark");
        phone.click("#lab-stop-confirm");
        assertThat(phone.locator("#lab-start")).isVisible();
        phone.context().close();

        // The last lesson of a track points to the first of the next track (read in the summary, still hidden).
        page.navigate(root.resolve("/lessons/netem-tcp").toString());
        assertThat(page.locator("#lesson-complete .lesson-next"))
                .containsText("You have finished Foundations. Next, Queues and AQM: Buffers");
        assertThat(page.locator("#lesson-complete .lesson-next a")).hasAttribute("href", "/lessons/buffers");
    }

    private static void json(Route route, String body) {
        route.fulfill(new Route.FulfillOptions()
                .setStatus(200)
                .setContentType("application/json")
                .setBody(body));
    }
}
