package dev.tclab.bench;

import dev.tclab.runtime.agent.UmlScripts;
import dev.tclab.testing.UmlKernelRun;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

/**
 * The floor of a UML lab's start: the docker CLI's {@code docker run} of the UML lab image with a UML lab's container
 * settings and the runtime's kernel command line, whose init prints one line and powers the kernel off; timed to that
 * line (the kernel is up and runs a program), the moment before which no UML lab can do anything.
 */
final class UmlBootFloor {

    private static final String UP = "tclab-kernel-up";
    /** Prints, then powers the kernel off (the container ends). */
    private static final String INIT = "#!/bin/sh\necho " + UP + "\n" + UmlKernelRun.POWER_OFF;

    private final String image;
    private final int memoryMib;

    UmlBootFloor(String image, int memoryMib) {
        this.image = image;
        this.memoryMib = memoryMib;
    }

    /** Milliseconds from {@code docker run} to the init's line; waits for the container to end. */
    double millis() {
        List<String> command = UmlKernelRun.command(
                "tclab-bench-boot-" + UUID.randomUUID().toString().substring(0, 8),
                "tclab-benchmark",
                image,
                memoryMib,
                Map.of("TCLAB_INIT", INIT),
                "printf %s \"$TCLAB_INIT\" >/tclab/init && chmod 555 /tclab/init && exec "
                        + UmlScripts.kernel(memoryMib, "/tclab/init"));
        try {
            long t0 = System.nanoTime();
            // Standard input stays open until the end: the kernel's console hangs up on its end of file.
            Process process = new ProcessBuilder(command)
                    .redirectError(ProcessBuilder.Redirect.DISCARD)
                    .start();
            long up = -1;
            try (BufferedReader out =
                    new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.ISO_8859_1))) {
                String line;
                while ((line = out.readLine()) != null) {
                    if (line.contains(UP) && up < 0) {
                        up = System.nanoTime();
                    }
                }
            }
            if (!process.waitFor(60, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new IllegalStateException("the floor's kernel did not power off within 60 s");
            }
            if (up < 0) {
                throw new IllegalStateException("the floor's kernel never ran its init: " + String.join(" ", command));
            }
            return (up - t0) / 1e6;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
