package dev.tclab.testing;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code @RunsAlone}'s lock between real processes, as failsafe's forks take it: shared holders at once, an exclusive
 * one alone, each waiting until what it cannot run beside has ended.
 */
class ForkLockTest {

    /** Long enough for a JVM to start on a loaded machine. */
    private static final Duration START = Duration.ofSeconds(60);

    /** How long a fork that must wait is watched not to get the lock, after it asked for it. */
    private static final Duration WATCHED = Duration.ofSeconds(2);

    @TempDir
    Path dir;

    private final List<Fork> forks = new ArrayList<>();

    @AfterEach
    void endForks() {
        forks.forEach(f -> f.process.destroyForcibly());
    }

    @Test
    void shouldLetSharedHoldersMeetAndKeepAnExclusiveOneApartFromThem() throws Exception {
        Path file = dir.resolve("measurements.lock");
        Fork first = fork(file, "shared");
        Fork second = fork(file, "shared");
        first.awaitHeld();
        second.awaitHeld();

        Fork exclusive = fork(file, "exclusive");
        exclusive.assertWaiting("an exclusive holder while two shared ones hold it");
        first.end();
        exclusive.assertWaiting("an exclusive holder while one shared one still holds it");
        second.end();
        exclusive.awaitHeld();

        Fork shared = fork(file, "shared");
        Fork other = fork(file, "exclusive");
        shared.assertWaiting("a shared holder while an exclusive one holds it");
        other.assertWaiting("a second exclusive holder while the first holds it");
        exclusive.end();
        // Either may go first, never both at once.
        CompletableFuture.anyOf(shared.held, other.held).get(START.toSeconds(), TimeUnit.SECONDS);
        Fork went = shared.held.isDone() ? shared : other;
        Fork waits = went == shared ? other : shared;
        waits.assertWaiting("the other of a shared and an exclusive holder while the first holds it");
        went.end();
        waits.awaitHeld();
    }

    @Test
    void shouldReleaseTheLockOfAForkThatDies() throws Exception {
        Path file = dir.resolve("measurements.lock");
        Fork dying = fork(file, "exclusive");
        dying.awaitHeld();
        Fork next = fork(file, "exclusive");
        next.assertWaiting("an exclusive holder while the first holds it");
        dying.process.destroyForcibly().waitFor();
        next.awaitHeld();
    }

    private Fork fork(Path file, String hold) throws IOException {
        Process process = new ProcessBuilder(
                        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                        "-cp",
                        System.getProperty("java.class.path"),
                        ForkLock.class.getName(),
                        file.toString(),
                        hold)
                .redirectError(ProcessBuilder.Redirect.INHERIT)
                .start();
        Fork fork = new Fork(process);
        forks.add(fork);
        return fork;
    }

    /** A process taking the lock, and what it said so far. */
    private static final class Fork {
        final Process process;
        final CompletableFuture<Void> taking = new CompletableFuture<>();
        final CompletableFuture<Void> held = new CompletableFuture<>();

        Fork(Process process) {
            this.process = process;
            Thread reader = new Thread(() -> {
                try (BufferedReader out =
                        new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                    for (String line; (line = out.readLine()) != null; ) {
                        if (line.equals("taking")) {
                            taking.complete(null);
                        } else if (line.equals("held")) {
                            held.complete(null);
                        }
                    }
                } catch (IOException e) {
                    held.completeExceptionally(e);
                }
            });
            reader.setDaemon(true);
            reader.start();
        }

        void awaitHeld() throws Exception {
            held.get(START.toSeconds(), TimeUnit.SECONDS);
        }

        /** The fork asked for the lock and has not got it {@link #WATCHED} later. */
        void assertWaiting(String who) throws Exception {
            taking.get(START.toSeconds(), TimeUnit.SECONDS);
            // Watching for what must not happen: a slow machine can only make this miss a wrong grant, never fail.
            Thread.sleep(WATCHED.toMillis());
            assertThat(held).as(who + " waits").isNotDone();
        }

        /** Ends the fork (its input closed, so it releases the lock and exits) and waits until it has. */
        void end() throws Exception {
            process.getOutputStream().close();
            assertThat(process.waitFor(START.toSeconds(), TimeUnit.SECONDS))
                    .as("the fork ended")
                    .isTrue();
        }
    }
}
