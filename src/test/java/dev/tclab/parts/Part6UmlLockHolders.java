package dev.tclab.parts;

import org.junit.platform.suite.api.IncludeClassNamePatterns;
import org.junit.platform.suite.api.IncludeEngines;
import org.junit.platform.suite.api.IncludeTags;
import org.junit.platform.suite.api.SelectPackages;
import org.junit.platform.suite.api.Suite;

/**
 * The lock holders whose labs run User-Mode Linux, last: a UML lab's throughput is what the host's CPU gives its
 * kernel, and the parts before this one leave the other fork only the unit tests to run beside it, which start no
 * containers (a 48 Mbit/s HTB class carried 43.3 Mbit/s in UML beside the integration tests without a lock, against
 * 45.8 alone).
 */
@Suite
@IncludeEngines("junit-jupiter")
@SelectPackages("dev.tclab")
@IncludeTags(Parts.RUNS_ALONE)
@IncludeClassNamePatterns(Parts.UML_INTEGRATION_TESTS)
public class Part6UmlLockHolders {}
