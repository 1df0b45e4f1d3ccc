package dev.tclab.web;

import static dev.tclab.web.LearnerActions.stopLab;
import static dev.tclab.web.LearnerActions.typeInto;
import static org.assertj.core.api.Assertions.assertThat;

import com.microsoft.playwright.Locator;
import com.microsoft.playwright.Page;
import dev.tclab.lesson.LearnerLessons;
import dev.tclab.lesson.LessonCatalog;
import dev.tclab.quiz.Quiz;
import dev.tclab.testing.RunsAlone;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.net.URI;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * Lesson 1 from start to finish, as a learner does it, in headless Chromium against a real lab: start the lab,
 * click every command block of every step (they run in the client's terminal), watch the statistics move, press
 * every Check until each step passes, and answer every quiz.
 */
@QuarkusTest
@RunsAlone(RunsAlone.Group.MEASUREMENTS)
class TbfBasicsRunThroughBrowserIT {

    @Inject
    SharedChromium browsers;

    private static final double TIMEOUT_MS = 120_000;

    @TestHTTPResource("/")
    URI root;

    @Inject
    LessonCatalog catalog;

    @Inject
    LearnerLessons learnerLessons;

    @Test
    void shouldTakeALearnerThroughTokenBucketBasics() {
        try (Chromium chromium = browsers.session()) {
            Page page = chromium.browser().newPage();
            page.setDefaultTimeout(TIMEOUT_MS);
            page.navigate(root + "lessons/tbf-basics");
            page.click("#lab-start");
            Locator terminal = LearnerActions.terminal(page, "client");
            page.waitForCondition(() -> terminal.innerText().contains("root@client"));

            Locator steps = page.locator("section.step");
            for (int i = 0; i < steps.count(); i++) {
                Locator step = steps.nth(i);
                for (Locator command : step.locator("button.cmd-run:visible").all()) {
                    command.click();
                }
                waitForTheShell(page, terminal, "step" + i);
                if (i == 1) {
                    Locator tree = page.locator(".tclab-pane[data-node=client] .tclab-tree");
                    page.waitForCondition(() -> tree.innerText().contains("qdisc tbf"));
                }
                Locator check = step.locator("button.check-run");
                page.waitForCondition(check::isEnabled);
                check.click();
                Locator result = step.locator(".check-result");
                page.waitForCondition(() -> result.innerText().contains("✓")
                        || result.innerText().contains("✗")
                        || result.innerText().contains("⚠"));
                assertThat(result.innerText()).as("step " + (i + 1)).contains("✓ Passed");
            }
            page.waitForCondition(() -> page.locator("section.step.step-passed").count() == steps.count());
            Chromium.screenshot(page, "tbf-basics-run-through");

            List<Quiz> quizzes = quizzesOfTbfBasics(page);
            for (Quiz quiz : quizzes) {
                Locator form = page.locator("#quiz-" + quiz.id());
                List<Locator> inputs =
                        form.locator("input[type=radio], input[type=checkbox]").all();
                IntStream.range(0, quiz.options().size())
                        .filter(o -> quiz.options().get(o).correct())
                        .forEach(o -> inputs.get(o).check());
                form.locator("button[type=submit]").click();
                // Answered in place: the verdict replaces the result line without a reload.
                Locator verdict = form.locator(".quiz-result");
                page.waitForCondition(() -> !verdict.textContent().isBlank());
                assertThat(verdict.textContent()).startsWith("Correct!");
            }
            page.navigate(root.toString());
            assertThat(page.locator("article:has(h3 a[href='/lessons/tbf-basics']) .progress")
                            .textContent())
                    .contains(quizzes.size() + " of " + quizzes.size() + " answered correctly");

            page.navigate(root + "lessons/tbf-basics");
            stopLab(page);
        }
    }

    /**
     * Waits until the shell has run everything typed so far, by typing a marker. A command that hangs (an iperf3
     * stuck behind a bucket smaller than a frame) is interrupted, as a learner would with Ctrl-C.
     */
    private static void waitForTheShell(Page page, Locator terminal, String marker) {
        typeInto(page, "client", "echo " + marker + "-$((6*7))\n");
        for (int attempt = 0; attempt < 3; attempt++) {
            try {
                page.waitForCondition(
                        () -> terminal.innerText().contains(marker + "-42"),
                        new Page.WaitForConditionOptions().setTimeout(30_000));
                return;
            } catch (com.microsoft.playwright.TimeoutError stuck) {
                page.keyboard().press("Control+C");
                page.keyboard().type("echo " + marker + "-$((6*7))\n");
            }
        }
        assertThat(terminal.innerText()).contains(marker + "-42");
    }

    /** The quizzes as this page's learner sees them: their parameters, their order of each quiz's options. */
    private List<Quiz> quizzesOfTbfBasics(Page page) {
        String cookie = page.context().cookies().stream()
                .filter(c -> c.name.equals("tclab_learner"))
                .findFirst()
                .orElseThrow()
                .value;
        return learnerLessons
                .view(catalog.lesson("tbf-basics").orElseThrow(), cookie.substring(0, cookie.lastIndexOf('.')))
                .quizzes();
    }
}
