package dev.tclab.web;

import static com.microsoft.playwright.assertions.PlaywrightAssertions.assertThat;
import static dev.tclab.web.LearnerActions.focusedIn;
import static dev.tclab.web.LearnerActions.tabTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.microsoft.playwright.BrowserContext;
import com.microsoft.playwright.Locator;
import com.microsoft.playwright.Page;
import com.microsoft.playwright.Route;
import com.microsoft.playwright.options.ColorScheme;
import dev.tclab.lab.FakeRuntimeProfile;
import dev.tclab.web.Chromium.Screen;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * What the learner reads, at 1366×768 on the fake lab runtime: a check's outcome in their words (details behind a
 * disclosure), the lesson-complete summary, and the catalog's progress and running lab with its Stop button. The
 * check API's answers are the documented JSON (docs/api.md), served by the test, so every kind of outcome shows.
 * Also: no serious or critical axe-core findings on the pages (axe from src/main/web/node_modules, installed by the
 * build, never committed), and one step done with the keyboard alone.
 */
@QuarkusTest
@TestProfile(FakeRuntimeProfile.class)
class LearnerFeedbackBrowserTest extends ChromiumTest {

    private static final String FAILED_RUN = """
            {"id": "r1", "step": "shape", "state": "failed", "detail": "not yet", "finished": true, "results": [
              {"check": "shaped-to-rate", "title": "the upload runs at about 10 Mbit/s", "status": "failed",
               "message": "up.mbps is 26900 Mbit/s; expected about 10mbit (± 15 %)",
               "hint": "Look at `tc -s qdisc show dev eth1` on the client.", "attempts": 2, "millis": 8120,
               "assertions": [
                 {"path": "up.mbps", "measured": "26900 Mbit/s", "number": 26900, "unit": "Mbit/s", "ratio": null,
                  "expected": "about 10mbit (± 15 %)", "passed": false, "message": "up.mbps is 26900 Mbit/s", "children": [],
                  "reason": {"kind": "not_met", "measurement": "up", "subject": "the client's upload", "path": "up.mbps",
                    "comparison": "near", "expected": "about 10 Mbit/s (± 15 %)", "measured": "26.9 Gbit/s",
                    "unit": "Gbit/s", "ratioTo": null, "baseline": null, "error": null, "authored": false}},
                 {"path": "q.root.kind", "measured": "tbf", "number": null, "unit": null, "ratio": null,
                  "expected": "matching /^(tbf|cake)$/", "passed": true, "message": "ok", "children": [],
                  "reason": {"kind": "held", "measurement": "q", "subject": "the kind of the root qdisc on the client's eth1",
                    "path": "q.root.kind", "comparison": "matches", "expected": "matching the pattern /^(tbf|cake)$/",
                    "measured": "tbf", "unit": "", "ratioTo": null, "baseline": null, "error": null, "authored": false}},
                 {"path": "c.by_id[1:10].delta.borrowed", "measured": "3", "number": 3, "unit": "", "ratio": null,
                  "expected": "above 20", "passed": false, "message": "c.by_id[1:10].delta.borrowed is 3; expected above 20",
                  "children": [],
                  "reason": {"kind": "not_met", "measurement": "c",
                    "subject": "the borrows of class 1:10 on the client's eth1 over the load",
                    "path": "c.by_id[1:10].delta.borrowed", "comparison": "bounds", "expected": "above 20 borrows",
                    "measured": "3 borrows", "unit": "borrows", "ratioTo": null, "baseline": null, "error": null,
                    "authored": false,
                    "flow": {"load": "up", "flow": "", "protocol": "tcp", "serverPort": 24817, "tos": 0, "dev": "eth1",
                      "wentThrough": "1:20", "byDefault": true, "expected": "1:10"}}},
                 {"path": "ping.avg_ms", "measured": "4.5 ms = 0.0477 × 94.3 ms (baseline.loaded_ping)", "number": 4.5,
                  "unit": "ms", "ratio": 0.0477, "expected": "a ratio to baseline.loaded_ping below 0.2", "passed": true,
                  "message": "ok", "children": [],
                  "reason": {"kind": "held", "measurement": "ping",
                    "subject": "average round trip of the client's ping to 10.0.0.2", "path": "ping.avg_ms",
                    "comparison": "bounds", "expected": "below 0.2 times the figure recorded earlier as loaded_ping",
                    "measured": "4.5 ms", "unit": "ms", "ratioTo": "the figure recorded earlier as loaded_ping",
                    "baseline": "94.3 ms", "error": null, "authored": false}},
                 {"path": "any_of", "measured": "q.root.options.bandwidth = 5.5 Mbit/s; q.root.options.rate = no value",
                  "number": null, "unit": null, "ratio": null, "expected": "at least one of: …", "passed": false,
                  "message": "CAKE on the client's eth1 shapes to 5.5 Mbit/s, not below 5 Mbit/s", "children": [
                   {"path": "q.root.options.bandwidth", "measured": "5.5 Mbit/s", "number": 5.5, "unit": "Mbit/s",
                    "ratio": null, "expected": "below 5mbit", "passed": false,
                    "message": "CAKE on the client's eth1 shapes to 5.5 Mbit/s, not below 5 Mbit/s", "children": [],
                    "reason": {"kind": "not_met", "measurement": "q", "subject": "the bandwidth of the root qdisc on the client's eth1",
                      "path": "q.root.options.bandwidth", "comparison": "bounds", "expected": "below 5 Mbit/s",
                      "measured": "5.5 Mbit/s", "unit": "Mbit/s", "ratioTo": null, "baseline": null, "error": null,
                      "authored": true}},
                   {"path": "q.root.options.rate", "measured": "no value at q.root.options.rate", "number": null,
                    "unit": null, "ratio": null, "expected": "below 5mbit", "passed": false,
                    "message": "q.root.options.rate: no value at q.root.options.rate; expected below 5mbit", "children": [],
                    "reason": {"kind": "no_value", "measurement": "q", "subject": "the rate of the root qdisc on the client's eth1",
                      "path": "q.root.options.rate", "comparison": "bounds", "expected": "below 5 Mbit/s",
                      "measured": null, "unit": "", "ratioTo": null, "baseline": null, "error": null,
                      "authored": false}}],
                  "reason": {"kind": "not_met", "measurement": null, "subject": null, "path": "any_of",
                    "comparison": "any_of", "expected": "at least one of: …", "measured": null, "unit": "",
                    "ratioTo": null, "baseline": null, "error": null, "authored": false}}],
               "errors": {}, "raw": {},
               "flows": [{"load": "up", "flow": "", "node": "client", "protocol": "tcp", "clientPort": 40312,
                 "serverPort": 24817, "tos": 0, "bytes": 5000000, "counted": [
                   {"dev": "eth1", "what": "qdisc", "id": "1:", "kind": "htb", "bytes": 5230000, "packets": 3460,
                    "leaf": false, "byDefault": false},
                   {"dev": "eth1", "what": "class", "id": "1:20", "kind": "htb", "bytes": 5230000, "packets": 3460,
                    "leaf": true, "byDefault": true}]}]},
              {"check": "gated", "title": "a tbf holds the uplink to 10 Mbit/s", "status": "failed",
               "message": "q.root.kind is noqueue; expected equal to tbf (throughput and latency not measured until this holds)",
               "hint": "Put a tbf on eth1.", "attempts": 1, "millis": 50,
               "assertions": [
                 {"path": "q.root.kind", "measured": "noqueue", "number": null, "unit": null, "ratio": null,
                  "expected": "equal to tbf", "passed": false, "message": "the root qdisc of the client's eth1 is noqueue, not tbf",
                  "children": [],
                  "reason": {"kind": "not_met", "measurement": "q", "subject": "the kind of the root qdisc on the client's eth1",
                    "path": "q.root.kind", "comparison": "equals", "expected": "equal to tbf", "measured": "noqueue",
                    "unit": "", "ratioTo": null, "baseline": null, "error": null, "authored": true}},
                 {"path": "up.mbps", "measured": "not measured: skipped", "number": null, "unit": null, "ratio": null,
                  "expected": "about 10mbit (± 12 %)", "passed": false, "message": "up.mbps: not measured", "children": [],
                  "reason": {"kind": "skipped", "measurement": "up", "subject": "the client's upload", "path": "up.mbps",
                    "comparison": "near", "expected": "about 10 Mbit/s (± 12 %)", "measured": null, "unit": "",
                    "ratioTo": null, "baseline": null, "error": "skipped, since what the check reads first already fails",
                    "authored": false}},
                 {"path": "lat.avg_ms", "measured": "not measured: skipped", "number": null, "unit": null, "ratio": null,
                  "expected": "below 50ms", "passed": false, "message": "lat.avg_ms: not measured", "children": [],
                  "reason": {"kind": "skipped", "measurement": "lat",
                    "subject": "average round trip of the client's ping to 10.0.0.2", "path": "lat.avg_ms",
                    "comparison": "bounds", "expected": "below 50 ms", "measured": null, "unit": "", "ratioTo": null,
                    "baseline": null, "error": "skipped, since what the check reads first already fails",
                    "authored": false}}],
               "errors": {"up": "skipped, since what the check reads first already fails",
                          "lat": "skipped, since what the check reads first already fails"}, "raw": {}},
              {"check": "queue-read", "title": "the queue can be read", "status": "error",
               "message": "Measurement 'q' failed: tc printed something tclab cannot read", "hint": null, "attempts": 1,
               "millis": 300, "assertions": [
                 {"path": "q.root.qlen", "measured": "not measured", "number": null, "unit": null, "ratio": null,
                  "expected": "below 10", "passed": false, "message": "q.root.qlen: not measured", "children": [],
                  "reason": {"kind": "measurement_failed", "measurement": "q",
                    "subject": "the qlen of the root qdisc on the client's eth1", "path": "q.root.qlen",
                    "comparison": "bounds", "expected": "below 10 packets", "measured": null, "unit": "",
                    "ratioTo": null, "baseline": null, "error": "tc printed something tclab cannot read",
                    "authored": false}}],
               "errors": {"q": "tc printed something tclab cannot read"}, "raw": {"q": "garbled output"}}]}
            """;
    private static final String PASSED_RUN = """
            {"id": "r2", "step": "shape", "state": "passed", "detail": "passed", "finished": true, "results": [
              {"check": "shaped-to-rate", "title": "the upload runs at about 10 Mbit/s", "status": "passed",
               "message": "Passed.", "hint": "never shown once passed", "attempts": 1, "millis": 4000,
               "assertions": [{"path": "up.mbps", "measured": "9.61 Mbit/s", "number": 9.61, "unit": "Mbit/s",
                  "ratio": null, "expected": "about 10mbit (± 15 %)", "passed": true, "message": "ok", "children": [],
                  "reason": {"kind": "held", "measurement": "up", "subject": "the client's upload", "path": "up.mbps",
                    "comparison": "near", "expected": "about 10 Mbit/s (± 15 %)", "measured": "9.61 Mbit/s",
                    "unit": "Mbit/s", "ratioTo": null, "baseline": null, "error": null, "authored": false}},
                 {"path": "any_of", "measured": "q.root.kind = tbf; q.root.kind = cake", "number": null, "unit": null,
                  "ratio": null, "expected": "at least one of: …", "passed": true, "message": "holds", "children": [
                   {"path": "q.root.kind", "measured": "tbf", "number": null, "unit": null, "ratio": null,
                    "expected": "equal to tbf", "passed": true, "message": "ok", "children": [],
                    "reason": {"kind": "held", "measurement": "q", "subject": "the kind of the root qdisc on the client's eth1",
                      "path": "q.root.kind", "comparison": "equals", "expected": "equal to tbf", "measured": "tbf",
                      "unit": "", "ratioTo": null, "baseline": null, "error": null, "authored": false}},
                   {"path": "q.root.kind", "measured": "tbf", "number": null, "unit": null, "ratio": null,
                    "expected": "equal to cake", "passed": false, "message": "no", "children": [],
                    "reason": {"kind": "not_met", "measurement": "q", "subject": "the kind of the root qdisc on the client's eth1",
                      "path": "q.root.kind", "comparison": "equals", "expected": "equal to cake", "measured": "tbf",
                      "unit": "", "ratioTo": null, "baseline": null, "error": null, "authored": false}}],
                  "reason": {"kind": "held", "measurement": null, "subject": null, "path": "any_of",
                    "comparison": "any_of", "expected": "at least one of: …", "measured": null, "unit": "",
                    "ratioTo": null, "baseline": null, "error": null, "authored": false}}],
               "errors": {}, "raw": {}}]}
            """;

