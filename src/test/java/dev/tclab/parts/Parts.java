package dev.tclab.parts;

import dev.tclab.testing.RunsAlone;

/** What the parts select by. */
final class Parts {

    /** The classes that hold a lock of the build's forks. */
    static final String RUNS_ALONE = RunsAlone.TAG;

    static final String INTEGRATION_TESTS = ".*IT";
    static final String UML_INTEGRATION_TESTS = ".*\\.Uml\\w*IT";
    static final String UNIT_TESTS = ".*Test";

    private Parts() {}
}
