package dev.tclab.config;

import static org.assertj.core.api.Assertions.assertThat;

import io.smallrye.config.WithDefault;
import java.io.IOException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Keeps docs/configuration.md and {@link TclabConfig} from drifting apart: every key the code reads has a row, every
 * {@code tclab.} row is a key the code reads, and a row's default is the code's.
 */
class ConfigurationDocTest {

    private static final Path DOC = Path.of("docs/configuration.md");
    /** A table row: the first cell holds the key in backticks, the second the default. */
    private static final Pattern ROW = Pattern.compile("^\\| `([^`]+)` \\| ([^|]*) \\|", Pattern.MULTILINE);

    private static Map<String, String> documented;

    @BeforeAll
    static void readDoc() throws IOException {
        documented = new LinkedHashMap<>();
        Matcher row = ROW.matcher(Files.readString(DOC));
        while (row.find()) {
            documented.put(row.group(1), row.group(2).trim());
        }
    }

    @Test
    void shouldDocumentEveryKeyWithTheCodesDefault() {
        Map<String, Optional<String>> keys = keysOf(TclabConfig.class, "tclab");
        assertThat(keys).isNotEmpty();
        keys.forEach((key, defaultValue) -> {
            assertThat(documented)
                    .as("docs/configuration.md has no row for %s", key)
                    .containsKey(key);
            defaultValue.ifPresent(value -> assertThat(documented.get(key))
                    .as("the default of %s in docs/configuration.md", key)
                    .isEqualTo("`" + value + "`"));
        });
    }

    @Test
    void shouldDocumentOnlyKeysTheCodeReads() {
        Map<String, Optional<String>> keys = keysOf(TclabConfig.class, "tclab");
        documented.keySet().stream()
                .filter(key -> key.startsWith("tclab."))
                .forEach(key -> assertThat(keys)
                        .as("docs/configuration.md documents %s, which TclabConfig does not read", key)
                        .containsKey(key));
    }

    /** The keys of a config mapping interface, each with its default when it has one, in declaration order. */
    private static Map<String, Optional<String>> keysOf(Class<?> mapping, String prefix) {
        Map<String, Optional<String>> keys = new LinkedHashMap<>();
        for (Method method : mapping.getDeclaredMethods()) {
            if (Modifier.isStatic(method.getModifiers()) || method.isDefault() || method.getParameterCount() > 0) {
                continue;
            }
            String key = prefix + "." + kebab(method.getName());
            Class<?> type = method.getReturnType();
            if (type.isInterface() && type.getEnclosingClass() == TclabConfig.class) {
                keys.putAll(keysOf(type, key));
            } else if (type == Map.class) {
                keys.put(key + ".\"<slug>\"", Optional.empty());
            } else {
                WithDefault value = method.getAnnotation(WithDefault.class);
                keys.put(key, Optional.ofNullable(value).map(WithDefault::value));
            }
        }
        return keys;
    }

    private static String kebab(String name) {
        return name.replaceAll("([a-z0-9])([A-Z])", "$1-$2").toLowerCase(Locale.ROOT);
    }
}