    private BrowserContext laptop() {
        return chromium.browser().newContext(Screen.LAPTOP.options());
    }

    /** Labs of this profile count against its small maximum (3), shared by every test class using it. */
    private static void stopLab(Page page) {
        page.click("#lab-stop");
        page.click("#lab-stop-confirm");
        assertThat(page.locator("#lab-start")).isVisible();
    }

    private static void json(Route route, String body) {
        route.fulfill(new Route.FulfillOptions()
                .setStatus(200)
                .setContentType("application/json")
                .setBody(body));
    }

    /** Starts the lab of web-test, answers its Check of step "shape" with {@code run}, and presses it. */
    private Locator pressCheckAnswering(Page page, String run) {
        page.navigate(root + "lessons/web-test");
        page.click("#lab-start");
        page.route("**/api/labs/*/steps/shape/check", route -> json(route, run));
        Locator check = page.locator("#check-shaped-to-rate button.check-run");
        assertThat(check).isEnabled();
        check.click();
        return check;
    }

    @Test
    void shouldSayCheckOutcomesInTheLearnersWordsWithDetailsBehindADisclosure() {
        try (BrowserContext context = laptop()) {
            Page page = context.newPage();
            Locator check = pressCheckAnswering(page, FAILED_RUN);

            Locator result = page.locator("#step-shape .check-result");
            Locator failed = result.locator(".check-outcome.failed").first();
            assertThat(failed.locator(".check-verdict")).hasText("✗ Not yet: The upload runs at about 10 Mbit/s");
            assertThat(check).isFocused();
            assertThat(failed.locator(".check-message")).hasCount(0);
            Locator values = failed.locator(".check-values li");
            assertThat(values.nth(0))
                    .hasText("✗ The client's upload measured 26.9 Gbit/s; it should be about 10 Mbit/s (± 15 %).");
            assertThat(values.nth(1)).hasText("✓ The kind of the root qdisc on the client's eth1: tbf");
            assertThat(values.nth(2))
                    .containsText("✗ The borrows of class 1:10 on the client's eth1 over the load"
                            + " measured 3 borrows; it should be above 20 borrows.");
            assertThat(values.nth(2).locator(".check-flow"))
                    .hasText("Your flow went through class 1:20 (the default), not 1:10: no filter matched its TCP"
                            + " packets to destination port 24817.");
            assertThat(values.nth(0).locator(".check-flow")).hasCount(0);
            // A comparison that holds shows both sides and how far apart they are (issue 42, item 2).
            assertThat(values.nth(3))
                    .hasText("✓ Average round trip of the client's ping to 10.0.0.2: 94.3 ms → 4.5 ms, 21× lower"
                            + " (94.3 ms is the figure recorded earlier as loaded_ping)");
            // A failed any_of shows the alternative the learner took, not the one absent from the lab (no tbf rate).
            assertThat(values.nth(4)).hasText("✗ CAKE on the client's eth1 shapes to 5.5 Mbit/s, not below 5 Mbit/s");
            assertThat(values).hasCount(5);
            assertThat(failed.locator(".check-hint")).containsText("Hint: Look at");

            Locator gated = result.locator(".check-outcome.failed").nth(1);
            assertThat(gated.locator(".check-values li")).hasCount(1);
            assertThat(gated.locator(".check-values li"))
                    .hasText("✗ The root qdisc of the client's eth1 is noqueue, not tbf");
            assertThat(gated.locator(".check-skipped"))
                    .hasText("The client's upload, average round trip of the"
                            + " client's ping to 10.0.0.2: not measured until the kind of the root qdisc on the client's eth1"
                            + " is right.");

            Locator error = result.locator(".check-outcome.error");
            assertThat(error.locator(".check-message")).hasCount(0);
            assertThat(error.locator(".check-values li"))
                    .hasText("✗ The qlen of the root qdisc on the client's eth1"
                            + " could not be measured: tc printed something tclab cannot read");

            String visible = result.innerText();
            for (String internal : List.of(
                    "up.mbps",
                    "q.root",
                    "^(tbf|cake)$",
                    "baseline.loaded_ping",
                    "garbled output",
                    "by_id",
                    "Passed.",
                    "skipped, since",
                    "Measurement 'q'")) {
                assertFalse(visible.contains(internal), internal + " is shown outside Details: " + visible);
            }
            failed.locator(".check-details summary").click();
            assertThat(failed.locator(".check-details")).containsText("up.mbps");
            assertThat(failed.locator(".check-details")).containsText("matching /^(tbf|cake)$/");
            assertThat(failed.locator(".check-details .check-flow-sent"))
                    .hasText("Flow up: TCP from port 40312 to port 24817, 5000000 bytes sent by client; counted by:");
            assertThat(failed.locator(".check-details .check-flow-counted li").nth(1))
                    .hasText("class 1:20 (htb) on eth1 [the default, leaf]: +5230000 bytes, +3460 packets");
            error.locator(".check-details summary").click();
            assertThat(error.locator(".check-details .check-raw")).hasText("garbled output");
            Chromium.screenshot(page, "learner-check-feedback");
            Chromium.screenshotFullPage(page, "learner-check-feedback-full");

            page.unroute("**/api/labs/*/steps/shape/check");
            page.route("**/api/labs/*/steps/shape/check", route -> json(route, PASSED_RUN));
            page.route(
                    "**/api/labs/*/steps", route -> json(route, "{\"passed\": {\"shape\": true}, \"active\": null}"));
            check.click();
            Locator passed = result.locator(".check-outcome.passed");
            assertThat(passed.locator(".check-verdict")).hasText("✓ Passed: The upload runs at about 10 Mbit/s");
            assertThat(passed.locator(".check-message")).hasCount(0);
            assertThat(passed.locator(".check-hint")).hasCount(0);
            assertThat(passed.locator(".check-values li")).hasText(new String[] {
                "✓ The client's upload: 9.61 Mbit/s", "✓ The kind of the root qdisc on the client's eth1: tbf"
            });
            assertFalse(result.innerText().contains("Passed."), "no 'Passed.' repeating the heading");

            Locator complete = page.locator("#lesson-complete");
            assertThat(complete).isVisible();
            assertThat(complete.locator(".lesson-complete-summary"))
                    .hasText("You passed all 1 graded step and answered 0 of 2 quizzes correctly.");
            assertTrue(complete.locator("a").count() >= 1, "the summary links on");
            // A quiz answered after the last step passed counts at once (the tally once stayed at 0 of 9).
            Locator quiz = page.locator("#quiz-burst-unit");
            quiz.locator(".quiz-option:has-text('32 kilobytes') input").check();
            quiz.locator("button[type=submit]").click();
            assertThat(quiz.locator(".quiz-result")).hasText("Correct! Every option is explained above.");
            assertThat(complete.locator(".lesson-complete-summary"))
                    .hasText("You passed all 1 graded step and answered 1 of 2 quizzes correctly.");
            stopLab(page);
        }
    }

