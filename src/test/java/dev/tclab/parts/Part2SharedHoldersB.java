package dev.tclab.parts;

import dev.tclab.testing.MachineLock;
import java.io.IOException;
import org.junit.platform.suite.api.AfterSuite;
import org.junit.platform.suite.api.BeforeSuite;
import org.junit.platform.suite.api.IncludeClassNamePatterns;
import org.junit.platform.suite.api.IncludeEngines;
import org.junit.platform.suite.api.SelectPackages;
import org.junit.platform.suite.api.Suite;

/** The other half of the shared holders ({@link Part1SharedHoldersA}), of about the same length. */
@Suite
@IncludeEngines("junit-jupiter")
@SelectPackages("dev.tclab")
@IncludeClassNamePatterns(Part2SharedHoldersB.CLASSES)
public class Part2SharedHoldersB {
    static final String CLASSES = ".*\\.(StatsDockerIT|ReadOrderIT|ReadmeRunCommandIT)";

    @BeforeSuite
    static void shareTheMachine() throws IOException {
        MachineLock.share("Part2SharedHoldersB");
    }

    @AfterSuite
    static void leaveTheMachine() throws IOException {
        MachineLock.release();
    }
}
