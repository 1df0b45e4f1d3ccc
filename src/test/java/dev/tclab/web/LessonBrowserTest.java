package dev.tclab.web;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.microsoft.playwright.Browser;
import com.microsoft.playwright.BrowserType;
import com.microsoft.playwright.Locator;
import com.microsoft.playwright.Page;
import com.microsoft.playwright.Playwright;
import com.microsoft.playwright.options.AriaRole;
import dev.tclab.lab.FakeRuntimeProfile;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import java.net.URL;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** A learner in a real headless Chromium answers a quiz wrongly, then rightly, without any lesson script. */
@QuarkusTest
@TestProfile(FakeRuntimeProfile.class)
class LessonBrowserTest {

    private static Playwright playwright;
    private static Browser browser;

    @TestHTTPResource("/")
    URL root;

    @BeforeAll
    static void launch() {
        playwright = Playwright.create();
        browser = playwright.chromium().launch(new BrowserType.LaunchOptions()
                .setExecutablePath(Path.of("/usr/bin/chromium"))
                .setHeadless(true)
                .setArgs(List.of("--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                        "--disable-component-update", "--disable-sync", "--no-first-run")));
    }

    @AfterAll
    static void close() {
        if (browser != null) {
            browser.close();
        }
        if (playwright != null) {
            playwright.close();
        }
    }

    @Test
    void shouldAnswerAQuizWronglyThenRightlyAndReadTheExplanations() {
        try (var context = browser.newContext()) {
            Page page = context.newPage();
            page.navigate(root.toString());
            page.getByRole(AriaRole.LINK,
                    new Page.GetByRoleOptions().setName("Token bucket drill")).click();
            assertTrue(page.url().endsWith("/lessons/web-test"), page.url());

            Locator quiz = page.locator("#quiz-burst-unit");
            assertEquals(0, quiz.locator(".quiz-why").count(), "no explanation before answering");
            quiz.getByLabel("32 kilobits", new Locator.GetByLabelOptions().setExact(true)).check();
            quiz.getByRole(AriaRole.BUTTON,
                    new Locator.GetByRoleOptions().setName("Check answer")).click();
            page.waitForURL("**/lessons/web-test#quiz-burst-unit");

            quiz = page.locator("#quiz-burst-unit");
            assertTrue(quiz.locator(".quiz-result").textContent().startsWith("Not quite."));
            assertEquals(1, quiz.locator(".quiz-why").count());
            assertTrue(quiz.locator(".quiz-option.is-wrong .quiz-why").textContent().contains("Kilobits would be written"));
            assertTrue(quiz.getByLabel("32 kilobits", new Locator.GetByLabelOptions().setExact(true)).isChecked(),
                    "the learner's choice is kept");

            quiz.getByLabel("32 kilobytes").check();
            quiz.getByRole(AriaRole.BUTTON,
                    new Locator.GetByRoleOptions().setName("Check answer")).click();
            page.waitForLoadState();

            quiz = page.locator("#quiz-burst-unit");
            assertTrue(quiz.locator(".quiz-result").textContent().startsWith("Correct!"));
            assertEquals(3, quiz.locator(".quiz-why").count(), "every option is explained");
            assertTrue(quiz.locator(".quiz-option.is-right .quiz-why").textContent().contains("reads the suffix"));

            page.navigate(root.toString());
            assertTrue(page.locator("article:has(a[href='/lessons/web-test']) .progress").textContent().contains("1 of 2 answered correctly"));
        }
    }

    @Test
    void shouldRevealHintsAndSolutionsOnlyWhenAsked() {
        try (var context = browser.newContext()) {
            Page page = context.newPage();
            page.navigate(root + "lessons/web-test");
            Locator solution = page.locator("details.solution");
            assertFalse(solution.locator("pre").isVisible(), "the solution starts hidden");
            solution.locator("summary").click();
            assertTrue(solution.locator("pre").isVisible());
            assertTrue(solution.locator("pre").textContent().matches("tc qdisc replace dev eth1 root tbf rate (8|10|12)mbit .*"),
                    solution.locator("pre").textContent());
            assertTrue(page.locator("button.check-run").first().isDisabled(), "checks wait for the lab script");
        }
    }
}