    /** The same feedback on a phone and in dark mode: the sentences wrap inside the outcome, nothing overflows. */
    @Test
    void shouldShowTheFeedbackOnAPhoneAndInDarkMode() {
        for (Screen screen : List.of(Screen.PHONE, Screen.LAPTOP)) {
            try (BrowserContext context =
                    chromium.browser().newContext(screen.options().setColorScheme(ColorScheme.DARK))) {
                Page page = context.newPage();
                pressCheckAnswering(page, FAILED_RUN);
                Locator outcome =
                        page.locator("#step-shape .check-outcome.failed").first();
                assertThat(outcome.locator(".check-values li").first()).containsText("26.9 Gbit/s");
                outcome.scrollIntoViewIfNeeded();
                Object overflow = outcome.evaluate("e => e.scrollWidth > e.clientWidth + 1");
                assertFalse(Boolean.TRUE.equals(overflow), screen + ": the outcome overflows its box");
                Chromium.screenshot(
                        page, "learner-check-feedback-" + screen.name().toLowerCase() + "-dark");
                stopLab(page);
            }
        }
    }

    /**
     * Issue 42 item 6: Start lab was the 71st Tab stop. "Skip to your lab" is the second: Enter on it shows the lab (on
     * a phone too) and gives Start lab the keyboard; once the lab runs, the panel.
     */
    @Test
    void shouldReachStartLabWithinFiveTabStops() {
        for (Screen screen : List.of(Screen.LAPTOP, Screen.PHONE)) {
            ColorScheme scheme = screen == Screen.PHONE ? ColorScheme.DARK : ColorScheme.LIGHT;
            try (BrowserContext context =
                    chromium.browser().newContext(screen.options().setColorScheme(scheme))) {
                Page page = context.newPage();
                page.navigate(root + "lessons/web-test");
                int stops = 0;
                while (stops < 5 && !LearnerActions.focused(page, "#lab-start")) {
                    page.keyboard().press(stops == 2 ? "Enter" : "Tab");
                    stops++;
                    if (LearnerActions.focused(page, "#skip-to-lab")) {
                        Chromium.screenshot(
                                page, "learner-skip-to-lab-" + screen.name().toLowerCase());
                    }
                }
                assertTrue(
                        LearnerActions.focused(page, "#lab-start"),
                        screen + ": Start lab is not focused after Tab, Tab, Enter: "
                                + page.evaluate("() => document.activeElement?.outerHTML.slice(0, 120)"));
                assertThat(page.locator("#lab-start")).isInViewport();
                page.keyboard().press("Enter");
                assertThat(page.locator("#lab-stop")).isVisible();
                page.reload();
                assertThat(page.locator("#lab-stop")).isVisible();
                page.keyboard().press("Tab");
                page.keyboard().press("Tab");
                page.keyboard().press("Enter");
                assertTrue(
                        LearnerActions.focused(page, "#lab-panel"),
                        screen + ": a running lab's panel has the keyboard");
                // And back: from the lab to the Check of the first step not passed yet, in one press.
                page.locator("#lab-to-check").focus();
                Chromium.screenshot(
                        page, "learner-back-to-check-" + screen.name().toLowerCase());
                page.keyboard().press("Enter");
                Object focused = page.evaluate("() => { const a = document.activeElement;"
                        + " return a.matches('button.check-run') ? a.closest('[id^=\"step-\"]').id : a.outerHTML; }");
                Object first = page.evaluate(
                        "() => document.querySelector('button.check-run')" + ".closest('[id^=\"step-\"]').id");
                assertEquals(first, focused, screen + ": the focus after 'Back to your step's Check'");
                assertThat(page.locator(":focus")).isInViewport();
                stopLab(page);
            }
        }
    }

