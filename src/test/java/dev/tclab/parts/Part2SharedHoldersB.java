package dev.tclab.parts;

import org.junit.platform.suite.api.IncludeClassNamePatterns;
import org.junit.platform.suite.api.IncludeEngines;
import org.junit.platform.suite.api.SelectPackages;
import org.junit.platform.suite.api.Suite;

/** The other half of the shared holders ({@link Part1SharedHoldersA}), of about the same length. */
@Suite
@IncludeEngines("junit-jupiter")
@SelectPackages("dev.tclab")
@IncludeClassNamePatterns(Part2SharedHoldersB.CLASSES)
public class Part2SharedHoldersB extends OneOfTheHalves {
    static final String CLASSES = ".*\\.(StatsDockerIT|ReadOrderIT|ReadmeRunCommandIT)";
}
