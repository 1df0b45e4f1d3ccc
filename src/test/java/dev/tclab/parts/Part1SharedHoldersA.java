package dev.tclab.parts;

import org.junit.platform.suite.api.IncludeClassNamePatterns;
import org.junit.platform.suite.api.IncludeEngines;
import org.junit.platform.suite.api.SelectPackages;
import org.junit.platform.suite.api.Suite;

/**
 * Half of the classes that hold the measurements lock shared, run first while the other fork runs the other half
 * ({@link Part2SharedHoldersB}): shared holders may meet each other, never an exclusive one, so they pair up at the
 * start instead of each waiting for the exclusive classes alone.
 */
@Suite
@IncludeEngines("junit-jupiter")
@SelectPackages("dev.tclab")
@IncludeClassNamePatterns(Part1SharedHoldersA.CLASSES)
public class Part1SharedHoldersA extends OneOfTheHalves {
    static final String CLASSES = ".*\\.(SemanticsCorpusIT|ForkBombIT|AppImageIT)";
}
