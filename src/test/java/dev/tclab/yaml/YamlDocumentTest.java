package dev.tclab.yaml;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import org.junit.jupiter.api.Test;

class YamlDocumentTest {

    private static final String LAB = """
            name: x
            topology:
              nodes:
                client:
                  exec:
                    - ip link
                    - ip addr
            """;

    @Test
    void shouldKnowTheFileLineOfEveryValueAndKeyByPointer() throws YamlException {
        YamlDocument doc = YamlDocument.parse("lab.yml", "this file", LAB, 10);
        assertThat(doc.line("/name")).isEqualTo(10);
        assertThat(doc.keyLine("/topology/nodes/client")).isEqualTo(13);
        assertThat(doc.line("/topology/nodes/client/exec/1")).isEqualTo(16);
        assertThat(doc.line("/topology/nodes/client/exec/7"))
                .as("a missing value: its nearest parent's line")
                .isEqualTo(15);
        assertThat(doc.field("/topology/nodes/client/exec/1")).isEqualTo("topology.nodes.client.exec[1]");
        assertThat(doc.problem("/topology/nodes/client/exec/1", "bad").toString())
                .isEqualTo("lab.yml:16: topology.nodes.client.exec[1]: bad");
    }

    @Test
    void shouldRefuseAKeyGivenTwiceAndAnAliasWithTheirLines() {
        List<FileProblem> twice = assertThrows(
                        YamlException.class,
                        () -> YamlDocument.parse(
                                "f.md", "the check block", "retries: 1\ninterval: 1s\nretries: 2\n", 5))
                .problems();
        assertThat(twice)
                .extracting(FileProblem::toString)
                .containsExactly("f.md:7: the check block has the key 'retries' twice (first on line 5); keep one");
        List<FileProblem> alias = assertThrows(
                        YamlException.class, () -> YamlDocument.parse("f.md", "front matter", "a: &x 1\nb: *x\n", 2))
                .problems();
        assertThat(alias.get(0).toString()).startsWith("f.md:3: front matter uses the alias '*x'");
    }

    @Test
    void shouldReadTypedScalarsAndEmptyValuesAsNothing() throws YamlException {
        YamlDocument doc = YamlDocument.parse("f", "x", "a: 0x10\nb: 2.50\nc:\nd: yes\ne: \"\"\n", 1);
        assertThat(doc.at("/a").intValue()).isEqualTo(16);
        assertThat(doc.at("/b").asText()).as("the decimal as written").isEqualTo("2.50");
        assertThat(doc.at("/c").isNull()).isTrue();
        assertThat(doc.at("/d").booleanValue()).isTrue();
        assertThat(doc.at("/e").isTextual())
                .as("a quoted empty text stays text")
                .isTrue();
    }
}
