package dev.tclab.testing;

import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.Tag;

/**
 * The class holds rates or delays measured in User-Mode Linux labs (a UML runtime, or a lesson with
 * {@code kernel: auto} on a host without its qdiscs) to a check's tolerance. A UML lab is one kernel on one core, so
 * what it carries is what the host's CPU gives it: the suite runs such classes in a part of their own, last, alone on
 * the machine (dev.tclab.parts, docs/testing.md). A class whose UML figures load cannot move (a minimum round trip,
 * a rate far under a check's wide bounds) needs only the measurements lock.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Inherited
@Tag(UmlFigures.TAG)
public @interface UmlFigures {

    /** The tag the suite's parts select by. */
    String TAG = "uml-figures";
}
