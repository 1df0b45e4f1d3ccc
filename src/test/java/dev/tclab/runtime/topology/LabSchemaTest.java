package dev.tclab.runtime.topology;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tclab.yaml.PublishedSchema;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The published docs/schema/lab.schema.json accepts every lab.yml TopologyParser accepts, reports every structural
 * problem of a bad one at once with its line, and allows exactly the keys the parser reads.
 */
class LabSchemaTest {

    private static final PublishedSchema SCHEMA = new PublishedSchema("lab.schema.json");

    @Test
    void shouldAcceptEveryLabTheParserAccepts() throws IOException {
        List<Path> labs = new ArrayList<>();
        for (String root :
                List.of("src/main/resources/lessons", "src/test/resources/lessons", "src/test/resources/labs")) {
            try (Stream<Path> files = Files.walk(Path.of(root))) {
                files.filter(p -> p.getFileName().toString().equals("lab.yml") || root.endsWith("labs"))
                        .filter(p -> p.toString().endsWith(".yml"))
                        .forEach(labs::add);
            }
        }
        int accepted = 0;
        for (Path lab : labs.stream().sorted().toList()) {
            String text = Files.readString(lab);
            try {
                TopologyParser.parse(lab.toString(), text);
            } catch (TopologyException e) {
                continue;
            }
            accepted++;
            assertThat(SCHEMA.problems(text)).as(lab.toString()).isEmpty();
        }
        assertThat(accepted).as("labs the parser accepts").isGreaterThanOrEqualTo(10);
    }

    @Test
    void shouldReportEveryProblemOfABadLabAtOnceWithItsLine() {
        List<String> problems = SCHEMA.problems("""
                name: Bad_Name
                topology:
                  nodes:
                    client:
                      kind: bridge
                      hidden: maybe
                      sysctls: { kernel.pid_max: 10 }
                    Server: {}
                  links:
                    - endpoints: ["client:eth1"]
                probes:
                  - { name: p, from: client, to: example.com, every: 10 }
                colour: red
                """);
        assertThat(problems).anyMatch(p -> p.startsWith("1: ") && p.contains("name"));
        assertThat(problems).anyMatch(p -> p.startsWith("5: ") && p.contains("kind"));
        assertThat(problems).anyMatch(p -> p.startsWith("6: ") && p.contains("hidden"));
        assertThat(problems).anyMatch(p -> p.contains("kernel.pid_max"));
        assertThat(problems).anyMatch(p -> p.contains("Server"));
        assertThat(problems).anyMatch(p -> p.startsWith("10: ") && p.contains("endpoints"));
        assertThat(problems).anyMatch(p -> p.startsWith("12: ") && p.contains("to"));
        assertThat(problems).anyMatch(p -> p.startsWith("12: ") && p.contains("every"));
        assertThat(problems).anyMatch(p -> p.contains("colour"));
    }

    @Test
    void shouldRefuseWhatTheParserRefusesInStatsAndProbes() {
        assertThat(SCHEMA.problems("""
                name: lab
                topology:
                  nodes:
                    gw: { stats: [lo, "eth/1"] }
                probes:
                  - { name: a, from: gw, to: 10.0.0.1 }
                  - { name: b, from: gw, to: 10.0.0.1 }
                  - { name: c, from: gw, to: 10.0.0.1 }
                  - { name: d, from: gw, to: 10.0.0.1 }
                  - { name: e, from: gw, to: 10.0.0.1 }
                """))
                .anyMatch(p -> p.startsWith("4: ") && p.contains("stats/0"))
                .anyMatch(p -> p.startsWith("4: ") && p.contains("stats/1"))
                .anyMatch(p -> p.contains("/probes:") && p.contains("4"));
    }

    /** Each of these has one problem the parser refuses; the schema must find it too (it is not looser there). */
    @Test
    void shouldRefuseEachLabTheParserRefuses() {
        String base = """
                name: lab
                topology:
                  nodes:
                    a: { exec: [ip link], stats: [eth1] }
                    b: {}
                  links:
                    - endpoints: ["a:eth1", "b:eth1"]
                probes:
                  - { name: a to b, from: a, to: 10.0.0.2, every: 200ms }
                """;
        assertThat(parserRefuses(base)).as("the base lab is good").isFalse();
        assertThat(SCHEMA.problems(base)).isEmpty();
        List<String> bad = List.of(
                base.replace("name: lab", "name: Lab"),
                base.replace("name: lab", "title: lab"),
                base + "owner: me\n",
                base.replace("b: {}", "b: { kind: bridge }"),
                base.replace("b: {}", "b: { hidden: maybe }"),
                base.replace("b: {}", "b: { sysctls: { kernel.pid_max: 10 } }"),
                base.replace("b: {}", "b: { colour: red }"),
                base.replace("b: {}", "b: { exec: ip link }"),
                base.replace("    b: {}", "    B: {}").replace("b:eth1", "B:eth1"),
                base.replace("stats: [eth1]", "stats: []"),
                base.replace("stats: [eth1]", "stats: [lo]"),
                base.replace("stats: [eth1]", "stats: [\"eth/1\"]"),
                base.replace("\"a:eth1\", \"b:eth1\"", "\"a:eth1\""),
                base.replace("\"b:eth1\"", "\"b:lo\""),
                base.replace("\"b:eth1\"", "\"b\""),
                base.replace("endpoints:", "ends:"),
                base.replace("to: 10.0.0.2", "to: b.lab"),
                base.replace("every: 200ms", "every: 200"),
                base.replace("name: a to b", "name: \"-a\""),
                base.replace(", every: 200ms", ", every: 200ms, count: 3"),
                base.replace("  nodes:\n", "  nodes: {}\n  old:\n"),
                base.replace("probes:\n", "probes:\n" + "  - { name: p, from: a, to: 10.0.0.2 }\n".repeat(4)));
        for (String lab : bad) {
            assertThat(parserRefuses(lab)).as("the parser refuses:\n" + lab).isTrue();
            assertThat(SCHEMA.problems(lab)).as("the schema refuses:\n" + lab).isNotEmpty();
        }
    }

    private static boolean parserRefuses(String lab) {
        try {
            TopologyParser.parse("lab.yml", lab);
            return false;
        } catch (TopologyException e) {
            return true;
        }
    }

    @Test
    void shouldBindExactlyTheKeysTheSchemaAllows() {
        assertThat(PublishedSchema.boundKeys(TopologyParser.LabFile.class)).isEqualTo(SCHEMA.keys(""));
        assertThat(PublishedSchema.boundKeys(TopologyParser.TopologyFile.class))
                .isEqualTo(SCHEMA.keys("/$defs/topology"));
        assertThat(PublishedSchema.boundKeys(TopologyParser.NodeFile.class)).isEqualTo(SCHEMA.keys("/$defs/node"));
        assertThat(PublishedSchema.boundKeys(TopologyParser.LinkFile.class)).isEqualTo(SCHEMA.keys("/$defs/link"));
        assertThat(PublishedSchema.boundKeys(TopologyParser.ProbeFile.class)).isEqualTo(SCHEMA.keys("/$defs/probe"));
    }

    @Test
    void shouldDescribeEveryPropertyForEditors() {
        assertThat(SCHEMA.undescribedProperties()).isEmpty();
    }
}