    /** Issue 42 item 7: a check that measures for a while says for how long, on a laptop and on a phone in dark mode. */
    @Test
    void shouldSayHowLongACheckSendsTrafficWhileItRuns() {
        String running = "{\"id\": \"r1\", \"step\": \"shape\", \"state\": \"measuring\","
                + " \"detail\": \"measuring (sample 2)\", \"finished\": false, \"results\": [],"
                + " \"measuring\": {\"seconds\": 6, \"atMostSeconds\": 20}}";
        for (Screen screen : List.of(Screen.LAPTOP, Screen.PHONE)) {
            ColorScheme scheme = screen == Screen.PHONE ? ColorScheme.DARK : ColorScheme.LIGHT;
            try (BrowserContext context =
                    chromium.browser().newContext(screen.options().setColorScheme(scheme))) {
                Page page = context.newPage();
                page.route("**/api/labs/*/checks/r1", route -> json(route, running));
                pressCheckAnswering(page, running);
                Locator result = page.locator("#step-shape .check-result");
                assertThat(result.locator(".check-progress")).hasText("Checking… measuring (sample 2)");
                assertThat(result.locator(".check-time"))
                        .hasText("This check sends traffic for about 6 s, up to 20 s if a try fails and it measures"
                                + " again.");
                Locator check = page.locator("#check-shaped-to-rate button.check-run");
                assertThat(check).hasAttribute("aria-disabled", "true");
                assertThat(check).isFocused();
                result.scrollIntoViewIfNeeded();
                Chromium.screenshot(page, "learner-check-time-" + screen.name().toLowerCase());
                page.unrouteAll();
                stopLab(page);
            }
        }
    }

