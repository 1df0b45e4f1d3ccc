package dev.tclab.testing;

import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The test class runs while no class that {@linkplain Hold#EXCLUSIVE holds} the same {@linkplain #value() group}
 * exclusively runs in any other fork of this build: the suite's integration tests run in parallel JVMs (see the pom's
 * failsafe {@code forkCount}), and a group is a resource that a class must have to itself, or share only with classes
 * that cannot skew it, for its assertions to mean what they say (docs/testing.md).
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Inherited
@ExtendWith(RunsAloneExtension.class)
@Tag(RunsAlone.TAG)
public @interface RunsAlone {

    /** The tag every holder carries, which the suite's parts select by (dev.tclab.parts). */
    String TAG = "runs-alone";

    /** What the class needs; one lock file per group. */
    Group value();

    /** Whether the class has the group to itself or shares it with other {@link Hold#SHARED} holders. */
    Hold hold() default Hold.EXCLUSIVE;

    enum Group {
        /**
         * The class asserts measured rates or latencies (iperf3 verdicts, ping under load, counters' rates): a
         * measurement in another fork would share the machine's cores and skew the figures it holds to a tolerance.
         * Classes that load the machine enough to skew a measurement (a build, an image build, a second engine, a fork
         * bomb, User-Mode Linux labs) hold it too.
         */
        MEASUREMENTS
    }

    /** A read/write lock: any number of shared holders at once, or one exclusive holder alone. */
    enum Hold {
        /**
         * Nothing else of the group runs meanwhile: the class's figures are ones that load breaks (a line-rate flow,
         * a latency held to an upper bound, User-Mode Linux throughput, which the host's CPU bounds), or it loads
         * the machine and holds such figures itself.
         */
        EXCLUSIVE,
        /**
         * Runs beside other shared holders, never beside an exclusive one: the class loads the machine (a flood, an
         * image build) or measures, but only what load cannot move (shaped rates far under what a core
         * carries, verdicts, ratios of two readings of the same flow), so it may meet another such class, not a
         * class whose figures it would skew.
         */
        SHARED
    }
}
