package dev.tclab.web;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.endsWith;
import static org.hamcrest.Matchers.not;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tclab.lab.FakeLabRuntime;
import dev.tclab.lab.FakeRuntimeProfile;
import dev.tclab.lesson.LearnerLessons;
import dev.tclab.lesson.Lesson;
import dev.tclab.lesson.LessonCatalog;
import dev.tclab.runtime.KernelCapabilities;
import dev.tclab.system.SystemStatus;
import io.quarkus.arc.ClientProxy;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.filter.cookie.CookieFilter;
import jakarta.inject.Inject;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BooleanSupplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

@QuarkusTest
@TestProfile(FakeRuntimeProfile.class)
class LessonPagesTest {

    @Inject
    FakeLabRuntime runtime;

    @Inject
    SystemStatus system;

    @Inject
    LessonCatalog catalog;

    private static void await(BooleanSupplier condition, String what) throws InterruptedException {
        for (int i = 0; i < 100 && !condition.getAsBoolean(); i++) {
            Thread.sleep(100);
        }
        assertTrue(condition.getAsBoolean(), "timed out waiting until " + what);
    }

    @Test
    void shouldListLessonsWithKernelRequirementsProgressAndBrokenOnes() throws Exception {
        await(() -> system.snapshot().kernel().probed(), "the fake kernel is probed");
        String page = given().when()
                .get("/")
                .then()
                .statusCode(200)
                .contentType(containsString("text/html"))
                .extract()
                .asString();
        assertTrue(page.contains("<a href=\"/lessons/web-test\">Token bucket drill</a>"), page);
        // Issue 42, item 7: a newcomer is told where to start, the first lesson of the course's order.
        assertTrue(
                page.contains("<p class=\"start-here\" id=\"start-here\">New here? Start with <a href=\"/lessons/"),
                page);
        assertTrue(
                page.contains(
                        "<span aria-hidden=\"true\">✓</span> the <code>tbf</code> queueing discipline (qdisc) <span class=\"req-words\">(available on this server)</span>"),
                page);
        assertTrue(page.contains("0 of 2 answered correctly"), page);
        assertTrue(page.contains("Broken lessons"), page);
        assertTrue(page.contains("lessons/broken-demo/steps/01-only.md:4: lab.yml has no node &#39;server&#39;"), page);
        assertFalse(page.contains("href=\"/lessons/broken-demo\""), "a broken lesson gets no link: " + page);
        assertTrue(page.contains("Warnings for lesson authors"), page);
        assertTrue(
                page.contains("lessons/broken-demo/steps/01-only.md:11: warning: iperf3 &#39;up&#39; runs on node"
                        + " client against 10.0.0.1"),
                page);
        assertTrue(page.contains("<main id=\"main\""), page);
        assertFalse(page.contains("class=\"banner\""), "no banner while the engine is fine: " + page);
    }

    /**
     * Issue 42, item 7: a lesson whose lab runs on a kernel of its own was listed as needing the tbf qdisc "available
     * on this server", as if the server's kernel ran it.
     */
    @Test
    void shouldSayALabOnAKernelOfItsOwnGetsItsFeaturesFromThatKernel() throws Exception {
        await(() -> system.snapshot().kernel().probed(), "the fake kernel is probed");
        FakeLabRuntime fake = ClientProxy.unwrap(runtime);
        fake.ownKernel = true;
        try {
            String page =
                    given().when().get("/").then().statusCode(200).extract().asString();
            assertTrue(
                    page.contains(
                            "Its lab runs on a Linux kernel of its own (User-Mode Linux), which has what it needs"),
                    page);
            assertTrue(
                    page.contains(
                            "the <code>tbf</code> queueing discipline (qdisc) <span class=\"req-words\">(in the lab&#39;s"
                                    + " own kernel)</span>"),
                    page);
            assertFalse(page.contains("available on this server"), page);
        } finally {
            fake.ownKernel = false;
        }
    }

    @Test
    void shouldMarkRequirementsUnknownUntilTheKernelIsProbed() {
        var lesson = catalog.lesson("web-test").orElseThrow();
        assertEquals(
                "?",
                LessonPages.requirements(lesson, KernelCapabilities.unknown())
                        .get(0)
                        .symbol());
        assertEquals(
                "✗",
                LessonPages.requirements(lesson, new KernelCapabilities(Map.of("qdisc:tbf", false), "k"))
                        .get(0)
                        .symbol());
    }

