package dev.tclab.workshop;

import static org.assertj.core.api.Assertions.assertThat;

import com.microsoft.playwright.BrowserContext;
import com.microsoft.playwright.Page;
import com.microsoft.playwright.options.ColorScheme;
import dev.tclab.grading.CheckRun;
import dev.tclab.grading.CheckRunLog;
import dev.tclab.grading.TestCheckRuns;
import dev.tclab.host.HostAccount;
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
import jakarta.inject.Inject;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A workshop in a real browser (headless Debian chromium): a host signs in and creates an event; two learners join
 * in two browser contexts (one a phone) and work; the dashboard shows both live; the host shadows a terminal and takes
 * it over; a reset gives Bea a fresh lab her page switches to; a broadcast reaches both pages; the CSV export
 * holds both. Labs run on the fake runtime (the lab itself is proven by the lab tests); the passed step is
 * a check run written to the check run log as the runner writes it. Screenshots go to target/workshop-*.png.
 */
@QuarkusTest
@TestProfile(FakeRuntimeProfile.class)
class WorkshopBrowserTest {

    @Inject
    SharedChromium browsers;

    private static final Duration TIMEOUT = Duration.ofSeconds(30);
    private static final String PASSWORD = "projector-password";

    @TestHTTPResource("/")
    URI root;

    @Inject
    HostAccounts hosts;

    @Inject
    CheckRunLog runs;

    @Inject
    LabService labs;

    @Inject
    FakeLabRuntime runtime;

    @AfterEach
    void clean() throws Exception {
        Labs.clean(labs, runtime);
    }

    private String url(String path) {
        return root.resolve(path).toString();
    }

