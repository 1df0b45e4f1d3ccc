package dev.tclab.testing;

import java.io.IOException;
import java.util.Locale;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Holds the group's {@link ForkLock} (a file under {@code test-fork-locks}, which the pom sets to one directory per
 * build), exclusive or shared as the class's {@link RunsAlone#hold()} says, from before the class's first test until
 * the class is done; forks of the same build wait on it, other builds on the machine do not. With two forks no holder
 * can starve: a fork waiting for the lock waits only while the other fork's one class runs.
 */
public class RunsAloneExtension implements BeforeAllCallback {

    @Override
    public void beforeAll(ExtensionContext context) throws IOException {
        RunsAlone alone = context.getRequiredTestClass().getAnnotation(RunsAlone.class);
        RunsAlone.Group group = alone.value();
        long since = System.nanoTime();
        ForkLock lock = ForkLock.take(
                ForkLock.ofThisBuild(group.name().toLowerCase(Locale.ROOT) + ".lock"),
                alone.hold() == RunsAlone.Hold.SHARED);
        long waitedMs = (System.nanoTime() - since) / 1_000_000;
        if (waitedMs > 1000) {
            System.out.printf(
                    "%s waited %.1f s for the %s lock, %s (another fork held it)%n",
                    context.getRequiredTestClass().getSimpleName(),
                    waitedMs / 1000.0,
                    group,
                    alone.hold().name().toLowerCase(Locale.ROOT));
        }
        // Released when the class's context closes, after its last @AfterAll.
        context.getStore(ExtensionContext.Namespace.create(RunsAloneExtension.class))
                .put(group, (AutoCloseable) lock);
    }
}
