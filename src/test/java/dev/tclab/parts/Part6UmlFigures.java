package dev.tclab.parts;

import org.junit.platform.suite.api.IncludeClassNamePatterns;
import org.junit.platform.suite.api.IncludeEngines;
import org.junit.platform.suite.api.IncludeTags;
import org.junit.platform.suite.api.SelectPackages;
import org.junit.platform.suite.api.Suite;

/**
 * The classes that hold figures measured in User-Mode Linux labs ({@code @UmlFigures}), last: a UML lab's throughput
 * is what the host's CPU gives its kernel, and the parts before this one leave the other fork only the unit tests to run beside it, which
 * start no containers. Beside the integration tests without a lock, a 48 Mbit/s HTB class carried 43.3 Mbit/s in UML
 * (45.8 alone), and bufferbloat-download's 18 Mbit/s CAKE shaper 14.1 Mbit/s, under its check's floor.
 */
@Suite
@IncludeEngines("junit-jupiter")
@SelectPackages("dev.tclab")
@IncludeTags(Parts.UML_FIGURES)
@IncludeClassNamePatterns(Parts.INTEGRATION_TESTS)
public class Part6UmlFigures {}