    @Test
    void aHostRunsAClassOfTwo() {
        hosts.add(new HostAccount("teacher", TestHosts.hash(PASSWORD), false));
        try (Chromium chromium = browsers.session()) {
            BrowserContext hostContext = chromium.context(Screen.LAPTOP.options(), TIMEOUT);
            Page host = hostContext.newPage();
            // Stop and Reset ask first, as Close does: the host says yes.
            host.onDialog(dialog -> dialog.accept());
            host.navigate(url("/host"));
            assertThat(host.url()).endsWith("/host/sign-in");
            host.fill("#host-name", "teacher");
            host.fill("#host-password", "not the password");
            host.click("#sign-in-form button");
            host.locator("#sign-in-error:has-text('do not match')").waitFor();
            host.fill("#host-password", PASSWORD);
            host.click("#sign-in-form button");
            host.waitForURL("**/host");
            host.fill("#event-title", "Traffic control, Friday");
            host.check("input[name=lessons][value=example]");
            host.fill("input[name=seatCap]", "2");
            host.click("#event-form button[type=submit]");
            host.waitForURL("**/host/events/*");
            String code = host.locator("#join-code").innerText().strip();
            assertThat(code).matches("[A-Z2-9]{6}");
            host.locator("#join-url:has-text('/join/" + code + "')").waitFor();

            Page ann = chromium.context(Screen.LAPTOP.options(), TIMEOUT).newPage();
            ann.navigate(url("/join"));
            ann.fill("#join-code", "zzzzzz");
            ann.fill("#join-name", "Ann");
            ann.click("#join-form button");
            ann.locator("#join-error:has-text('No workshop has the code ZZZZZZ')")
                    .waitFor();
            Chromium.screenshot(ann, "workshop-join-1366");
            ann.fill("#join-code", code.toLowerCase());
            // Held as a person holds a click: the press takes the focus from the code field, whose preview of the
            // event comes back before the release; the button must still be under the pointer then.
            ann.click("#join-form button", new Page.ClickOptions().setDelay(150));
            ann.waitForURL("**/lessons/example");
            ann.locator("#workshop-banner:has-text('Traffic control, Friday')").waitFor();

            BrowserContext beaContext = chromium.context(
                    Screen.PHONE.options().setIsMobile(true).setHasTouch(true).setColorScheme(ColorScheme.DARK),
                    TIMEOUT);
            Page bea = beaContext.newPage();
            bea.navigate(url("/join/" + code));
            bea.locator("#join-event:has-text('Traffic control, Friday')").waitFor();
            bea.fill("#join-name", "ann");
            bea.click("#join-form button");
            bea.locator("#join-error:has-text('already uses the name')").waitFor();
            Chromium.screenshot(bea, "workshop-join-phone-dark");
            bea.fill("#join-name", "Bea");
            bea.click("#join-form button");
            bea.waitForURL("**/lessons/example");

            // Ann answers a quiz on the page; Bea starts her lab and passes a step.
            ann.locator("form[action$='/quizzes/intro-hidden-node'] li.quiz-option:has-text('is marked') input")
                    .check();
            ann.click("form[action$='/quizzes/intro-hidden-node'] button[type=submit]");
            ann.locator("form[action$='/quizzes/intro-hidden-node'] :text('Correct!')")
                    .waitFor();
            bea.click("#lab-start");
            bea.locator(".tclab-tab[data-node=client]").waitFor();
            bea.click(".tclab-tab[data-node=client]");
            bea.locator(".tclab-pane[data-node=client] .xterm").click();
            bea.keyboard().type("echo bea-typed\n");
            String beaCookie = beaContext.cookies().stream()
                    .filter(c -> c.name.equals("tclab_learner"))
                    .findFirst()
                    .orElseThrow()
                    .value;
            String beaId = beaCookie.substring(0, beaCookie.lastIndexOf('.'));
            String labId = labs.labsOf(beaId).get(0).id();
            CheckRun run = TestCheckRuns.run(labId, beaId, "example", "shape");
            runs.started(run);
            TestCheckRuns.finish(run, "passed", "every check passed");
            runs.finished(run);

            // The dashboard shows both, live (server-sent events, no reload).
            host.locator("#learners tr[data-learner]:has-text('Ann') td.quizzes:has-text('1/2')")
                    .waitFor();
            host.locator("#learners tr[data-learner]:has-text('Bea') td.steps:has-text('1/')")
                    .waitFor();
            host.locator("#learners tr[data-learner]:has-text('Bea') td:has-text('running')")
                    .waitFor();
            host.locator("#step-tally td:has-text('1')").first().waitFor();
            host.fill("#learner-filter", "bea");
            assertThat(host.locator("#learners tr[data-learner]").count()).isEqualTo(1);
            host.fill("#learner-filter", "");

            host.fill("#broadcast-text", "Break until 11:00");
            host.click("#broadcast-form button");
            ann.locator("#workshop-banner:has-text('Break until 11:00')").waitFor();
            bea.locator("#workshop-banner:has-text('Break until 11:00')").waitFor();
            Chromium.screenshot(bea, "workshop-learner-phone-dark");

            // The host shadows Bea's terminal (sees what she typed), then takes over and types; Bea is told.
            host.click("#learners tr[data-learner]:has-text('Bea') button[data-shadow$='/client']");
            host.locator("#host-terminal-screen .xterm-rows:has-text('echo bea-typed')")
                    .waitFor();
            host.click("#host-terminal-take-over");
            host.locator("#host-terminal-title:has-text('you are typing')").waitFor();
            host.locator("#host-terminal-screen .xterm").click();
            host.keyboard().type("echo host-typed\n");
            bea.locator(".tclab-pane[data-node=client] .xterm-rows:has-text('echo host-typed')")
                    .waitFor();
            // The phone's narrow terminal wraps the notice anywhere, even inside a word.
            assertThat(bea.locator(".tclab-pane[data-node=client] .xterm-rows")
                            .innerText()
                            .replaceAll("\\s+", ""))
                    .contains("yourhostteacheristypinginthisterminal");
            host.click("#host-terminal-close");

            // Reset: a fresh lab starts for Bea, and her page switches to it by itself (a new terminal that works).
            bea.evaluate("document.querySelector('.tclab-pane[data-node=client] .xterm').dataset.old = 'yes'");
            host.click("#learners tr[data-learner]:has-text('Bea') button[data-action=reset]");
            host.locator("#actions li:has-text('teacher · reset')").waitFor();
            assertThat(labs.labsOf(beaId).get(0).id()).isNotEqualTo(labId);
            bea.locator(".tclab-pane[data-node=client] .xterm:not([data-old])").waitFor();
            bea.locator(".tclab-pane[data-node=client] .xterm").click();
            bea.keyboard().type("echo after-reset\n");
            bea.locator(".tclab-pane[data-node=client] .xterm-rows:has-text('echo after-reset')")
                    .waitFor();

            host.click("#learners tr[data-learner]:has-text('Bea') button[data-action=stop]");
            host.locator("#actions li:has-text('teacher · stop')").waitFor();
            host.locator("#actions li:has-text('teacher · take over terminal')").waitFor();
            host.locator("#learners tr[data-learner]:has-text('Bea') td:has-text('stopped')")
                    .waitFor();
            host.evaluate("window.scrollTo(0, 0)");
            Chromium.screenshot(host, "workshop-dashboard-1366");
            Chromium.screenshotFullPage(host, "workshop-dashboard-1366-full");

            Object csv = host.evaluate(
                    "async (id) => (await fetch(`/api/host/events/${id}/export.csv`)).text()",
                    host.locator("#dashboard").getAttribute("data-event"));
            assertThat((String) csv)
                    .contains("Ann,")
                    .contains("Bea,")
                    .containsPattern("Bea,l[0-9a-f]+,example,step,shape,true,")
                    .containsPattern("Ann,l[0-9a-f]+,example,quiz,intro-hidden-node,true,");

            Page dark = chromium.browser()
                    .newContext(Screen.LAPTOP
                            .options()
                            .setColorScheme(ColorScheme.DARK)
                            .setStorageState(hostContext.storageState()))
                    .newPage();
            dark.navigate(host.url());
            dark.locator("#learners tr[data-learner]:has-text('Bea')").waitFor();
            Chromium.screenshot(dark, "workshop-dashboard-dark");
        }
    }

