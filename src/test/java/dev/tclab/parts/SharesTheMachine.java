package dev.tclab.parts;

import dev.tclab.testing.PartLock;
import java.io.IOException;
import org.junit.platform.suite.api.AfterSuite;
import org.junit.platform.suite.api.BeforeSuite;

/**
 * A part that shares the machine with the other fork's part from its start to its end ({@link PartLock#MACHINE}), so
 * that the User-Mode Linux figures' part ({@link Part7UmlFigures}), which has it alone, waits for it.
 */
abstract class SharesTheMachine {

    @BeforeSuite
    static void shareTheMachine() throws IOException {
        PartLock.MACHINE.share("the part");
    }

    @AfterSuite
    static void leaveTheMachine() throws IOException {
        PartLock.MACHINE.release();
    }
}
