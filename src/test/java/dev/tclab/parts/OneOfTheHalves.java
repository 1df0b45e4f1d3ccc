package dev.tclab.parts;

import dev.tclab.testing.PartLock;
import java.io.IOException;
import org.junit.platform.suite.api.AfterSuite;
import org.junit.platform.suite.api.BeforeSuite;

/**
 * One of the two halves of the measurements lock's shared holders ({@link Part1SharedHoldersA},
 * {@link Part2SharedHoldersB}): it shares {@link PartLock#HALVES} from its start to its end, so that the part of the
 * other holders ({@link Part3LockHolders}) starts its classes only when both halves have ended.
 */
abstract class OneOfTheHalves extends SharesTheMachine {

    @BeforeSuite
    static void startTheHalf() throws IOException {
        PartLock.HALVES.share("the half");
    }

    @AfterSuite
    static void endTheHalf() throws IOException {
        PartLock.HALVES.release();
    }
}
