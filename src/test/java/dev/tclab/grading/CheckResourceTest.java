package dev.tclab.grading;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;

import dev.tclab.grading.spec.OutputReader;
import dev.tclab.lab.FakeLabRuntime;
import dev.tclab.lab.FakeRuntimeProfile;
import dev.tclab.lab.LabService;
import dev.tclab.lab.Labs;
import dev.tclab.runtime.ExecResult;
import dev.tclab.tc.Fixtures;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import jakarta.inject.Inject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The Check button's API, above a fake runtime that answers with real iperf3 and ping outputs (the fixtures),
 * against the test lesson "example" (its step "shape" checks throughput and ping).
 */
@QuarkusTest
@TestProfile(FakeRuntimeProfile.class)
class CheckResourceTest {

    @Inject
    FakeLabRuntime runtime;

    @Inject
    LabService labs;

    @Inject
    CheckRunLog log;

    @AfterEach
    void clean() throws Exception {
        Labs.clean(labs, runtime);
    }

    private void labAnswers(String iperf3Fixture) {
        runtime.execHandler = (node, command) -> command.contains("iperf3")
                ? new ExecResult(0, Fixtures.read(iperf3Fixture), "", false)
                : command.contains("ping")
                        ? new ExecResult(0, Fixtures.read("ping/ping-iputils.txt"), "", false)
                        : new ExecResult(0, "", "", false);
    }

    private static String runningLab(String learner) throws InterruptedException {
        String id = given().cookie("tclab_learner", learner)
                .contentType(ContentType.JSON)
                .body("{\"lesson\": \"example\"}")
                .post("/api/labs")
                .then()
                .statusCode(202)
                .extract()
                .path("id");
        for (int i = 0;
                i < 100
                        && !"running"
                                .equals(given().cookie("tclab_learner", learner)
                                        .get("/api/labs/" + id)
                                        .path("status"));
                i++) {
            Thread.sleep(10);
        }
        return id;
    }

    private static JsonPath checkToTheEnd(String learner, String lab, String step) throws InterruptedException {
        String run = given().cookie("tclab_learner", learner)
                .contentType(ContentType.JSON)
                .post("/api/labs/" + lab + "/steps/" + step + "/check")
                .then()
                .statusCode(202)
                .body("step", equalTo(step))
                .extract()
                .path("id");
        JsonPath body = null;
        for (int i = 0; i < 200; i++) {
            body = given().cookie("tclab_learner", learner)
                    .get("/api/labs/" + lab + "/checks/" + run)
                    .then()
                    .statusCode(200)
                    .extract()
                    .jsonPath();
            if (body.getBoolean("finished")) {
                return body;
            }
            Thread.sleep(50);
        }
        throw new AssertionError("the check run did not finish: " + body.prettify());
    }

    @Test
    void shouldPassAStepFromMeasuredValuesAndShowThem() throws Exception {
        labAnswers("iperf3/iperf3-tcp-tbf10.json");
        String learner = Labs.newLearner();
        String lab = runningLab(learner);

        JsonPath run = checkToTheEnd(learner, lab, "shape");

        org.assertj.core.api.Assertions.assertThat(run.getString("state"))
                .as(run.prettify())
                .isEqualTo("passed");
        org.assertj.core.api.Assertions.assertThat(run.getList("results.status"))
                .containsOnly("passed");
        org.assertj.core.api.Assertions.assertThat(run.getString("results[0].assertions[0].measured"))
                .contains("Mbit/s");
        // The step's checks send traffic for 3 s (the upload) and ping for 1 s (5 pings 0.2 s apart), once each.
        org.assertj.core.api.Assertions.assertThat(run.getInt("measuring.seconds"))
                .as(run.prettify())
                .isEqualTo(4);
        org.assertj.core.api.Assertions.assertThat(run.getInt("measuring.atMostSeconds"))
                .isEqualTo(4);
        org.assertj.core.api.Assertions.assertThat(runtime.execLog)
                .anySatisfy(c -> org.assertj.core.api.Assertions.assertThat(c)
                        .startsWith("client: iperf3")
                        .contains("-C cubic")
                        .contains("-J"));
        given().cookie("tclab_learner", learner)
                .get("/api/labs/" + lab + "/steps")
                .then()
                .statusCode(200)
                .body("passed.shape", equalTo(true));
    }

    /** A reloaded page shows each step's last result: the newest finished run, with its measured values, from the store. */
    @Test
    void shouldAnswerEachCheckedStepsNewestFinishedRunForAReloadedPage() throws Exception {
        labAnswers("iperf3/iperf3-tcp-reverse.json");
        String learner = Labs.newLearner();
        String lab = runningLab(learner);
        checkToTheEnd(learner, lab, "shape");
        labAnswers("iperf3/iperf3-tcp-tbf10.json");
        JsonPath newest = checkToTheEnd(learner, lab, "shape");

        JsonPath steps = given().cookie("tclab_learner", learner)
                .get("/api/labs/" + lab + "/steps")
                .then()
                .statusCode(200)
                .extract()
                .jsonPath();
        org.assertj.core.api.Assertions.assertThat(steps.getString("last.shape.id"))
                .isEqualTo(newest.getString("id"));
        org.assertj.core.api.Assertions.assertThat(steps.getString("last.shape.state"))
                .isEqualTo("passed");
        org.assertj.core.api.Assertions.assertThat(steps.getString("last.shape.results[0].assertions[0].measured"))
                .isEqualTo(newest.getString("results[0].assertions[0].measured"));
        org.assertj.core.api.Assertions.assertThat(steps.getMap("last")).containsOnlyKeys("shape");
        String stranger = Labs.newLearner();
        given().cookie("tclab_learner", stranger)
                .get("/api/labs/" + lab + "/steps")
                .then()
                .statusCode(404);
    }

