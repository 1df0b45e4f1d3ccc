package dev.tclab.parts;

import dev.tclab.testing.PartLock;
import java.io.IOException;
import org.junit.platform.suite.api.AfterSuite;
import org.junit.platform.suite.api.BeforeSuite;
import org.junit.platform.suite.api.ExcludeClassNamePatterns;
import org.junit.platform.suite.api.IncludeClassNamePatterns;
import org.junit.platform.suite.api.IncludeEngines;
import org.junit.platform.suite.api.IncludeTags;
import org.junit.platform.suite.api.SelectPackages;
import org.junit.platform.suite.api.Suite;

/**
 * The classes that hold figures measured in User-Mode Linux labs ({@code @UmlFigures}), last and alone: a UML lab's
 * throughput is what the host's CPU leaves its kernel, so this part waits until every other part is done
 * ({@link PartLock#MACHINE}). Beside the integration tests without a lock, a 48 Mbit/s HTB class carried 43.3 Mbit/s in
 * UML (45.8 alone) and bufferbloat-download's 18 Mbit/s CAKE shaper 14.1 Mbit/s, under its check's floor; beside the
 * unit tests, a 90 Mbit/s HTB class 81.3 Mbit/s, at its floor. With the machine to itself, two UML labs at once (one
 * kernel per core, as two learners of a class on two cores) read what one alone does, so
 * {@code UmlLessonsSelfTestIT} runs its lessons in two lanes.
 */
@Suite
@IncludeEngines("junit-jupiter")
@SelectPackages("dev.tclab")
@IncludeTags(Parts.UML_FIGURES)
@IncludeClassNamePatterns(Parts.INTEGRATION_TESTS)
@ExcludeClassNamePatterns(Parts.OWN_PROFILE_INTEGRATION_TESTS)
public class Part7UmlFigures {

    @BeforeSuite
    static void haveTheMachineAlone() throws IOException {
        PartLock.MACHINE.haveAlone("Part7UmlFigures");
    }

    @AfterSuite
    static void leaveTheMachine() throws IOException {
        PartLock.MACHINE.release();
    }
}
