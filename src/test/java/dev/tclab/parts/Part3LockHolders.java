package dev.tclab.parts;

import dev.tclab.testing.PartLock;
import java.io.IOException;
import org.junit.platform.suite.api.BeforeSuite;
import org.junit.platform.suite.api.ExcludeClassNamePatterns;
import org.junit.platform.suite.api.ExcludeTags;
import org.junit.platform.suite.api.IncludeClassNamePatterns;
import org.junit.platform.suite.api.IncludeEngines;
import org.junit.platform.suite.api.IncludeTags;
import org.junit.platform.suite.api.SelectPackages;
import org.junit.platform.suite.api.Suite;

/**
 * Every other integration test that holds the measurements lock ({@code @RunsAlone}): the exclusive holders, and a
 * shared one that neither half names, but for those that hold figures measured in User-Mode Linux labs
 * ({@link Part7UmlFigures}). They take turns on the lock anyway, so one fork runs them in a row while the other runs
 * the integration tests that need no lock ({@link Part4OtherIntegrationTests}). They start when both halves have
 * ended ({@link PartLock#HALVES}): the one that ends first hands its fork this part while the other still runs.
 */
@Suite
@IncludeEngines("junit-jupiter")
@SelectPackages("dev.tclab")
@IncludeTags(Parts.RUNS_ALONE)
@IncludeClassNamePatterns(Parts.INTEGRATION_TESTS)
@ExcludeTags(Parts.UML_FIGURES)
@ExcludeClassNamePatterns({Part1SharedHoldersA.CLASSES, Part2SharedHoldersB.CLASSES, Parts.OWN_PROFILE_INTEGRATION_TESTS
})
public class Part3LockHolders extends SharesTheMachine {

    @BeforeSuite
    static void waitForTheHalves() throws IOException {
        PartLock.HALVES.awaitFree("Part3LockHolders");
    }
}