    /** "Add track" ticks a whole track of the course and puts its lessons, in order, after those already ticked. */
    @Test
    void aHostPutsAWholeTrackIntoAWorkshop() {
        hosts.add(new HostAccount("planner", TestHosts.hash(PASSWORD), false));
        try (Chromium chromium = browsers.session()) {
            Page host = chromium.context(Screen.LAPTOP.options(), TIMEOUT).newPage();
            host.navigate(url("/host/sign-in"));
            host.fill("#host-name", "planner");
            host.fill("#host-password", PASSWORD);
            host.click("#sign-in-form button");
            host.waitForURL("**/host");
            host.fill("#event-title", "The course, part two");
            host.check("input[name=lessons][value=example]");
            host.selectOption("#event-track", "real-networks");
            host.click("#event-form [data-add-track]");
            assertThat(host.locator("#event-form input[name=lessons]:checked")
                            .evaluateAll("all => all.map(box => box.value)"))
                    .isEqualTo(List.of(
                            "example",
                            "bufferbloat-upload",
                            "bufferbloat-download",
                            "troubleshooting",
                            "home-router-qos"));
            host.locator("#event-track").scrollIntoViewIfNeeded();
            Chromium.screenshot(host, "course-workshop-add-track");
            host.click("#event-form button[type=submit]");
            host.waitForURL("**/host/events/*");
            String id = host.url().substring(host.url().lastIndexOf('/') + 1);
            assertThat(host.evaluate(
                            "async id => (await (await fetch('/api/host/events/' + id)).json()).event.lessons", id))
                    .isEqualTo(List.of(
                            "example",
                            "bufferbloat-upload",
                            "bufferbloat-download",
                            "troubleshooting",
                            "home-router-qos"));
        }
    }
}
