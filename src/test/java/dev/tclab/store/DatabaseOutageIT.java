package dev.tclab.store;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;

import dev.tclab.quiz.QuizResults;
import dev.tclab.web.QuizPositions;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.restassured.filter.cookie.CookieFilter;
import jakarta.inject.Inject;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * PostgreSQL goes away while the app runs (a relay in front of the real server is cut): readiness turns DOWN with
 * the reason, liveness stays UP, a quiz answer gets 503 and is not kept, answers acknowledged before are all there,
 * and the app recovers by itself when the database is back: the very first request after it succeeds, though the
 * pool still holds connections the cut killed (they are validated when borrowed and replaced).
 */
@QuarkusTest
@TestProfile(DatabaseOutageIT.ThroughRelay.class)
@QuarkusTestResource(value = DatabaseOutageIT.Relay.class, restrictToAnnotatedClass = true)
class DatabaseOutageIT {

    /** The PostgreSQL test profile; its URL comes from {@link Relay}. */
    public static class ThroughRelay implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            Map<String, String> config = new HashMap<>(new PostgresProfile().getConfigOverrides());
            config.remove("tclab.database.url");
            return config;
        }
    }

    /** Starts the relay before the app, points the app at it, and hands it to the test. */
    public static class Relay implements QuarkusTestResourceLifecycleManager {
        private TcpProxy relay;

        @Override
        public Map<String, String> start() {
            URI target = URI.create(PostgresProfile.url().substring("jdbc:".length()));
            try {
                relay = new TcpProxy(target.getHost(), target.getPort() < 0 ? 5432 : target.getPort());
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            String url = PostgresProfile.url()
                    .replace(target.getHost() + ":" + target.getPort(), "127.0.0.1:" + relay.port());
            return Map.of(
                    "tclab.database.url",
                    url + (url.contains("?") ? "&" : "?") + "currentSchema=" + PostgresProfile.SCHEMA);
        }

        @Override
        public void inject(TestInjector injector) {
            injector.injectIntoFields(relay, new TestInjector.MatchesType(TcpProxy.class));
        }

        @Override
        public void stop() {
            try {
                relay.close();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }

    TcpProxy relay;

    @Inject
    QuizResults results;

    @Inject
    Database database;

    @Test
    void shouldAnswer503DuringAnOutageKeepWhatWasAcknowledgedAndRecover() throws Exception {
        CookieFilter learner = new CookieFilter();
        // The learner's own order of the options: the positions of the lesson's options 0, 1 and 2.
        List<String> authored = List.of("32 kilobytes", "32 kilobits", "32 kilobits per second");
        int[] at = authored.stream()
                .mapToInt(text -> QuizPositions.of(learner, "web-test", "burst-unit", text))
                .toArray();
        answer(learner, at[1]).then().statusCode(200);
        answer(learner, at[2]).then().statusCode(200);
        given().get("/q/health/ready").then().statusCode(200);
        fillThePool(4);

        relay.cut();
        try {
            answer(learner, at[0])
                    .then()
                    .statusCode(503)
                    .header("Retry-After", "10")
                    .body("error", containsString("The database did not answer, so tclab could not"))
                    .body("error", containsString("Try again in a moment."));
            given().get("/q/health/ready")
                    .then()
                    .statusCode(503)
                    .body("checks.find { it.name.contains('Database') }.status", equalTo("DOWN"));
            given().get("/q/health/live").then().statusCode(200);
        } finally {
            relay.restore();
        }

        answer(learner, at[1]).then().statusCode(200);
        given().get("/q/health/ready").then().statusCode(200).body("checks.name", hasItem(containsString("Database")));
        String id = learnerId(learner);
        assertThat(results.history(id, "web-test"))
                .extracting(a -> a.choices().get(0))
                .as(
                        "the three acknowledged answers (the lesson's option indexes), in order; the refused one is not there")
                .containsExactly(1, 2, 1);
    }

    /** Leaves this many idle connections in the pool, as a busy server would have when its database goes away. */
    private void fillThePool(int connections) throws SQLException {
        List<Connection> open = new ArrayList<>();
        try {
            for (int i = 0; i < connections; i++) {
                open.add(database.connection());
            }
        } finally {
            for (Connection c : open) {
                c.close();
            }
        }
    }

    private static io.restassured.response.Response answer(CookieFilter learner, int choice) {
        return given().filter(learner)
                .contentType("application/json")
                .body("{\"choices\": [" + choice + "]}")
                .post("/api/lessons/web-test/quizzes/burst-unit");
    }

    private static String learnerId(CookieFilter learner) {
        var cookie = learner.getCookieStore().getCookies().stream()
                .filter(c -> c.getName().equals("tclab_learner"))
                .findFirst()
                .orElseThrow();
        return cookie.getValue().substring(0, cookie.getValue().lastIndexOf('.'));
    }
}
