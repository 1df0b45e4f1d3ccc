package dev.tclab.parts;

import org.junit.platform.suite.api.ExcludeClassNamePatterns;
import org.junit.platform.suite.api.IncludeClassNamePatterns;
import org.junit.platform.suite.api.IncludeEngines;
import org.junit.platform.suite.api.SelectPackages;
import org.junit.platform.suite.api.Suite;

/**
 * Most unit tests ({@code *Test}), when {@code bin/test} runs them beside the integration tests
 * ({@code -Dunit-tests.in-parts=true}); {@code mvn test} runs them all in surefire, alone. The rest are
 * {@link Part6UnitTestsB}'s.
 */
@Suite
@IncludeEngines("junit-jupiter")
@SelectPackages("dev.tclab")
@IncludeClassNamePatterns(Parts.UNIT_TESTS)
@ExcludeClassNamePatterns(Part6UnitTestsB.CLASSES)
public class Part5UnitTestsA extends SharesTheMachine {}