    @Test
    void shouldShowTheGuardedProseOfTheKernelTheLabRunsOnAndHideTheOther() {
        FakeLabRuntime fake = ClientProxy.unwrap(runtime);
        String cake = "<p>Your lab's kernel has <strong>CAKE</strong>";
        String tbf = "<p>Your lab's kernel has no CAKE, so the modem gets a <strong>tbf</strong> instead";
        try {
            // the host's kernel (no CAKE in the fake's probe)
            String onHost = given().when()
                    .get("/lessons/example")
                    .then()
                    .statusCode(200)
                    .extract()
                    .asString();
            assertTrue(onHost.contains(tbf), onHost);
            assertFalse(onHost.contains("<strong>CAKE</strong>"), onHost);
            assertFalse(onHost.contains("```prose"), onHost);
            // a lab with a kernel of its own that has CAKE, as bufferbloat-upload gets in UML
            fake.ownKernelFeatures = new KernelCapabilities(Map.of("qdisc:tbf", true, "qdisc:cake", true), "6.1.0-uml");
            String own = given().when()
                    .get("/lessons/example")
                    .then()
                    .statusCode(200)
                    .extract()
                    .asString();
            assertTrue(own.contains(cake), own);
            assertFalse(own.contains("<strong>tbf</strong> instead"), own);
        } finally {
            fake.ownKernelFeatures = null;
        }
    }

    @Test
    void shouldShowABannerOnEveryPageWhenTheEngineIsDown() throws Exception {
        // Public fields live on the bean instance, not on its client proxy.
        FakeLabRuntime fake = ClientProxy.unwrap(runtime);
        fake.reachable = false;
        try {
            await(() -> system.snapshot().problem() != null, "the engine is seen down");
            given().when()
                    .get("/")
                    .then()
                    .statusCode(200)
                    .body(containsString("class=\"banner\" role=\"alert\""))
                    .body(containsString("fake engine is down"));
            given().when()
                    .get("/lessons/web-test")
                    .then()
                    .statusCode(200)
                    .body(containsString("class=\"banner\" role=\"alert\""));
        } finally {
            fake.reachable = true;
            await(() -> system.snapshot().problem() == null, "the engine is back");
        }
    }

    @Test
    void shouldRenderTheLessonWithCommandsChecksHintsSolutionsQuizzesAndLabPanel() {
        String page = given().when()
                .get("/lessons/web-test")
                .then()
                .statusCode(200)
                .extract()
                .asString();
        assertTrue(
                page.contains("<section id=\"lab-panel\" class=\"lab-panel\" tabindex=\"-1\" data-lesson=\"web-test\""
                        + " data-nodes=\"client,server\""),
                page);
        assertTrue(
                page.contains("<a class=\"skip-link\" id=\"skip-to-lab\" href=\"#lab-panel\">Skip to your lab</a>"),
                page);
        assertTrue(page.contains("id=\"lab-start\""), page);
        assertTrue(page.matches("(?s).*<link rel=\"stylesheet\" href=\"/app/lab\\.css\\?v=[0-9a-f]{12}\">.*"), page);
        assertTrue(
                page.matches("(?s).*<script type=\"module\" src=\"/app/lab\\.js\\?v=[0-9a-f]{12}\"></script>.*"), page);
        assertTrue(
                page.contains(
                        "class=\"cmd-run\" data-node=\"client\" data-command=\"iperf3 -C cubic -c 10.0.0.2 -t 3\""),
                page);
        assertTrue(
                page.contains(
                        "class=\"check-run\" data-step=\"shape\" data-check=\"shaped-to-rate\" disabled=\"disabled\""),
                page);
        assertTrue(page.contains("<div class=\"check-result\" aria-live=\"polite\"></div>"), page);
        assertTrue(page.contains("<details class=\"hint\">"), page);
        assertTrue(page.contains("<summary>Show solution (on client)</summary>"), page);
        assertTrue(
                page.contains(
                        "<form class=\"quiz\" id=\"quiz-burst-unit\" method=\"post\" action=\"/lessons/web-test/quizzes/burst-unit\">"),
                page);
        assertTrue(page.contains("id=\"step-baseline\"") && page.contains("id=\"step-shape\""), page);
        assertFalse(page.contains("{{rate}}"), "parameters are substituted: " + page);
        assertFalse(page.contains("Kilobits would be written"), "no explanation before answering: " + page);
        assertFalse(page.contains("near:"), "check specs stay on the server: " + page);
    }

