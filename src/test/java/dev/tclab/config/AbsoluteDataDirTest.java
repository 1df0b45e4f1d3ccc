package dev.tclab.config;

import static org.assertj.core.api.Assertions.assertThat;

import io.smallrye.config.PropertiesConfigSource;
import io.smallrye.config.SmallRyeConfig;
import io.smallrye.config.SmallRyeConfigBuilder;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;

class AbsoluteDataDirTest {

    private static final Path CWD = Path.of("").toAbsolutePath();

    private static SmallRyeConfig config(Map<String, String> properties) {
        return new SmallRyeConfigBuilder()
                .addDefaultInterceptors()
                .withInterceptors(new AbsoluteDataDir())
                .withDefaultValue("tclab.data-dir", "data")
                .withSources(new PropertiesConfigSource(properties, "test", 100))
                .build();
    }

    @Test
    void shouldResolveTheDefaultAgainstTheWorkingDirectoryInTheH2UrlToo() {
        SmallRyeConfig config = config(Map.of("url", "jdbc:h2:file:${tclab.data-dir}/tclab;WRITE_DELAY=0"));

        assertThat(config.getRawValue("tclab.data-dir"))
                .isEqualTo(CWD.resolve("data").toString());
        assertThat(config.getRawValue("url")).isEqualTo("jdbc:h2:file:" + CWD.resolve("data") + "/tclab;WRITE_DELAY=0");
    }

    @Test
    void shouldResolveAnyRelativePathAndNormaliseIt() {
        assertThat(config(Map.of("tclab.data-dir", "state/../tclab-data")).getRawValue("tclab.data-dir"))
                .isEqualTo(CWD.resolve("tclab-data").toString());
    }

    @Test
    void shouldKeepAnAbsolutePath() {
        assertThat(config(Map.of("tclab.data-dir", "/app/data")).getRawValue("tclab.data-dir"))
                .isEqualTo("/app/data");
    }

    @Test
    void shouldResolveTheActiveProfilesValue() {
        SmallRyeConfig config = new SmallRyeConfigBuilder()
                .addDefaultInterceptors()
                .withInterceptors(new AbsoluteDataDir())
                .withProfile("prod")
                .withSources(new PropertiesConfigSource(
                        Map.of("tclab.data-dir", "data", "%prod.tclab.data-dir", "prod-data"), "test", 100))
                .build();

        assertThat(config.getRawValue("tclab.data-dir"))
                .isEqualTo(CWD.resolve("prod-data").toString());
    }

    @Test
    void shouldLeaveOtherKeysAlone() {
        assertThat(config(Map.of("tclab.lessons.external-dir", "lessons")).getRawValue("tclab.lessons.external-dir"))
                .isEqualTo("lessons");
    }
}
