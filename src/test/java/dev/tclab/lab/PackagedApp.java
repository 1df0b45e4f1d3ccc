package dev.tclab.lab;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The packaged application ({@code target/quarkus-app/quarkus-run.jar}, built by {@code mvn package}) run as a
 * separate process, as {@code bin/tclab} runs it: its own data directory, instance label and port, so it can be
 * killed with SIGKILL and started again on the same state.
 */
public final class PackagedApp {

    static final Path JAR = Path.of("target/quarkus-app/quarkus-run.jar");
    private static final Duration READY_WITHIN = Duration.ofSeconds(180);
    private static final HttpClient HTTP =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    private final Path dataDir;
    private final String instance;
    private final int port;
    private final Path logDir;
    private final List<String> properties = new ArrayList<>();
    private final java.util.Map<String, String> environment = new java.util.HashMap<>();
    private Process process;
    private int starts;

    public PackagedApp(Path dataDir, String instance, Path logDir) throws IOException {
        if (!Files.isRegularFile(JAR)) {
            throw new IllegalStateException(JAR.toAbsolutePath() + " does not exist: run this test with mvn verify,"
                    + " which packages the app before the integration tests.");
        }
        this.dataDir = dataDir;
        this.instance = instance;
        this.logDir = logDir;
        try (ServerSocket free = new ServerSocket(0)) {
            this.port = free.getLocalPort();
        }
    }

    /** Sets a configuration property for the next starts (a {@code -D} option), e.g. the database to share. */
    public PackagedApp with(String key, String value) {
        properties.add("-D" + key + "=" + value);
        return this;
    }

    public URI base() {
        return URI.create("http://localhost:" + port + "/");
    }

    public int port() {
        return port;
    }

    public String instance() {
        return instance;
    }

    /** Sets a configuration property for the next starts (as {@code -Dkey=value}). */
    public PackagedApp property(String key, String value) {
        properties.add("-D" + key + "=" + value);
        return this;
    }

    /** Adds a JVM option for the next starts, e.g. {@code -XX:StartFlightRecording=...} to profile the app. */
    public PackagedApp jvmOption(String option) {
        properties.add(option);
        return this;
    }

    /** The log (standard output and error) of the latest start. */
    public Path log() {
        return logDir.resolve("app-start-" + starts + ".log");
    }

    /** Sets an environment variable for the next starts, e.g. {@code DOCKER_HOST}; null removes it. */
    public PackagedApp environment(String key, String value) {
        environment.put(key, value);
        return this;
    }

    /** The running app's process id, e.g. to read its CPU time and memory from /proc. */
    public long pid() {
        return process.pid();
    }

    /**
     * Runs one command of the app's CLI ({@code host add NAME}, ...) on the same data directory while the app is
     * stopped (the H2 file is opened by one process at a time), as {@code bin/tclab} runs it, with {@code stdin} as
     * its standard input; fails unless it exits 0.
     */
    public void runCommand(String stdin, String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(
                java(),
                "-Dquarkus.http.host-enabled=false",
                "-Dquarkus.log.level=WARN",
                "-Dtclab.data-dir=" + dataDir.toAbsolutePath(),
                "-Dtclab.instance=" + instance,
                "-jar",
                JAR.toAbsolutePath().toString()));
        command.addAll(List.of(args));
        Path log = logDir.resolve("app-command-" + args[0] + ".log");
        Process cli = new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .start();
        try (var in = cli.getOutputStream()) {
            in.write(stdin.getBytes(java.nio.charset.StandardCharsets.UTF_8));
        }
        if (!cli.waitFor(90, TimeUnit.SECONDS) || cli.exitValue() != 0) {
            cli.destroyForcibly();
            throw new AssertionError("tclab " + String.join(" ", args) + " failed; see " + log);
        }
    }

    private static String java() {
        return ProcessHandle.current().info().command().orElse("java");
    }

    /** Starts the app and waits until it is ready; returns how long that took. */
    public Duration start() throws IOException, InterruptedException {
        return start("q/health/ready");
    }

    /**
     * Starts the app and waits until {@code path} answers 200 ({@code q/health/live} for an app that cannot be
     * ready, e.g. without its engine); returns how long that took.
     */
    public Duration start(String path) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(
                java(),
                "-Xmx512m",
                "-Dquarkus.http.port=" + port,
                "-Dquarkus.http.host=127.0.0.1",
                "-Dtclab.data-dir=" + dataDir.toAbsolutePath(),
                "-Dtclab.instance=" + instance));
        command.addAll(properties);
        command.addAll(List.of("-jar", JAR.toAbsolutePath().toString()));
        Path log = logDir.resolve("app-start-" + (++starts) + ".log");
        long t0 = System.nanoTime();
        ProcessBuilder builder =
                new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile());
        environment.forEach((key, value) -> {
            if (value == null) {
                builder.environment().remove(key);
            } else {
                builder.environment().put(key, value);
            }
        });
        process = builder.start();
        // Generous: the app took 82 s to start on a machine at load 30 (2 cores shared by eight test runs).
        long deadline = t0 + READY_WITHIN.toNanos();
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new AssertionError("the app exited with " + process.exitValue() + " while starting; see " + log);
            }
            if (status(path) == 200) {
                return Duration.ofNanos(System.nanoTime() - t0);
            }
            Thread.sleep(50);
        }
        throw new AssertionError("the app was not ready within " + READY_WITHIN.toSeconds() + " s; see " + log);
    }

    /** SIGKILL, as the kernel's OOM killer or a power cut would: no shutdown hook runs. */
    public void kill() throws InterruptedException {
        process.destroyForcibly();
        if (!process.waitFor(20, TimeUnit.SECONDS)) {
            throw new AssertionError("the app did not die from SIGKILL within 20 s");
        }
    }

    /** SIGTERM, as a process manager stops it; returns how long the app took to exit. */
    public Duration terminate() throws InterruptedException {
        long t0 = System.nanoTime();
        process.destroy();
        if (!process.waitFor(30, TimeUnit.SECONDS)) {
            throw new AssertionError("the app did not exit within 30 s of SIGTERM");
        }
        return Duration.ofNanos(System.nanoTime() - t0);
    }

    /** Stops the app if it runs (SIGTERM, then SIGKILL); for cleanup. */
    public void stop() throws InterruptedException {
        if (process != null && process.isAlive()) {
            process.destroy();
            if (!process.waitFor(20, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        }
    }

    private int status(String path) {
        try {
            return HTTP.send(
                            HttpRequest.newBuilder(base().resolve(path))
                                    .timeout(Duration.ofSeconds(2))
                                    .build(),
                            HttpResponse.BodyHandlers.discarding())
                    .statusCode();
        } catch (IOException e) {
            return -1;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return -1;
        }
    }
}
