package dev.tclab.grading.run;

import dev.tclab.grading.spec.Measure;
import java.util.Map;

/** Values a check recorded ({@code record:}) for later steps of the same lab ({@code ratio_to: baseline.x}). */
public interface BaselineStore {

    void record(String labId, String name, Measure value);

    /** Every value recorded in the lab, by name; empty when none. */
    Map<String, Measure> all(String labId);

    /** Drops a lab's values (when the lab stops). */
    void forget(String labId);
}
