package dev.tclab.grading.spec;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.networknt.schema.Error;
import com.networknt.schema.InputFormat;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import com.networknt.schema.serialization.NodeReader;
import com.networknt.schema.utils.JsonNodes;
import dev.tclab.yaml.PublishedSchema;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The published schema (docs/schema/check.schema.json, for authors' editors) accepts every built-in lesson's checks
 * and reports every structural problem of a bad one at once, each at its line.
 */
class CheckSchemaTest {

    private static final Path SCHEMA = Path.of("docs/schema/check.schema.json");
    private static final Pattern CHECK_BLOCK = Pattern.compile("(?s)```check\\n(.*?)```");
    private static final Pattern PARAMETER = Pattern.compile("\\{\\{\\s*[A-Za-z0-9_-]+\\s*}}");
    private static final NodeReader READER =
            NodeReader.builder().locationAware().build();

    private static Schema schema() throws IOException {
        return SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12)
                .getSchema(Files.readString(SCHEMA), InputFormat.JSON);
    }

    /** Problems as "line: location: message", lines counted from 1 in {@code yaml}. */
    private static List<String> problems(String yaml) throws IOException {
        JsonNode tree = READER.readTree(yaml, InputFormat.YAML);
        List<String> out = new ArrayList<>();
        for (Error e : schema().validate(tree)) {
            int line = JsonNodes.tokenStreamLocationOf(e.getInstanceNode()).getLineNr();
            out.add(line + ": " + e.getInstanceLocation() + ": " + e.getMessage());
        }
        return out;
    }

    @Test
    void shouldAcceptEveryBuiltInLessonsChecks() throws IOException {
        List<Path> steps;
        try (Stream<Path> files = Files.walk(Path.of("src/main/resources/lessons"))) {
            steps = files.filter(p -> p.toString().endsWith(".md")).sorted().toList();
        }
        int checks = 0;
        for (Path step : steps) {
            Matcher m = CHECK_BLOCK.matcher(Files.readString(step));
            while (m.find()) {
                checks++;
                // Parameters are substituted before a check is read; any number stands in for one here.
                String yaml = PARAMETER.matcher(m.group(1)).replaceAll("1");
                assertThat(problems(yaml)).as(step + ":\n" + yaml).isEmpty();
            }
        }
        assertThat(checks).as("checks found in the built-in lessons").isGreaterThan(5);
    }

    @Test
    void shouldReportEveryProblemOfABadCheckAtOnceWithItsLine() throws IOException {
        List<String> problems = problems("""
                measure:
                  - name: up
                    node: client
                    iperf3: { server: 10.0.0.2, seconds: 99, port: 80 }
                  - name: lat
                    node: client
                    ping: { target: 10.0.0.2, count: many }
                expect:
                  - { value: up.mbps, near: 10mbit }
                retries: 20
                """);
        assertThat(problems).anyMatch(p -> p.startsWith("4: ") && p.contains("seconds"));
        assertThat(problems).anyMatch(p -> p.startsWith("4: ") && p.contains("port"));
        assertThat(problems).anyMatch(p -> p.startsWith("7: ") && p.contains("count"));
        assertThat(problems).anyMatch(p -> p.startsWith("10: ") && p.contains("retries"));
    }

    @Test
    void shouldDescribeFlowsAndCountersOverALoad() throws IOException {
        assertThat(problems("""
                measure:
                  - name: share
                    node: client
                    iperf3: { server: 10.0.0.2, seconds: 6, flows: { a: { tos: 0x10 }, b: { port: 5002, dscp: AF41 } } }
                  - { name: c, node: client, classes: { dev: eth1 }, over: share }
                expect:
                  - { value: share.flows.a.mbps, near: 3mbit, within: 15% }
                  - { value: "c.by_id[1:10].delta.bytes", above: 1mb }
                """)).isEmpty();
        assertThat(problems("""
                measure:
                  - { name: up, node: c, iperf3: { server: 10.0.0.2, flows: { a: { colour: red } } } }
                """)).anyMatch(p -> p.startsWith("2: ") && p.contains("colour"));
    }

    @Test
    void shouldBindExactlyTheKeysTheSchemaAllows() {
        PublishedSchema schema = new PublishedSchema("check.schema.json");
        assertThat(PublishedSchema.boundKeys(CheckSpecParser.CheckFile.class)).isEqualTo(schema.keys(""));
        Set<String> assertionKeys = new TreeSet<>();
        for (int i = 0; i < 3; i++) {
            assertionKeys.addAll(schema.keys("/$defs/assertion/oneOf/" + i));
        }
        assertThat(PublishedSchema.boundKeys(CheckSpecParser.AssertionFile.class))
                .isEqualTo(assertionKeys);
        Set<String> entryKeys = new TreeSet<>(PublishedSchema.boundKeys(Measurement.Common.class));
        for (Measurement.Kind<?> kind : Measurement.KINDS) {
            entryKeys.add(kind.key());
            if (kind.beside()) {
                entryKeys.addAll(PublishedSchema.boundKeys(kind.options()));
            } else {
                assertThat(PublishedSchema.boundKeys(kind.options()))
                        .as(kind.key())
                        .isEqualTo(schema.keys(optionsPointer(schema, kind.key())));
            }
        }
        assertThat(entryKeys).isEqualTo(schema.keys("/$defs/measurement"));
        assertThat(PublishedSchema.boundKeys(Iperf3Measurement.FlowOptions.class))
                .isEqualTo(schema.keys("/$defs/iperf3/properties/flows/additionalProperties/oneOf/1"));
    }

    /** Where a kind's options mapping is described: its property, followed through a $ref or a null-or-object oneOf. */
    private static String optionsPointer(PublishedSchema schema, String kind) {
        String pointer = "/$defs/measurement/properties/" + kind;
        JsonNode property = schema.at(pointer);
        JsonNode alternatives = property.path("oneOf");
        for (int i = 0; i < alternatives.size(); i++) {
            if (!"null".equals(alternatives.get(i).path("type").asText())) {
                pointer = pointer + "/oneOf/" + i;
                property = alternatives.get(i);
            }
        }
        return property.has("$ref") ? property.get("$ref").asText().substring(1) : pointer;
    }
}