    @Test
    void shouldShowStepsQuizzesAndARunningLabWithAStopButtonInTheCatalog() {
        try (BrowserContext context = laptop()) {
            Page page = context.newPage();
            page.navigate(root + "lessons/web-test");
            page.click("#lab-start");
            assertThat(page.locator("#lab-stop")).isVisible();

            page.navigate(root.toString());
            Locator card = page.locator("article:has(a[href='/lessons/web-test'])");
            assertThat(card.locator(".steps-progress")).hasText("0 of 1 passed");
            assertThat(card.locator(".progress")).containsText("answered correctly");
            assertThat(card.locator(".card-lab")).containsText("Your lab for this lesson is running.");
            Chromium.screenshot(page, "learner-catalog");

            card.locator(".card-lab-stop").click();
            assertThat(card.locator(".card-lab-confirm")).containsText("baselines");
            card.getByText("Keep the lab").click();
            assertThat(card.locator(".card-lab-confirm")).hasCount(0);
            card.locator(".card-lab-stop").click();
            card.getByText("Stop and discard the lab").click();
            assertThat(card.locator(".card-lab")).hasText("Lab stopped.");
            page.reload();
            assertThat(page.locator("article:has(a[href='/lessons/web-test']) .card-lab"))
                    .hasCount(0);
        }
    }

