package dev.tclab.system;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * A Docker engine of the test's own, so a test can stop and start it without touching the system's dockerd (other
 * tests use that one). Runs as root, in a network namespace of its own, with its data, state, pid file and socket
 * under target/, no bridge and no iptables rules, and live-restore on: containers outlive it, as on a production engine configured per docs/operations.md.
 * Its image store persists under target/, so the lab image is copied in once.
 */
final class PrivateDockerd {

    static final String IMAGE = "tclab/lab-node:1";
    private static final Path DIR = Path.of("target", "private-dockerd").toAbsolutePath();
    private static final Duration READY = Duration.ofSeconds(30);
    private static final String NETNS = "tclab-private-dockerd";

    private Process daemon;

    /** The engine endpoint, as {@code tclab.docker.host} takes it. */
    String host() {
        return "unix://" + DIR.resolve("docker.sock");
    }

    /** Starts the engine and waits until it answers; fails (never skips) when the machine cannot run one. */
    void start() throws IOException, InterruptedException {
        if (!"0".equals(run(List.of("id", "-u")).trim())) {
            throw new IllegalStateException("This test starts its own dockerd and must run as root.");
        }
        if (!Files.isExecutable(Path.of("/usr/sbin/dockerd")) && !Files.isExecutable(Path.of("/usr/bin/dockerd"))) {
            throw new IllegalStateException("This test needs dockerd (Debian's docker.io) to start its own engine.");
        }
        stopLeftover();
        Files.createDirectories(DIR.resolve("data"));
        Files.createDirectories(DIR.resolve("exec"));
        // Its own network namespace: a dockerd started with --bridge=none deletes the host's docker0 otherwise
        // (seen here), which the system engine's default-bridge containers need.
        if (!Files.exists(Path.of("/run/netns", NETNS))) {
            run(List.of("ip", "netns", "add", NETNS));
        }
        // nsenter, not "ip netns exec": that one remounts /sys, hiding the cgroup mounts dockerd needs.
        daemon = new ProcessBuilder(
                        "nsenter",
                        "--net=/run/netns/" + NETNS,
                        "dockerd",
                        "--data-root",
                        DIR.resolve("data").toString(),
                        "--exec-root",
                        DIR.resolve("exec").toString(),
                        "--pidfile",
                        DIR.resolve("docker.pid").toString(),
                        "-H",
                        host(),
                        "--bridge=none",
                        "--iptables=false",
                        "--ip-masq=false",
                        "--live-restore")
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(
                        DIR.resolve("dockerd.log").toFile()))
                .start();
        long deadline = System.nanoTime() + READY.toNanos();
        while (!answers()) {
            if (!daemon.isAlive() || System.nanoTime() > deadline) {
                throw new IllegalStateException(
                        "the private dockerd did not come up; see " + DIR.resolve("dockerd.log"));
            }
            Thread.sleep(200);
        }
    }

    /** Stops the engine as an operator would (SIGTERM) and waits for it to exit; live-restore keeps the containers. */
    void stop() throws InterruptedException {
        if (daemon != null && daemon.isAlive()) {
            daemon.destroy();
            if (!daemon.waitFor(30, TimeUnit.SECONDS)) {
                throw new IllegalStateException("the private dockerd did not stop within 30 s");
            }
        }
    }

    boolean answers() throws IOException, InterruptedException {
        return exitCode(List.of("docker", "-H", host(), "info")) == 0;
    }

    /** Copies the lab image from the system engine, unless this engine has it from an earlier run. */
    void ensureImage() throws IOException, InterruptedException {
        if (exitCode(List.of("docker", "-H", host(), "image", "inspect", IMAGE)) != 0) {
            run(List.of("sh", "-c", "docker save " + IMAGE + " | docker -H " + host() + " load -q"));
        }
    }

    /** Removes every container of this engine (all are the test's), stops it, and ends the containerd it started. */
    void removeAll() throws IOException, InterruptedException {
        if (daemon != null && daemon.isAlive()) {
            String ids = run(List.of("docker", "-H", host(), "ps", "-aq")).trim();
            if (!ids.isEmpty()) {
                List<String> rm = new ArrayList<>(List.of("docker", "-H", host(), "rm", "-f"));
                rm.addAll(List.of(ids.split("\\s+")));
                run(rm);
            }
        }
        stop();
        // With live-restore, the engine's own containerd may outlive it.
        pidIn(DIR.resolve("exec/containerd/containerd.pid"))
                .flatMap(ProcessHandle::of)
                .ifPresent(ProcessHandle::destroy);
        exitCode(List.of("ip", "netns", "delete", NETNS));
        // dockerd bind-mounts its data root on itself and leaves the mount behind, which would make target/ (and
        // mvn clean) fail to delete with "device or resource busy".
        exitCode(List.of("umount", DIR.resolve("data").toString()));
    }

    /** A dockerd of an earlier run that was killed before its cleanup holds the pid file: it is this test's, end it. */
    private void stopLeftover() throws InterruptedException {
        Optional<ProcessHandle> leftover = pidIn(DIR.resolve("docker.pid"))
                .flatMap(ProcessHandle::of)
                .filter(p -> p.info().command().map(c -> c.endsWith("dockerd")).orElse(false));
        if (leftover.isPresent()) {
            leftover.get().destroy();
            leftover.get().onExit().orTimeout(30, TimeUnit.SECONDS).join();
        }
    }

    private static Optional<Long> pidIn(Path file) {
        try {
            return Optional.of(Long.parseLong(Files.readString(file).trim()));
        } catch (IOException | NumberFormatException e) {
            return Optional.empty();
        }
    }

    private static int exitCode(List<String> command) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .start();
        if (!p.waitFor(30, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            return -1;
        }
        return p.exitValue();
    }

    private static String run(List<String> command) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(120, TimeUnit.SECONDS) || p.exitValue() != 0) {
            throw new IllegalStateException(String.join(" ", command) + " failed: " + out);
        }
        return out;
    }
}
