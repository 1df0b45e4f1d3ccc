package dev.tclab.parts;

import org.junit.platform.suite.api.IncludeClassNamePatterns;
import org.junit.platform.suite.api.IncludeEngines;
import org.junit.platform.suite.api.SelectPackages;
import org.junit.platform.suite.api.Suite;

/**
 * The unit tests of the pages, the statistics and the test tools (about 75 s of the unit tests' 200), sized so that
 * both forks end together: the fork of the integration tests without a lock ends first and takes the other unit
 * tests ({@link Part5UnitTestsA}), the fork of the lock holders ends about a minute later and takes these. The User-Mode
 * Linux figures' part, which has the machine alone, waits for both.
 */
@Suite
@IncludeEngines("junit-jupiter")
@SelectPackages("dev.tclab")
@IncludeClassNamePatterns(Part6UnitTestsB.CLASSES)
public class Part6UnitTestsB extends SharesTheMachine {
    static final String CLASSES = "dev\\.tclab\\.(web|stats|testing)\\..*Test";
}