    private static final Path AXE = Path.of("src/main/web/node_modules/axe-core/axe.min.js");

    /** axe-core's serious and critical violations of WCAG 2 A/AA on the page as it is now, one line each. */
    @SuppressWarnings("unchecked")
    private static List<String> seriousViolations(Page page) throws IOException {
        page.addScriptTag(new Page.AddScriptTagOptions().setContent(Files.readString(AXE)));
        Object found = page.evaluate("""
                async () => (await axe.run(document, { runOnly: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] }))
                  .violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')
                  .map((v) => `${v.id} (${v.impact}): ${v.help} at ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(', ')}`)
                """);
        return (List<String>) found;
    }

    @Test
    void shouldHaveNoSeriousAccessibilityFindingsInLightAndDark() throws IOException {
        assertTrue(Files.exists(AXE), "axe-core is installed by the build (npm ci in src/main/web)");
        for (ColorScheme scheme : List.of(ColorScheme.LIGHT, ColorScheme.DARK)) {
            // axe is added as a script element: the test lets it past the page's Content-Security-Policy.
            try (BrowserContext context = chromium.browser()
                    .newContext(Screen.LAPTOP.options().setColorScheme(scheme).setBypassCSP(true))) {
                Page page = context.newPage();
                page.navigate(root.toString());
                assertThat(page.locator(".cards").first()).isVisible();
                List<String> catalog = seriousViolations(page);
                assertTrue(catalog.isEmpty(), scheme + " catalog: " + catalog);

                page.navigate(root + "lessons/web-test");
                page.click("#lab-start");
                assertThat(page.locator("#lab-stop")).isVisible();
                assertThat(page.locator(".tclab-pane[data-node=client] .xterm")).isVisible();
                List<String> lesson = seriousViolations(page);
                assertTrue(lesson.isEmpty(), scheme + " lesson page with a running lab: " + lesson);
                stopLab(page);
            }
        }
    }

