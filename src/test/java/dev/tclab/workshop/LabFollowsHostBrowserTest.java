package dev.tclab.workshop;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import com.microsoft.playwright.BrowserContext;
import com.microsoft.playwright.Locator;
import com.microsoft.playwright.Page;
import com.microsoft.playwright.options.ColorScheme;
import com.microsoft.playwright.options.Cookie;
import dev.tclab.host.HostAccounts;
import dev.tclab.host.TestHosts;
import dev.tclab.lab.FakeLabRuntime;
import dev.tclab.lab.FakeRuntimeProfile;
import dev.tclab.lab.LabService;
import dev.tclab.lab.Labs;
import dev.tclab.web.Chromium;
import dev.tclab.web.Chromium.Screen;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.http.ContentType;
import jakarta.inject.Inject;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Learners' pages follow what their host does, in a real browser (headless Debian chromium): Ann on a laptop, Bea
 * on a phone in dark mode, their host on the dashboard. Each of the host's actions (shadow, extend, stop, reset,
 * close) shows on the learner's page in words naming it within the 2 s the issue allows, pushed over the workshop
 * socket; a closed workshop's lab does not start again. Screenshots go to target/follows-*.png.
 */
@QuarkusTest
@TestProfile(FakeRuntimeProfile.class)
class LabFollowsHostBrowserTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(30);
    /** What the issue allows between the host's click and the learner's page showing it. */
    private static final Locator.WaitForOptions WITHIN_2_S = new Locator.WaitForOptions().setTimeout(2000);

    @TestHTTPResource("/")
    URI root;
    @Inject
    HostAccounts accounts;
    @Inject
    LabService labs;
    @Inject
    FakeLabRuntime runtime;

    @AfterEach
    void clean() throws Exception {
        Labs.clean(labs, runtime);
    }

    @Test
    void eachLearnersPageSaysWhatTheHostDidWithinTwoSeconds() {
        String hostCookie = TestHosts.signedIn(accounts, "follow");
        String event = given().cookie("tclab_host", hostCookie).contentType(ContentType.JSON)
                .body("{\"title\": \"Shaping, Monday\", \"lessons\": [\"example\"]}").post("/api/host/events")
                .then().statusCode(201).extract().path("event.id");
        String code = given().cookie("tclab_host", hostCookie).get("/api/host/events/" + event)
                .then().extract().path("event.joinCode");
        try (Chromium chromium = Chromium.launch()) {
            Page ann = learner(chromium.context(Screen.LAPTOP, ColorScheme.LIGHT, TIMEOUT), code, "Ann");
            Page bea = learner(chromium.context(Screen.PHONE.options().setIsMobile(true).setHasTouch(true)
                    .setColorScheme(ColorScheme.DARK), TIMEOUT), code, "Bea");

            BrowserContext hostContext = chromium.context(Screen.LAPTOP, ColorScheme.LIGHT, TIMEOUT);
            hostContext.addCookies(List.of(new Cookie("tclab_host", hostCookie).setUrl(root.toString())));
            Page host = hostContext.newPage();
            host.onDialog(dialog -> dialog.accept());
            host.navigate(root.resolve("/host/events/" + event).toString());
            Locator annRow = host.locator("#learners tr[data-learner]:has-text('Ann')");
            Locator beaRow = host.locator("#learners tr[data-learner]:has-text('Bea')");
            annRow.locator("td:has-text('running')").waitFor();
            beaRow.locator("td:has-text('running')").waitFor();

            beaRow.locator("button[data-shadow$='/client']").click();
            bea.locator("#lab-watched:has-text('Your host is watching your terminal')").waitFor(WITHIN_2_S);
            host.click("#host-terminal-close");
            bea.locator("#lab-watched").waitFor(new Locator.WaitForOptions().setTimeout(2000)
                    .setState(com.microsoft.playwright.options.WaitForSelectorState.HIDDEN));

            beaRow.locator("button[data-action=extend]").click();
            bea.locator("#lab-notice:has-text('Your host gave your lab more time')").waitFor(WITHIN_2_S);

            annRow.locator("button[data-action=stop]").click();
            ann.locator("#lab-notice:has-text('Your host stopped your lab')").waitFor(WITHIN_2_S);
            ann.locator("#lab-start:visible").waitFor(WITHIN_2_S);
            assertThat(ann.locator(".tclab-tab").count()).isZero();
            Chromium.screenshot(ann, "follows-stopped-1366");

            beaRow.locator("button[data-action=reset]").click();
            bea.locator("#lab-notice:has-text('Your host reset your lab: a fresh one is starting')").waitFor(WITHIN_2_S);
            bea.locator(".tclab-tab[data-node=client]").waitFor();
            Chromium.screenshot(bea, "follows-reset-phone-dark");

            host.click("#close-event");
            ann.locator("#workshop-banner:has-text('your host closed the workshop at')").waitFor(WITHIN_2_S);
            bea.locator("#lab-notice:has-text('Your host closed the workshop')").waitFor(WITHIN_2_S);
            bea.locator("#workshop-banner:has-text('your host closed the workshop at')").waitFor(WITHIN_2_S);
            assertThat(bea.locator(".tclab-tab").count()).isZero();

            ann.click("#lab-start");
            ann.locator(".tclab-status:has-text('is closed, so its labs do not start any more')").waitFor();
            Chromium.screenshot(ann, "follows-closed-1366");
            Chromium.screenshot(bea, "follows-closed-phone-dark");
            assertThat(host.locator("#time-left").innerText()).startsWith("Closed at ").doesNotContain("Time is up");
        }
    }

    /**
     * The host changes the workshop on the dashboard: a new title, a second lesson moved before the first, more
     * seats; the change is kept in that order and logged; a closed workshop opens again with Reopen.
     */
    @Test
    void aHostEditsAndReopensTheWorkshopOnTheDashboard() {
        String hostCookie = TestHosts.signedIn(accounts, "edit");
        String event = given().cookie("tclab_host", hostCookie).contentType(ContentType.JSON)
                .body("{\"title\": \"Draft class\", \"lessons\": [\"example\"], \"seatCap\": 2}")
                .post("/api/host/events").then().statusCode(201).extract().path("event.id");
        try (Chromium chromium = Chromium.launch()) {
            for (Screen screen : Screen.values()) {
                for (ColorScheme scheme : List.of(ColorScheme.LIGHT, ColorScheme.DARK)) {
                    BrowserContext context = chromium.context(screen, scheme, TIMEOUT);
                    context.addCookies(List.of(new Cookie("tclab_host", hostCookie).setUrl(root.toString())));
                    Page page = context.newPage();
                    page.navigate(root.resolve("/host/events/" + event).toString());
                    page.click("#edit-workshop summary");
                    page.locator("#edit-form input[name=lessons][value=example]:checked").waitFor();
                    Chromium.screenshot(page, "workshop-edit-" + screen.name().toLowerCase() + "-"
                            + scheme.name().toLowerCase());
                    context.close();
                }
            }
            BrowserContext context = chromium.context(Screen.LAPTOP, ColorScheme.LIGHT, TIMEOUT);
            context.addCookies(List.of(new Cookie("tclab_host", hostCookie).setUrl(root.toString())));
            Page host = context.newPage();
            host.onDialog(dialog -> dialog.accept());
            host.navigate(root.resolve("/host/events/" + event).toString());
            host.click("#edit-workshop summary");
            host.fill("#edit-title", "Shaping, all day");
            host.check("#edit-form input[name=lessons][value=tbf-basics]");
            host.click("#edit-form li[data-lesson=tbf-basics] button[data-move='-1']");
            while (!host.locator("#edit-form .lesson-order li").first().getAttribute("data-lesson").equals("tbf-basics")) {
                host.click("#edit-form li[data-lesson=tbf-basics] button[data-move='-1']");
            }
            host.fill("#edit-form input[name=seatCap]", "25");
            host.click("#edit-form button[type=submit]");
            host.locator("#actions li:has-text('edit')").waitFor();
            given().cookie("tclab_host", hostCookie).get("/api/host/events/" + event).then().statusCode(200)
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
