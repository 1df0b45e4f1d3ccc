package dev.tclab.testing;

import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The test class runs while no other class of the same {@linkplain #value() group} runs in any other fork of this
 * build: the suite's integration tests run in parallel JVMs (see the pom's failsafe {@code forkCount}), and a group
 * is a resource that a class must have to itself for its assertions to mean what they say (docs/testing.md).
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Inherited
@ExtendWith(RunsAloneExtension.class)
public @interface RunsAlone {

    /** What the class needs to itself; one lock file per group. */
    Group value();

    enum Group {
        /**
         * The class asserts measured rates or latencies (iperf3 verdicts, ping under load, counters' rates): a
         * measurement in another fork would share the machine's cores and skew the figures it holds to a tolerance.
         * Classes that load the machine enough to skew a measurement (a build, an image build, a second engine, a fork
         * bomb, User-Mode Linux labs) hold it too.
         */
        MEASUREMENTS
    }
}
