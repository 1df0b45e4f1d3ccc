package dev.tclab.web;

import static com.microsoft.playwright.assertions.PlaywrightAssertions.assertThat;

import com.microsoft.playwright.BrowserContext;
import com.microsoft.playwright.Locator;
import com.microsoft.playwright.Page;
import dev.tclab.lab.FakeRuntimeProfile;
import dev.tclab.web.Chromium.Screen;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import org.junit.jupiter.api.Test;

/**
 * Issue 13 point 4 at 1366×768 on the fake lab runtime: starting a second lesson's lab asks to stop the first, and
 * the catalog shows and stops the one that runs.
 */
@QuarkusTest
@TestProfile(FakeRuntimeProfile.class)
class OneLabPerLearnerBrowserTest extends ChromiumTest {

    @Test
    void shouldOfferToStopTheOtherLessonsLabAndShowTheRunningOneInTheCatalog() {
        try (BrowserContext context = chromium.browser().newContext(Screen.LAPTOP.options())) {
            Page page = context.newPage();
            page.navigate(root + "lessons/example");
            page.click("#lab-start");
            assertThat(page.locator("#lab-stop")).isVisible();

            page.navigate(root + "lessons/web-test");
            page.click("#lab-start");
            Locator offer = page.locator("#lab-replace");
            assertThat(offer).isVisible();
            assertThat(offer).containsText("Stop your \u201cExample lesson for authors\u201d lab and start this one?");
            assertThat(offer.locator("a")).hasAttribute("href", "/lessons/example");
            assertThat(page.locator("#lab-replace-cancel")).isFocused();
            Chromium.screenshot(page, "one-lab-offer");

            page.click("#lab-replace-cancel");
            assertThat(offer).hasCount(0);
            assertThat(page.locator("#lab-start")).isEnabled();

            page.click("#lab-start");
            page.click("#lab-replace-confirm");
            assertThat(page.locator("#lab-stop")).isVisible();

            page.navigate(root.toString());
            assertThat(page.locator("article:has(a[href='/lessons/example']) .card-lab"))
                    .hasCount(0);
            Locator card = page.locator("article:has(a[href='/lessons/web-test'])");
            assertThat(card.locator(".card-lab")).containsText("Your lab for this lesson is running.");
            card.locator(".card-lab-stop").click();
            assertThat(card.locator(".card-lab-confirm")).containsText("baselines");
            Chromium.screenshot(page, "one-lab-catalog-stop");
            card.getByText("Stop and discard the lab").click();
            assertThat(card.locator(".card-lab")).hasText("Lab stopped.");
        }
    }
}