    @Test
    void shouldFailAStepWhenTheLabIsNotShapedAndSayWhatWasMeasured() throws Exception {
        labAnswers("iperf3/iperf3-tcp-reverse.json");
        String learner = Labs.newLearner();
        String lab = runningLab(learner);

        JsonPath run = checkToTheEnd(learner, lab, "shape");

        org.assertj.core.api.Assertions.assertThat(run.getString("state"))
                .as(run.prettify())
                .isEqualTo("failed");
        org.assertj.core.api.Assertions.assertThat(run.getList("results[0].assertions.passed"))
                .contains(false);
        given().cookie("tclab_learner", learner)
                .get("/api/labs/" + lab + "/steps")
                .then()
                .body("passed.shape", equalTo(false));
    }

    /** What the runtime keeps of a flood (1 MiB, flagged cut): the API returns a few KiB of it, and says so. */
    @Test
    void shouldReturnOnlyAFewKibOfRawOutputAndSayItWasCut() throws Exception {
        String flood = "x".repeat(1 << 20);
        runtime.execHandler = (node, command) -> command.contains("iperf3")
                ? new ExecResult(0, flood, "", false, true)
                : new ExecResult(0, Fixtures.read("ping/ping-iputils.txt"), "", false);
        String learner = Labs.newLearner();
        String lab = runningLab(learner);

        JsonPath run = checkToTheEnd(learner, lab, "shape");

        java.util.Map<String, String> raw = run.getMap("results[0].raw");
        org.assertj.core.api.Assertions.assertThat(raw)
                .as(run.getString("results[0].message"))
                .isNotEmpty();
        raw.values().forEach(text -> {
            org.assertj.core.api.Assertions.assertThat(text.length()).isLessThan(OutputReader.MAX_RAW_CHARS + 200);
            org.assertj.core.api.Assertions.assertThat(text)
                    .endsWith("it was more than 1 MiB; the first 4096 are shown]");
        });
    }

    @Test
    void shouldAnswerRunsThatMemoryNoLongerHoldsFromTheDatabase() throws Exception {
        labAnswers("iperf3/iperf3-tcp-tbf10.json");
        String learner = Labs.newLearner();
        String lab = runningLab(learner);
        java.util.List<String> ids = new java.util.ArrayList<>();
        for (int press = 0; press <= StepChecks.KEPT_RUNS_PER_LAB; press++) {
            ids.add(checkToTheEnd(learner, lab, "shape").getString("id"));
        }
        // Memory keeps only the newest runs of a lab (a learner pressing Check in a loop); older ones come back from
        // the database, as they finished.
        for (String id : ids) {
            given().cookie("tclab_learner", learner)
                    .get("/api/labs/" + lab + "/checks/" + id)
                    .then()
                    .statusCode(200)
                    .body("id", equalTo(id))
                    .body("finished", equalTo(true))
                    .body("state", equalTo("passed"));
        }
    }

    @Test
    void shouldKeepOtherLearnersOutAndExplainUnknownSteps() throws Exception {
        String owner = Labs.newLearner();
        String lab = runningLab(owner);
        given().cookie("tclab_learner", Labs.newLearner())
                .contentType(ContentType.JSON)
                .post("/api/labs/" + lab + "/steps/shape/check")
                .then()
                .statusCode(404)
                .body("error", containsString("You have no such lab"));
        given().cookie("tclab_learner", owner)
                .contentType(ContentType.JSON)
                .post("/api/labs/" + lab + "/steps/nope/check")
                .then()
                .statusCode(404)
                .body("error", equalTo("Lesson 'example' has no step 'nope'."));
        given().cookie("tclab_learner", owner)
                .get("/api/labs/" + lab + "/checks/no-such-run")
                .then()
                .statusCode(404)
                .body(
                        "error",
                        containsString("or it was pruned (each step keeps its newest 10"
                                + " runs, and only its latest after 30 days); press Check again"));
    }

    @Test
    void shouldRefuseToCheckAStoppedLab() throws Exception {
        String learner = Labs.newLearner();
        String lab = runningLab(learner);
        given().cookie("tclab_learner", learner)
                .delete("/api/labs/" + lab)
                .then()
                .statusCode(204);
        given().cookie("tclab_learner", learner)
                .contentType(ContentType.JSON)
                .post("/api/labs/" + lab + "/steps/shape/check")
                .then()
                .statusCode(404);
        given().cookie("tclab_learner", learner).get("/api/labs").then().body("id", hasItem(lab));
    }

    @Test
    void shouldAnswerARunKeptByAStoppedServerAsInterruptedEvenWithoutItsLab() {
        String learner = Labs.newLearner();
        CheckRun run = new CheckRun(
                java.util.UUID.randomUUID().toString(),
                "gone-lab",
                learner.substring(0, learner.lastIndexOf('.')),
                "example",
                "shape",
                java.time.Instant.now());
        log.started(run); // kept, never finished, and not running in this process: as after a crash

        given().cookie("tclab_learner", learner)
                .get("/api/labs/gone-lab/checks/" + run.id())
                .then()
                .statusCode(200)
                .body("state", equalTo("interrupted"))
                .body("finished", equalTo(true))
                .body("detail", containsString("press Check again"))
                .body("step", equalTo("shape"));
        given().cookie("tclab_learner", Labs.newLearner())
                .get("/api/labs/gone-lab/checks/" + run.id())
                .then()
                .statusCode(404);
    }
}
