package dev.tclab.web;

import static com.microsoft.playwright.assertions.PlaywrightAssertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.microsoft.playwright.Browser;
import com.microsoft.playwright.Locator;
import com.microsoft.playwright.Page;
import com.microsoft.playwright.assertions.LocatorAssertions;
import com.microsoft.playwright.options.AriaRole;
import com.sun.net.httpserver.HttpServer;
import dev.tclab.lab.FakeRuntimeProfile;
import dev.tclab.lab.LabService;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import jakarta.inject.Inject;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A learner in a real headless Chromium, on the fake lab runtime: answers quizzes in place (and without JavaScript
 * through the plain forms), starts and stops a lab, and sees the Check buttons follow it.
 */
@QuarkusTest
@TestProfile(FakeRuntimeProfile.class)
class LessonBrowserTest extends ChromiumTest {

    @Inject
    LabService labs;

    @Test
    void shouldAnswerAQuizInPlaceWithoutReloadingThePage() {
        try (var context = chromium.browser().newContext()) {
            Page page = context.newPage();
            page.navigate(root + "lessons/web-test");
            page.evaluate("window.__marker = 1");

            Locator quiz = page.locator("#quiz-burst-unit");
            assertEquals(0, quiz.locator(".quiz-why").count(), "no explanation before answering");
            quiz.getByLabel("32 kilobits", new Locator.GetByLabelOptions().setExact(true))
                    .check();
            checkAnswer(quiz);
            assertThat(quiz.locator(".quiz-result"))
                    .hasText("Not quite. Read why next to your choice, then try again.");
            assertThat(quiz.locator(".quiz-result")).hasClass("quiz-result is-incorrect");
            assertEquals(1, quiz.locator(".quiz-why").count());
            assertThat(quiz.locator(".quiz-option.is-wrong .quiz-why code")).hasText("32kbit");
            assertEquals(1, page.evaluate("window.__marker"), "the page was not reloaded");

            quiz.getByLabel("32 kilobytes").check();
            checkAnswer(quiz);
            assertThat(quiz.locator(".quiz-result")).hasText("Correct! Every option is explained above.");
            assertThat(quiz.locator(".quiz-why")).hasCount(3);
            assertThat(quiz.locator(".quiz-option.is-right .quiz-why")).containsText("Right: tc reads the suffix kb");
            assertThat(quiz.locator(".quiz-option.is-chosen")).hasCount(1);
            assertEquals(1, page.evaluate("window.__marker"), "the page was not reloaded");
            assertTrue(page.url().endsWith("/lessons/web-test"), page.url());

            page.navigate(root.toString());
            assertTrue(
                    page.locator("article:has(a[href='/lessons/web-test']) .progress")
                            .textContent()
                            .contains("1 of 2 answered correctly"),
                    "the answer was kept on the server");
        }
    }

    @Test
    void shouldSayInWordsWhyAnAnswerWasNotGraded() {
        try (var context = chromium.browser().newContext()) {
            Page page = context.newPage();
            page.navigate(root + "lessons/web-test");
            page.evaluate("window.__marker = 1");
            Locator quiz = page.locator("#quiz-burst-unit");

            checkAnswer(quiz);
            assertThat(quiz.locator(".quiz-result")).hasText("Your answer was not graded: Choose at least one option.");

            page.route("**/api/lessons/web-test/quizzes/burst-unit", route -> route.abort());
            quiz.getByLabel("32 kilobytes").check();
            checkAnswer(quiz);
            assertThat(quiz.locator(".quiz-result"))
                    .hasText("Your answer was not graded: "
                            + "The tclab server cannot be reached. Check your connection and try again.");
            assertThat(quiz.locator(".quiz-result")).hasClass("quiz-result is-error");
            assertThat(quiz.getByRole(AriaRole.BUTTON, new Locator.GetByRoleOptions().setName("Check answer")))
                    .isEnabled();
            assertEquals(1, page.evaluate("window.__marker"), "the page was not reloaded");
        }
    }