    @Test
    void shouldGiveDifferentLearnersTheirOwnParameterValues() {
        Set<String> rates = new HashSet<>();
        for (int i = 0; i < 12 && rates.size() < 2; i++) {
            rates.add(rateOn(given().filter(new CookieFilter())
                    .when()
                    .get("/lessons/web-test")
                    .asString()));
        }
        assertTrue(rates.size() >= 2, "learners see different rates: " + rates);
        CookieFilter anna = new CookieFilter();
        String first =
                rateOn(given().filter(anna).when().get("/lessons/web-test").asString());
        assertEquals(
                first,
                rateOn(given().filter(anna).when().get("/lessons/web-test").asString()));
    }

    private static String rateOn(String page) {
        Matcher m = Pattern.compile("Shape the uplink to (\\d+) Mbit/s").matcher(page);
        assertTrue(m.find(), page);
        return m.group(1);
    }

    @Test
    void shouldGradeAFormAnswerAndShowTheVerdictOnTheLessonPage() {
        CookieFilter learner = new CookieFilter();
        given().filter(learner)
                .redirects()
                .follow(false)
                .formParam("choice", QuizPositions.of(learner, "web-test", "burst-unit", "32 kilobits"))
                .when()
                .post("/lessons/web-test/quizzes/burst-unit")
                .then()
                .statusCode(303)
                .header("Location", endsWith("/lessons/web-test#quiz-burst-unit"));
        String wrong = given().filter(learner).when().get("/lessons/web-test").asString();
        assertTrue(wrong.contains("Not quite."), wrong);
        assertTrue(wrong.contains("Kilobits would be written"), wrong);
        assertFalse(wrong.contains("reads the suffix"), "the right option is not explained yet: " + wrong);

        given().filter(learner)
                .redirects()
                .follow(false)
                .formParam("choice", QuizPositions.of(learner, "web-test", "burst-unit", "32 kilobytes"))
                .when()
                .post("/lessons/web-test/quizzes/burst-unit")
                .then()
                .statusCode(303);
        String right = given().filter(learner).when().get("/lessons/web-test").asString();
        assertTrue(right.contains("Correct!"), right);
        assertTrue(right.contains("reads the suffix") && right.contains("Kilobits would be written"), right);
        given().filter(learner).when().get("/").then().body(containsString("1 of 2 answered correctly"));
    }

    @Test
    void shouldExplainARejectedFormAnswer() {
        given().when()
                .post("/lessons/web-test/quizzes/burst-unit")
                .then()
                .statusCode(400)
                .body(containsString("Choose at least one option."));
        given().formParam("choice", "<script>alert(1)</script>")
                .when()
                .post("/lessons/web-test/quizzes/burst-unit")
                .then()
                .statusCode(400)
                .body(not(containsString("<script>alert(1)")))
                .body(containsString("&lt;script&gt;alert(1)&lt;/script&gt;"));
    }

    @Test
    void shouldAnswerUnknownAndBrokenLessonsClearly() {
        given().when()
                .get("/lessons/no-such-lesson")
                .then()
                .statusCode(404)
                .body(containsString("There is no lesson &#39;no-such-lesson&#39;."));
        given().when()
                .get("/lessons/broken-demo")
                .then()
                .statusCode(500)
                .body(containsString("A broken lesson is broken"))
                .body(containsString("{{undeclared}}"));
    }

