package dev.tclab.parts;

import dev.tclab.testing.MachineLock;
import java.io.IOException;
import org.junit.platform.suite.api.AfterSuite;
import org.junit.platform.suite.api.BeforeSuite;
import org.junit.platform.suite.api.ExcludeClassNamePatterns;
import org.junit.platform.suite.api.IncludeClassNamePatterns;
import org.junit.platform.suite.api.IncludeEngines;
import org.junit.platform.suite.api.SelectPackages;
import org.junit.platform.suite.api.Suite;

/**
 * The unit tests ({@code *Test}) but those of the pages ({@link Part6WebUnitTests}), when {@code bin/test} runs them
 * beside the integration tests ({@code -Dunit-tests.in-parts=true}); {@code mvn test} runs them all in surefire, alone.
 */
@Suite
@IncludeEngines("junit-jupiter")
@SelectPackages("dev.tclab")
@IncludeClassNamePatterns(Parts.UNIT_TESTS)
@ExcludeClassNamePatterns(Part6WebUnitTests.CLASSES)
public class Part5UnitTests {

    @BeforeSuite
    static void shareTheMachine() throws IOException {
        MachineLock.share("Part5UnitTests");
    }

    @AfterSuite
    static void leaveTheMachine() throws IOException {
        MachineLock.release();
    }
}