    /**
     * Issue 42, item 7: a reload went back to the top of a long lesson. The place is kept for the lesson: in its own
     * column side by side at 1366 px, in the window on a phone.
     */
    @Test
    void shouldKeepTheReadingPlaceAcrossAReload() {
        for (Chromium.Screen screen : List.of(Chromium.Screen.LAPTOP, Chromium.Screen.PHONE)) {
            try (var context = chromium.browser().newContext(screen.options())) {
                Page page = context.newPage();
                page.navigate(root + "lessons/web-test");
                String scroller = screen == Chromium.Screen.LAPTOP
                        ? "document.querySelector('.lesson-layout > .lesson')"
                        : "document.scrollingElement";
                Number read = (Number)
                        page.evaluate("() => { " + scroller + ".scrollTop = 900; return " + scroller + ".scrollTop; }");
                assertTrue(read.doubleValue() > 300, screen + ": the lesson is long enough to scroll: " + read);
                page.waitForTimeout(600);
                page.reload();
                page.locator("#lab-start").waitFor();
                Number place = (Number) page.evaluate("() => " + scroller + ".scrollTop");
                assertTrue(
                        Math.abs(place.doubleValue() - read.doubleValue()) <= 40,
                        screen + ": the lesson is read from where it was (" + read + " px), not from " + place);
                Chromium.screenshot(
                        page, "lesson-reading-place-" + screen.name().toLowerCase());
            }
        }
    }

    @Test
    void shouldAnswerAQuizWithoutJavaScriptByPostingTheForm() {
        try (var context = chromium.browser().newContext(new Browser.NewContextOptions().setJavaScriptEnabled(false))) {
            Page page = context.newPage();
            page.navigate(root.toString());
            page.getByRole(AriaRole.LINK, new Page.GetByRoleOptions().setName("Token bucket drill"))
                    .click();
            assertTrue(page.url().endsWith("/lessons/web-test"), page.url());

            Locator quiz = page.locator("#quiz-burst-unit");
            quiz.getByLabel("32 kilobits", new Locator.GetByLabelOptions().setExact(true))
                    .check();
            checkAnswer(quiz);
            page.waitForURL("**/lessons/web-test#quiz-burst-unit");

            quiz = page.locator("#quiz-burst-unit");
            assertTrue(quiz.locator(".quiz-result").textContent().startsWith("Not quite."));
            assertEquals(1, quiz.locator(".quiz-why").count());
            assertTrue(quiz.locator(".quiz-option.is-wrong .quiz-why")
                    .textContent()
                    .contains("Kilobits would be written"));
            assertTrue(
                    quiz.getByLabel("32 kilobits", new Locator.GetByLabelOptions().setExact(true))
                            .isChecked(),
                    "the learner's choice is kept");

            quiz.getByLabel("32 kilobytes").check();
            checkAnswer(quiz);
            page.waitForLoadState();

            quiz = page.locator("#quiz-burst-unit");
            assertTrue(quiz.locator(".quiz-result").textContent().startsWith("Correct!"));
            assertEquals(3, quiz.locator(".quiz-why").count(), "every option is explained");
            assertTrue(quiz.locator(".quiz-option.is-right .quiz-why")
                    .textContent()
                    .contains("reads the suffix"));
        }
    }

    @Test
    void shouldEnableChecksOnlyWhileTheLabRunsAndSayWhenItStopsIdle() {
        try (var context = chromium.browser().newContext()) {
            Page page = context.newPage();
            page.navigate(root + "lessons/web-test");
            Locator check = page.locator("#check-shaped-to-rate button.check-run");
            Locator needsLab = page.locator("#check-shaped-to-rate .check-needs-lab");
            Locator expiry = page.locator("#lab-expiry");
            assertThat(needsLab).hasText("Start the lab to check this step.");
            assertThat(check).isDisabled();
            assertThat(check).hasAttribute("title", "Start the lab to check this step.");
            assertThat(expiry).isHidden();

            page.click("#lab-start");
            assertThat(check).isEnabled();
            assertThat(needsLab).isHidden();
            assertThat(expiry).isVisible();
            assertTrue(
                    expiry.textContent()
                            .matches("Stops after (44|45) idle minutes \\(about \\d\\d:\\d\\d\\) unless you use it\\."),
                    expiry.textContent());

            // From here on the page learns nothing from polling: only the lab panel's announcement can disable checks.
            page.route("**/api/labs", route -> route.abort());
            page.click("#lab-stop");
            page.click("#lab-stop-confirm");
            assertThat(check).isDisabled(new LocatorAssertions.IsDisabledOptions().setTimeout(1000));
            assertThat(needsLab).isVisible();
            assertThat(expiry).isHidden();
        }
    }

