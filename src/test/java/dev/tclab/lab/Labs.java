package dev.tclab.lab;

import static io.restassured.RestAssured.given;

/** What tests that drive labs through the service or the API share. */
public final class Labs {

    private Labs() {
    }

    /** Stops every live lab and resets the fake runtime, so each test starts from an empty server. */
    public static void clean(LabService labs, FakeLabRuntime runtime) throws Exception {
        for (Lab lab : labs.all()) {
            if (lab.phase().live()) {
                labs.stop(lab.id(), lab.owner());
            }
        }
        runtime.reset();
    }

    /** A new visitor's learner cookie value, as the server hands it out. */
    public static String newLearner() {
        return given().get("/api/labs").then().statusCode(200).extract().cookie("tclab_learner");
    }
}
