package dev.tclab.common;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import java.time.InstantSource;

/** The clock the app reads the time from: the system's; tests put one they move in its place. */
@ApplicationScoped
public class Clocks {

    @Produces
    @Singleton
    InstantSource clock() {
        return InstantSource.system();
    }
}
