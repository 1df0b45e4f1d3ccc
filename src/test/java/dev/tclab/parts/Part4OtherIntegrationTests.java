package dev.tclab.parts;

import org.junit.platform.suite.api.ExcludeTags;
import org.junit.platform.suite.api.IncludeClassNamePatterns;
import org.junit.platform.suite.api.IncludeEngines;
import org.junit.platform.suite.api.SelectPackages;
import org.junit.platform.suite.api.Suite;

/** The integration tests that hold no lock and no UML figures: they may run beside any class (docs/testing.md). */
@Suite
@IncludeEngines("junit-jupiter")
@SelectPackages("dev.tclab")
@ExcludeTags({Parts.RUNS_ALONE, Parts.UML_FIGURES})
@IncludeClassNamePatterns(Parts.INTEGRATION_TESTS)
public class Part4OtherIntegrationTests extends SharesTheMachine {}
