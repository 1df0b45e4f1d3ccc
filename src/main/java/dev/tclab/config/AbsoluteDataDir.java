package dev.tclab.config;

import io.smallrye.config.ConfigSourceInterceptor;
import io.smallrye.config.ConfigSourceInterceptorContext;
import io.smallrye.config.ConfigValue;
import io.smallrye.config.Priorities;
import jakarta.annotation.Priority;
import java.nio.file.Path;

/**
 * Resolves {@code tclab.data-dir} against the working directory, so every reader of it (the H2 URL that
 * application.properties builds from it, and {@link TclabConfig#dataDir()}) gets an absolute path: H2 refuses a
 * path that is implicitly relative, and the default {@code data} is one. Its priority puts it between SmallRye's
 * profile interceptor (LIBRARY + 200) and its expression interceptor (LIBRARY + 300): it sees the value of the
 * active profile, and the expansion of {@code ${tclab.data-dir}} in another key goes through it too (an expression
 * resolves its parts with the interceptors below its own). A value that is itself an expression (e.g.
 * {@code ${HOME}/tclab}) is left as it is: it is expanded only above this interceptor.
 */
@Priority(Priorities.LIBRARY + 280)
public class AbsoluteDataDir implements ConfigSourceInterceptor {

    static final String KEY = "tclab.data-dir";

    @Override
    public ConfigValue getValue(ConfigSourceInterceptorContext context, String name) {
        ConfigValue value = context.proceed(name);
        if (!KEY.equals(name)
                || value == null
                || value.getValue() == null
                || value.getValue().isBlank()
                || value.getValue().contains("${")) {
            return value;
        }
        return value.withValue(absolute(value.getValue()));
    }

    static String absolute(String dataDir) {
        return Path.of(dataDir).toAbsolutePath().normalize().toString();
    }
}
