package dev.tclab.host;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tclab.lab.PackagedApp;
import java.io.IOException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The packaged app on an empty data directory prints a one-time setup token in its log, once; /host/setup takes it
 * to create the first host (signed in at once), refuses it a second time, and a restart with a host prints none.
 */
class HostSetupIT {

    private static final Pattern TOKEN = Pattern.compile("one-time setup token: ([A-Z0-9]{24}) ");
    private static final HttpClient HTTP =
            HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    private PackagedApp app;

    @AfterEach
    void stop() throws InterruptedException {
        if (app != null) {
            app.stop();
        }
    }

    private HttpResponse<String> setup(String body) throws IOException, InterruptedException {
        return HTTP.send(
                HttpRequest.newBuilder(app.base().resolve("api/host/setup"))
                        .header("Content-Type", "application/json")
                        .POST(HttpRequest.BodyPublishers.ofString(body))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private static List<String> tokensIn(Path log) throws IOException {
        Matcher m = TOKEN.matcher(Files.readString(log));
        return m.results().map(r -> r.group(1)).toList();
    }

    @Test
    void theFirstStartPrintsATokenThatCreatesTheFirstHostOnce() throws Exception {
        Path work = Files.createDirectories(Path.of("target/host-setup-it"));
        Path data = Files.createTempDirectory(work, "data");
        String instance = System.getenv().getOrDefault("_TEST_TCLAB_INSTANCE", "tclab-test") + "-setup";
        app = new PackagedApp(data, instance, work);
        app.start();
        Thread.sleep(500);
        List<String> tokens = tokensIn(work.resolve("app-start-1.log"));
        assertThat(tokens).as("one token line at the first start").hasSize(1);
        String token = tokens.get(0);

        assertThat(HTTP.send(
                                HttpRequest.newBuilder(app.base().resolve("host/setup"))
                                        .build(),
                                HttpResponse.BodyHandlers.ofString())
                        .body())
                .contains("one-time setup token");
        HttpResponse<String> wrong = setup("{\"token\": \"ABCDEFGHJKMNPQRSTWXYZ234\", \"name\": \"alice\", "
                + "\"password\": \"correct horse battery\"}");
        assertThat(wrong.statusCode()).isEqualTo(403);
        assertThat(wrong.body()).contains("not the setup token");
        HttpResponse<String> created = setup(
                "{\"token\": \"" + token + "\", \"name\": \"alice\", " + "\"password\": \"correct horse battery\"}");
        assertThat(created.statusCode()).as(created.body()).isEqualTo(200);
        assertThat(created.body()).contains("\"admin\":true");
        String cookie = created.headers().firstValue("Set-Cookie").orElseThrow().split(";", 2)[0];
        assertThat(cookie).startsWith(HostSessions.COOKIE + "=");
        assertThat(HTTP.send(
                                HttpRequest.newBuilder(app.base().resolve("api/host/session"))
                                        .header("Cookie", cookie)
                                        .build(),
                                HttpResponse.BodyHandlers.ofString())
                        .body())
                .contains("\"name\":\"alice\"");
        assertThat(setup("{\"token\": \"" + token
                                + "\", \"name\": \"mallory\", \"password\": \"correct horse battery\"}")
                        .statusCode())
                .as("the token is used up")
                .isEqualTo(410);

        app.stop();
        app.start();
        Thread.sleep(500);
        assertThat(tokensIn(work.resolve("app-start-2.log")))
                .as("a host exists: no token")
                .isEmpty();
        assertThat(HTTP.send(
                                HttpRequest.newBuilder(app.base().resolve("api/host/session"))
                                        .header("Cookie", cookie)
                                        .build(),
                                HttpResponse.BodyHandlers.ofString())
                        .statusCode())
                .as("the session survives a restart")
                .isEqualTo(200);
    }
}