    @Test
    void shouldEscapeScriptInLessonMarkdownAndQuizTexts() {
        CookieFilter learner = new CookieFilter();
        String before = given().filter(learner)
                .when()
                .get("/lessons/escaping")
                .then()
                .statusCode(200)
                .extract()
                .asString();
        given().filter(learner)
                .redirects()
                .follow(false)
                .formParam(
                        "choice",
                        QuizPositions.of(learner, "escaping", "probe", "Yes <script>alert('option')</script>"))
                .when()
                .post("/lessons/escaping/quizzes/probe")
                .then()
                .statusCode(303);
        String after = given().filter(learner).when().get("/lessons/escaping").asString();
        String catalogPage = given().when().get("/").asString();
        for (String page : new String[] {before, after, catalogPage}) {
            assertFalse(page.contains("<script>alert"), page);
            assertFalse(page.contains("<img src=x"), page);
            assertFalse(page.contains("<div onclick"), page);
            assertFalse(page.contains("href=\"javascript:"), page);
        }
        assertTrue(before.contains("Intro with &lt;script&gt;alert"), before);
        assertTrue(after.contains("Because &lt;script&gt;alert('why')&lt;/script&gt; is text."), after);
        assertTrue(
                catalogPage.contains("inject &lt;script&gt;alert(&#39;summary&#39;)&lt;/script&gt; markup"),
                catalogPage);
    }

    /** A lesson is done when every graded step passed, or, without graded steps, every quiz is answered right. */
    @Test
    void shouldCountTheLessonsDoneAndTheStepsPassedOfATrack() {
        var tbf = catalog.lesson("tbf-basics").orElseThrow();
        var htb = catalog.lesson("htb-rate-accuracy").orElseThrow();
        var track = catalog.course().track("foundations").orElseThrow();
        LessonPages.Card allPassed = card(tbf, 5, 5, new LearnerLessons.Progress(0, 14));
        LessonPages.Card halfway = card(htb, 1, 3, new LearnerLessons.Progress(7, 7));
        LessonPages.Card quizzesOnly = card(htb, 0, 0, new LearnerLessons.Progress(2, 2));
        LessonPages.Card nothing = card(htb, 0, 0, new LearnerLessons.Progress(0, 0));
        assertTrue(allPassed.done());
        assertFalse(halfway.done(), "every quiz right, but a graded step not passed");
        assertTrue(quizzesOnly.done());
        assertFalse(nothing.done(), "a lesson with nothing graded is never done");
        LessonPages.TrackGroup group = new LessonPages.TrackGroup(track, List.of(allPassed, halfway));
        assertEquals(1, group.lessonsDone());
        assertEquals(6, group.stepsPassed());
        assertEquals(8, group.stepsTotal());
    }

    /** The catalog's first line: where a newcomer starts, then the first lesson not done, then nothing. */
    @Test
    void shouldSayWhereToStartThenWhatIsNext() {
        var tbf = catalog.lesson("tbf-basics").orElseThrow();
        var htb = catalog.lesson("htb-rate-accuracy").orElseThrow();
        var track = catalog.course().track("foundations").orElseThrow();
        LessonPages.Card tbfNew = card(tbf, 0, 5, new LearnerLessons.Progress(0, 14));
        LessonPages.Card tbfDone = card(tbf, 5, 5, new LearnerLessons.Progress(0, 14));
        LessonPages.Card htbNew = card(htb, 0, 3, new LearnerLessons.Progress(0, 7));
        LessonPages.Card htbDone = card(htb, 3, 3, new LearnerLessons.Progress(7, 7));

        LessonPages.Next fresh =
                LessonPages.startHere(List.of(new LessonPages.TrackGroup(track, List.of(tbfNew, htbNew))), List.of());
        assertEquals("New here? Start with", fresh.words());
        assertEquals("tbf-basics", fresh.lesson().slug());
        LessonPages.Next next =
                LessonPages.startHere(List.of(new LessonPages.TrackGroup(track, List.of(tbfDone, htbNew))), List.of());
        assertEquals("Next for you:", next.words());
        assertEquals("htb-rate-accuracy", next.lesson().slug());
        assertNull(LessonPages.startHere(
                List.of(new LessonPages.TrackGroup(track, List.of(tbfDone, htbDone))), List.of()));
    }

    private static LessonPages.Card card(
            Lesson lesson, int stepsPassed, int stepsTotal, LearnerLessons.Progress quizzes) {
        return new LessonPages.Card(
                lesson, List.of(), quizzes, stepsPassed, stepsTotal, null, false, null, List.of(), false);
    }
}
