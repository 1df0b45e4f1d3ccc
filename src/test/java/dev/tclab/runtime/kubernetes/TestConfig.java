package dev.tclab.runtime.kubernetes;

import dev.tclab.config.TclabConfig;
import io.quarkus.runtime.configuration.DurationConverter;
import io.smallrye.config.PropertiesConfigSource;
import io.smallrye.config.SmallRyeConfigBuilder;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

/** The app's configuration mapping with its defaults and the given settings, for tests that run without Quarkus. */
final class TestConfig {

    private TestConfig() {}

    static TclabConfig tclab(Map<String, String> settings) {
        Map<String, String> all = new HashMap<>(Map.of(
                "tclab.runtime", "kubernetes", "tclab.instance", "tclab-test", "tclab.lab.start-timeout", "20s"));
        all.putAll(settings);
        return new SmallRyeConfigBuilder()
                .withMapping(TclabConfig.class)
                .withConverter(Duration.class, 200, new DurationConverter())
                .withSources(new PropertiesConfigSource(all, "test", 500))
                .build()
                .getConfigMapping(TclabConfig.class);
    }
}
