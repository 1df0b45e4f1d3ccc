package dev.tclab.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/**
 * The app's public HTTP API as a page (learner or host) calls it: JSON, same-site Origin, its cookie. Each instance is
 * its own HTTP client (connections, selector thread), as each learner's browser is.
 */
final class ClassApi {

    private static final ObjectMapper JSON = new ObjectMapper();
    private final HttpClient http = HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(10))
            .build();
    private final URI base;
    private final String origin;

    ClassApi(URI base) {
        this.base = base;
        this.origin = "http://" + base.getHost() + ":" + base.getPort();
    }

    URI base() {
        return base;
    }

    /** A new learner's signed cookie value, as any first page view gets it. */
    String newLearner() throws IOException, InterruptedException {
        HttpResponse<String> response = http.send(
                HttpRequest.newBuilder(base.resolve("/api/workshop/mine"))
                        .timeout(Duration.ofSeconds(30))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        return response.headers().allValues("Set-Cookie").stream()
                .filter(c -> c.startsWith("tclab_learner="))
                .map(c -> c.substring("tclab_learner=".length(), c.indexOf(';')))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no learner cookie on " + response.headers()));
    }

    /** Signs the host in; the host cookie's value. */
    String signIn(String name, String password) throws IOException, InterruptedException {
        HttpResponse<String> response = send(
                "POST", "/api/host/session", null, object().put("name", name).put("password", password), 200);
        return response.headers().allValues("Set-Cookie").stream()
                .filter(c -> c.startsWith("tclab_host="))
                .map(c -> c.substring("tclab_host=".length(), c.indexOf(';')))
                .findFirst()
                .orElseThrow();
    }

    /** Creates a workshop of one lesson with that many seats; its join code. */
    String createEvent(String hostCookie, String lesson, int seats) throws IOException, InterruptedException {
        ObjectNode body = object().put("title", "Class benchmark").put("seatCap", seats);
        body.putArray("lessons").add(lesson);
        return json(send("POST", "/api/host/events", "tclab_host=" + hostCookie, body, 201))
                .path("event")
                .path("joinCode")
                .asText();
    }

    void join(String learner, String code, String name) throws IOException, InterruptedException {
        send(
                "POST",
                "/api/join",
                learnerCookie(learner),
                object().put("code", code).put("name", name),
                200);
    }

    /** Starts the learner's lab of the lesson; the lab as answered (202, or 200 when it was live already). */
    JsonNode startLab(String learner, String lesson) throws IOException, InterruptedException {
        return json(send("POST", "/api/labs", learnerCookie(learner), object().put("lesson", lesson), 202, 200));
    }

    JsonNode lab(String learner, String labId) throws IOException, InterruptedException {
        return json(send("GET", "/api/labs/" + labId, learnerCookie(learner), null, 200));
    }

    void stopLab(String learner, String labId) throws IOException, InterruptedException {
        send("DELETE", "/api/labs/" + labId, learnerCookie(learner), null, 204);
    }

    /** Presses Check on the step; the run's id. */
    String check(String learner, String labId, String step) throws IOException, InterruptedException {
        return json(send("POST", "/api/labs/" + labId + "/steps/" + step + "/check", learnerCookie(learner), null, 202))
                .path("id")
                .asText();
    }

    JsonNode checkRun(String learner, String labId, String runId) throws IOException, InterruptedException {
        return json(send("GET", "/api/labs/" + labId + "/checks/" + runId, learnerCookie(learner), null, 200));
    }

    /** The Prometheus text at /q/metrics. */
    String metrics() throws IOException, InterruptedException {
        return send("GET", "/q/metrics", null, null, 200).body();
    }

    private static String learnerCookie(String learner) {
        return "tclab_learner=" + learner;
    }

    private HttpResponse<String> send(String method, String path, String cookie, JsonNode body, int... expected)
            throws IOException, InterruptedException {
        HttpRequest.Builder request = HttpRequest.newBuilder(base.resolve(path))
                .timeout(Duration.ofSeconds(60))
                .header("Origin", origin);
        if (cookie != null) {
            request.header("Cookie", cookie);
        }
        if (method.equals("POST")) {
            request.header("Content-Type", "application/json");
        }
        request.method(
                method,
                body == null
                        ? (method.equals("POST")
                                ? HttpRequest.BodyPublishers.ofString("")
                                : HttpRequest.BodyPublishers.noBody())
                        : HttpRequest.BodyPublishers.ofString(body.toString()));
        HttpResponse<String> response = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
        for (int status : expected) {
            if (response.statusCode() == status) {
                return response;
            }
        }
        throw new AssertionError(method + " " + path + " answered " + response.statusCode() + " (expected "
                + java.util.Arrays.toString(expected) + "): " + response.body());
    }

    private static ObjectNode object() {
        return JSON.createObjectNode();
    }

    private static JsonNode json(HttpResponse<String> response) throws IOException {
        return JSON.readTree(response.body());
    }
}
