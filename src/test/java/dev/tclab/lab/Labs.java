package dev.tclab.lab;

import static io.restassured.RestAssured.given;

import java.util.List;

/** What tests that drive labs through the service or the API share. */
public final class Labs {

    private Labs() {}

    /** Stops every live lab and resets the fake runtime, so each test starts from an empty server. */
    public static void clean(LabService labs, FakeLabRuntime runtime) throws Exception {
        stopAll(labs);
        runtime.reset();
    }

    /** Stops every live lab (on the real engine too: their containers go). */
    public static void stopAll(LabService labs) throws Exception {
        // Queued labs first, so that stopping a running one starts none of them.
        List<Lab> queuedFirst = labs.all().stream()
                .sorted(java.util.Comparator.comparing(lab -> lab.phase() != LabPhase.QUEUED))
                .toList();
        for (Lab lab : queuedFirst) {
            if (lab.phase().live()) {
                labs.stop(lab.id(), lab.owner());
            }
        }
    }

    /** A new visitor's learner cookie value, as the server hands it out. */
    public static String newLearner() {
        return given().get("/api/labs").then().statusCode(200).extract().cookie("tclab_learner");
    }
}