    @Test
    void shouldRunTheLessonPageAndItsLabPanelWithoutAContentSecurityPolicyViolation() {
        try (var context = chromium.browser().newContext()) {
            context.addInitScript(Chromium.RECORD_CSP_VIOLATIONS);
            Page page = context.newPage();
            List<String> consoleErrors = new java.util.concurrent.CopyOnWriteArrayList<>();
            page.onConsoleMessage(m -> {
                if ("error".equals(m.type())) {
                    consoleErrors.add(m.text());
                }
            });
            page.navigate(root + "lessons/web-test");
            page.click("#lab-start");
            // The terminal (xterm.js styles its rows with a <style> element) and the statistics panel are up.
            page.locator(".xterm-rows").first().waitFor();
            Locator quiz = page.locator("#quiz-burst-unit");
            quiz.getByLabel("32 kilobytes").check();
            checkAnswer(quiz);
            assertThat(quiz.locator(".quiz-result")).hasText("Correct! Every option is explained above.");
            page.click("#lab-stop");
            page.click("#lab-stop-confirm");
            assertThat(page.locator("#lab-start")).isVisible();

            assertEquals(List.of(), page.evaluate("window.__csp"), "no CSP violation");
            assertEquals(
                    List.of(),
                    consoleErrors.stream()
                            .filter(t -> t.contains("Content Security Policy"))
                            .toList());
            // The listener does hear violations: an inline script is refused.
            page.evaluate("document.body.append(Object.assign(document.createElement('script'), "
                    + "{textContent: 'window.__inline = 1'}))");
            page.waitForCondition(() -> !((List<?>) page.evaluate("window.__csp")).isEmpty());
            assertTrue(
                    page.evaluate("window.__csp").toString().contains("script-src"),
                    page.evaluate("window.__csp").toString());
            assertEquals(null, page.evaluate("window.__inline"), "the inline script did not run");
        }
    }

    @Test
    void shouldStartNoLabForAPageOnAnotherSite() throws Exception {
        // Row 10 of issue 10: a page on another site posted text/plain to /api/labs and a lab started.
        int before = labs.liveCount();
        byte[] evilPage = ("<form method=post enctype=text/plain action='" + root + "api/labs'>"
                        + "<input name='{\"lesson\": \"example\", \"x\": \"' value='\"}'><button>win a prize</button></form>")
                .getBytes(StandardCharsets.UTF_8);
        // A real server on another port: the browser treats it as another site, and as a local one (a page that
        // came from nowhere would count as public, and the browser would stop its calls to localhost itself).
        HttpServer evil = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        evil.createContext("/", exchange -> {
            exchange.getResponseHeaders().set("Content-Type", "text/html");
            exchange.sendResponseHeaders(200, evilPage.length);
            exchange.getResponseBody().write(evilPage);
            exchange.close();
        });
        evil.start();
        try (var context = chromium.browser().newContext()) {
            Page page = context.newPage();
            page.navigate("http://127.0.0.1:" + evil.getAddress().getPort() + "/");
            com.microsoft.playwright.Response fetched = page.waitForResponse(
                    root + "api/labs",
                    () -> page.evaluate(
                            "url => fetch(url, {method: 'POST', mode: 'no-cors', credentials: 'include', "
                                    + "headers: {'Content-Type': 'text/plain'}, body: '{\"lesson\": \"example\"}'})",
                            root + "api/labs"));
            assertEquals(403, fetched.status(), "the fetch reached tclab and was refused");
            com.microsoft.playwright.Response posted =
                    page.waitForResponse(root + "api/labs", () -> page.click("button"));
            assertEquals(403, posted.status(), "the form post reached tclab and was refused");
        } finally {
            evil.stop(0);
        }
        assertEquals(before, labs.liveCount(), "no lab started");
    }

    private static void checkAnswer(Locator quiz) {
        quiz.getByRole(AriaRole.BUTTON, new Locator.GetByRoleOptions().setName("Check answer"))
                .click();
    }

    @Test
    void shouldRevealHintsAndSolutionsOnlyWhenAsked() {
        try (var context = chromium.browser().newContext()) {
            Page page = context.newPage();
            page.navigate(root + "lessons/web-test");
            Locator solution = page.locator("details.solution");
            assertFalse(solution.locator("pre").isVisible(), "the solution starts hidden");
            solution.locator("summary").click();
            assertTrue(solution.locator("pre").isVisible());
            assertTrue(
                    solution.locator("pre")
                            .textContent()
                            .matches("tc qdisc replace dev eth1 root tbf rate (8|10|12)mbit .*"),
                    solution.locator("pre").textContent());
            assertTrue(page.locator("button.check-run").first().isDisabled(), "checks wait for the lab script");
        }
    }
}
