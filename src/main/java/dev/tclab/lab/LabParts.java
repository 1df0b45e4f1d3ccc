package dev.tclab.lab;

import dev.tclab.config.TclabConfig;
import dev.tclab.runtime.LabEngine;
import dev.tclab.runtime.LabRuntime;
import java.time.InstantSource;

/**
 * What the lab service's parts (pool keeper, adoption, cull, replica sync) share: this replica's labs, the start
 * workers, the runtime and its engine, the registry, how labs are made, the clock and the lab settings.
 */
record LabParts(
        LabTable table,
        LabStarter starter,
        LabRuntime runtime,
        LabEngine engine,
        LabRegistry registry,
        LabFactory factory,
        InstantSource clock,
        TclabConfig.Lab config) {}
