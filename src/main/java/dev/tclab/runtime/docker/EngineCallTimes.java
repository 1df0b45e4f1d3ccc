package dev.tclab.runtime.docker;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.util.function.Supplier;

/**
 * Times a lab start's calls to the engine by kind, at /q/metrics as {@code tclab_engine_call_seconds{call=...}}: how
 * many of each a lab costs and how long each took, which in a class's burst is mostly the engine's queue. Measured
 * for operators and for the class benchmark, which reads it beside its floor; no answer depends on it.
 */
final class EngineCallTimes {

    /** A container's create, start or inspect: one API call each. */
    static final String CREATE = "create";

    static final String START = "start";
    static final String INSPECT = "inspect";
    /** A node's setup by its main process ({@link NodeSetup}): attached, told to run, until it answered. */
    static final String ATTACH = "attach";

    private final MeterRegistry registry;

    EngineCallTimes(MeterRegistry registry) {
        this.registry = registry;
    }

    <T> T time(String call, Supplier<T> body) {
        return Timer.builder("tclab.engine.call")
                .description("Calls to the container engine made by lab starts, by kind")
                .tag("call", call)
                .register(registry)
                .record(body);
    }
}
