package dev.tclab.web;

import static org.assertj.core.api.Assertions.assertThat;

import com.microsoft.playwright.BrowserContext;
import com.microsoft.playwright.Locator;
import com.microsoft.playwright.Page;
import com.microsoft.playwright.options.ColorScheme;
import dev.tclab.lab.FakeRuntimeProfile;
import dev.tclab.web.Chromium.Screen;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Two learners in Chromium get each quiz's options in orders of their own, keep their order over a reload, and are
 * graded right whichever position the right option has for them: one answers in place (JavaScript), the other
 * through the plain form (no JavaScript).
 */
@QuarkusTest
@TestProfile(FakeRuntimeProfile.class)
class QuizShuffleBrowserTest extends ChromiumTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(30);
    private static final String RIGHT = "32 kilobytes, the size of the token bucket.";
    private static final List<String> PICK_ALL_RIGHT = List.of(
            "Holding a customer to the speed of their plan.",
            "Sending slightly below a slow uplink's speed so the queue forms in the router, not in the modem.");

    @Test
    void eachLearnerKeepsTheirOwnOrderAndIsGradedRight() {
        try (BrowserContext annContext = chromium.context(Screen.LAPTOP, ColorScheme.LIGHT, TIMEOUT);
                BrowserContext beaContext = chromium.context(
                        Screen.PHONE.options().setJavaScriptEnabled(false).setColorScheme(ColorScheme.DARK), TIMEOUT)) {
            Page ann = annContext.newPage();
            Page bea = beaContext.newPage();
            ann.navigate(root + "lessons/tbf-basics");
            bea.navigate(root + "lessons/tbf-basics");
            Map<String, List<String>> annOrders = orders(ann);
            Map<String, List<String>> beaOrders = orders(bea);
            assertThat(annOrders).hasSize(14).containsOnlyKeys(beaOrders.keySet());
            // 14 quizzes of 3 to 5 options: two learners get all the same orders with a chance below 1 in 10^10.
            assertThat(annOrders).as("Ann's and Bea's orders").isNotEqualTo(beaOrders);
            annOrders.forEach((quiz, options) ->
                    assertThat(options).as(quiz).containsExactlyInAnyOrderElementsOf(beaOrders.get(quiz)));

            ann.reload();
            assertThat(orders(ann)).as("Ann's orders after a reload").isEqualTo(annOrders);

            // Ann answers in place, a wrong one first: the verdict names her choice wherever it sits for her.
            Locator annQuiz = ann.locator("#quiz-burst-unit");
            option(annQuiz, "32 kilobits.").check();
            annQuiz.locator("button[type=submit]").click();
            annQuiz.locator(".quiz-result.is-incorrect").waitFor();
            assertThat(annQuiz.locator(".quiz-option.is-wrong label").innerText())
                    .isEqualTo("32 kilobits.");
            option(annQuiz, RIGHT).check();
            annQuiz.locator("button[type=submit]").click();
            annQuiz.locator(".quiz-result.is-correct:has-text('Correct!')").waitFor();
            assertThat(annQuiz.locator(".quiz-option.is-right.is-chosen label").innerText())
                    .isEqualTo(RIGHT);
            Chromium.screenshot(ann, "quiz-shuffled-1366");

            // Ann's pick-all answer misses one right option: the verdict counts it.
            Locator annPickAll = ann.locator("#quiz-where-shaping");
            option(annPickAll, PICK_ALL_RIGHT.get(0)).check();
            annPickAll.locator("button[type=submit]").click();
            annPickAll
                    .locator(".quiz-result:has-text('you left out 2 right options')")
                    .waitFor();

            // Bea answers through the form: the page comes back with her verdict, in her order.
            Locator beaQuiz = bea.locator("#quiz-burst-unit");
            option(beaQuiz, RIGHT).check();
            beaQuiz.locator("button[type=submit]").click();
            bea.waitForURL("**/lessons/tbf-basics#quiz-burst-unit");
            beaQuiz = bea.locator("#quiz-burst-unit");
            assertThat(beaQuiz.locator(".quiz-result").innerText()).startsWith("Correct!");
            assertThat(beaQuiz.locator(".quiz-option.is-chosen label").innerText())
                    .isEqualTo(RIGHT);
            assertThat(orders(bea)).as("Bea's orders after her answer").isEqualTo(beaOrders);
            Chromium.screenshot(bea, "quiz-shuffled-phone-dark-nojs");

            ann.reload();
            assertThat(orders(ann))
                    .as("Ann's orders after answering and a reload")
                    .isEqualTo(annOrders);
            annQuiz = ann.locator("#quiz-burst-unit");
            assertThat(annQuiz.locator(".quiz-result").innerText()).startsWith("Correct!");
            assertThat(annQuiz.locator(".quiz-option.is-chosen label").innerText())
                    .isEqualTo(RIGHT);
            assertThat(option(annQuiz, RIGHT).isChecked()).isTrue();
            ann.emulateMedia(new Page.EmulateMediaOptions().setColorScheme(ColorScheme.DARK));
            annQuiz.scrollIntoViewIfNeeded();
            Chromium.screenshot(ann, "quiz-shuffled-1366-dark");
        }
    }

    /** Each quiz's option texts in the order the page shows them. */
    private static Map<String, List<String>> orders(Page page) {
        Map<String, List<String>> orders = new LinkedHashMap<>();
        for (Locator quiz : page.locator("form.quiz").all()) {
            orders.put(
                    quiz.getAttribute("id"), quiz.locator(".quiz-option label").allInnerTexts());
        }
        return orders;
    }

    private static Locator option(Locator quiz, String text) {
        return quiz.locator(".quiz-option")
                .filter(new Locator.FilterOptions()
                        .setHas(quiz.page().getByText(text, new Page.GetByTextOptions().setExact(true))))
                .locator("input");
    }
}
