package dev.tclab.cli;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Runs the commands a user would (git, docker, the repo's scripts) and fails with their output when one fails. */
final class Commands {

    private Commands() {}

    /** Runs the command in the directory, waits at most {@code minutes}, and returns its output (stderr merged). */
    static String run(Path dir, int minutes, String... command) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(command)
                .directory(dir.toAbsolutePath().toFile())
                .redirectErrorStream(true)
                .start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(minutes, TimeUnit.MINUTES) || p.exitValue() != 0) {
            p.destroyForcibly();
            throw new AssertionError(String.join(" ", command) + " failed: " + out);
        }
        return out;
    }

    /** The docker CLI's output lines, e.g. the ids {@code docker ps -q} lists. */
    static List<String> docker(String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of("docker"));
        command.addAll(List.of(args));
        return run(Path.of(""), 2, command.toArray(String[]::new))
                .lines()
                .filter(l -> !l.isBlank())
                .toList();
    }

    /** {@code docker rm -f} of these containers, if any. */
    static void removeContainers(List<String> ids) throws IOException, InterruptedException {
        if (!ids.isEmpty()) {
            List<String> rm = new ArrayList<>(List.of("rm", "-f"));
            rm.addAll(ids);
            docker(rm.toArray(String[]::new));
        }
    }
}
