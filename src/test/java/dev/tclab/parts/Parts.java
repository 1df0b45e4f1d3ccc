package dev.tclab.parts;

import dev.tclab.testing.RunsAlone;
import dev.tclab.testing.UmlFigures;

/** What the parts select by. */
final class Parts {

    /** The classes that hold a lock of the build's forks. */
    static final String RUNS_ALONE = RunsAlone.TAG;

    /** The classes that hold figures measured in User-Mode Linux labs. */
    static final String UML_FIGURES = UmlFigures.TAG;

    static final String INTEGRATION_TESTS = ".*IT";
    static final String UNIT_TESTS = ".*Test";

    /**
     * The integration tests that need no lock and have a test profile of their own. Before a part runs anything,
     * Quarkus 3.33 builds an app for the profile of every {@code @QuarkusTest} class the part loads, and a part that
     * selects by tags loads every class its name patterns let through (quarkus#54435; later Quarkus sources skip a
     * class whose tests the tags exclude). So the parts that select lock holders by tag leave these out by name, five
     * app builds fewer in each: part 3's first class started 28 s after the part, now 2 to 3 s. {@code PartsTest}
     * checks that this names exactly those classes.
     */
    static final String OWN_PROFILE_INTEGRATION_TESTS = ".*\\.(DatabaseOutageIT|EngineRestartIT|PostgresLabRegistryIT"
            + "|PostgresStoreIT|PostgresWorkshopStoreIT|StartQueueIT|TerminalThreadsIT|WarmPoolIT)";

    private Parts() {}
}
