package dev.tclab.testing;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Locale;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Holds a lock on the group's file (under {@code test-fork-locks}, which the pom sets to one directory per build),
 * exclusive or shared as the class's {@link RunsAlone#hold()} says, from before the class's first test until the class
 * is done; forks of the same build wait on it, other builds on the machine do not. The lock is the operating system's
 * (a POSIX record lock: shared readers, one writer), so a fork that dies releases it. With two forks no holder can
 * starve: a fork waiting for the lock stays waiting only while the other fork's one class runs.
 */
public class RunsAloneExtension implements BeforeAllCallback {

    @Override
    public void beforeAll(ExtensionContext context) throws IOException {
        RunsAlone alone = context.getRequiredTestClass().getAnnotation(RunsAlone.class);
        RunsAlone.Group group = alone.value();
        boolean shared = alone.hold() == RunsAlone.Hold.SHARED;
        Path dir = Path.of(System.getProperty("test-fork-locks", "target/fork-locks"));
        Files.createDirectories(dir);
        FileChannel channel = FileChannel.open(
                dir.resolve(group.name().toLowerCase(Locale.ROOT) + ".lock"),
                StandardOpenOption.CREATE,
                // A shared lock needs a channel open for reading, an exclusive one for writing.
                StandardOpenOption.READ,
                StandardOpenOption.WRITE);
        long since = System.nanoTime();
        FileLock lock = channel.lock(0, Long.MAX_VALUE, shared);
        long waitedMs = (System.nanoTime() - since) / 1_000_000;
        if (waitedMs > 1000) {
            System.out.printf(
                    "%s waited %.1f s for the %s lock, %s (another fork held it)%n",
                    context.getRequiredTestClass().getSimpleName(),
                    waitedMs / 1000.0,
                    group,
                    alone.hold().name().toLowerCase(Locale.ROOT));
        }
        // Released (and the channel closed) when the class's context closes, after its last @AfterAll.
        context.getStore(ExtensionContext.Namespace.create(RunsAloneExtension.class))
                .put(group, (AutoCloseable) () -> {
                    lock.release();
                    channel.close();
                });
    }
}
