package dev.tclab.parts;

import dev.tclab.testing.MachineLock;
import java.io.IOException;
import org.junit.platform.suite.api.AfterSuite;
import org.junit.platform.suite.api.BeforeSuite;

/**
 * A part that shares the machine with the other fork's part from its start to its end ({@link MachineLock}), so that
 * the User-Mode Linux figures' part ({@link Part7UmlFigures}), which has it alone, waits for it.
 */
abstract class SharesTheMachine {

    @BeforeSuite
    static void shareTheMachine() throws IOException {
        MachineLock.share();
    }

    @AfterSuite
    static void leaveTheMachine() throws IOException {
        MachineLock.release();
    }
}
