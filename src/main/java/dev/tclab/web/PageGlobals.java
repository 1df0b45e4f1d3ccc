package dev.tclab.web;

import dev.tclab.system.SystemStatus;
import io.quarkus.arc.Arc;
import io.quarkus.qute.TemplateGlobal;

/** Values every page's shared layout shows. */
@TemplateGlobal
public final class PageGlobals {

    private PageGlobals() {}

    /** What stops labs from starting right now (Docker down, image missing), or null when labs can start. */
    static String systemProblem() {
        return Arc.container().instance(SystemStatus.class).get().snapshot().problem();
    }
}