    /** Whether the focused quiz option's label holds the text. */
    private static boolean focusedOptionSays(Page page, String text) {
        return (Boolean) page.evaluate(
                "t => document.querySelector(`label[for=\"${document.activeElement.id}\"]`)?.textContent.includes(t)"
                        + " === true",
                text);
    }

    @Test
    void shouldDoAStepWithTheKeyboardAlone() {
        try (BrowserContext context = laptop()) {
            Page page = context.newPage();
            page.navigate(root + "lessons/web-test");
            tabTo(page, "#quiz-default-qdisc input[name=choice]", false);
            page.keyboard().press("Space");
            // The options come in this learner's own order: the arrow keys move to the right one, as a keyboard user's.
            for (int i = 0; i < 4 && !focusedOptionSays(page, "the kernel attached a default one"); i++) {
                page.keyboard().press("ArrowDown");
            }
            tabTo(page, "#quiz-default-qdisc button[type=submit]", false);
            page.keyboard().press("Enter");
            assertThat(page.locator("#quiz-default-qdisc .quiz-result"))
                    .hasText("Correct! Every option is explained above.");

            // The separator between lesson and lab moves with the arrow keys.
            tabTo(page, ".lab-split", false);
            double before = page.locator("article.lesson").boundingBox().width;
            page.keyboard().press("ArrowRight");
            page.keyboard().press("ArrowRight");
            double after = page.locator("article.lesson").boundingBox().width;
            assertTrue(after > before + 50, "the lesson grew from " + before + " to " + after);
            assertThat(page.locator(".lab-split")).hasAttribute("aria-valuenow", String.valueOf(Math.round(after)));

            tabTo(page, "#lab-start", false);
            page.keyboard().press("Enter");
            page.locator(".tclab-tab[data-node=client]").waitFor();
            assertThat(page.locator(".tclab-tab[data-node=client]")).isFocused();
            page.keyboard().press("Shift+Tab");
            assertThat(page.locator("#lab-stop")).isFocused();
            page.keyboard().press("Enter");
            assertThat(page.locator("#lab-stop-cancel")).isFocused();
            page.keyboard().press("Escape");
            assertThat(page.locator("#lab-stop-question")).isHidden();
            assertThat(page.locator("#lab-stop")).isFocused();
            tabTo(page, "#step-baseline button.cmd-run", true);
            page.keyboard().press("Enter");
            page.waitForCondition(() -> focusedIn(page, ".tclab-pane[data-node=client] .xterm"));
            stopLab(page);
        }
    }
}
