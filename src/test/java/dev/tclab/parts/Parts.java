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

    private Parts() {}
}
