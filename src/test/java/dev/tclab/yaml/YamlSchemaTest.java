package dev.tclab.yaml;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The validator's errors in an author's words, against a published schema read from the classpath. */
class YamlSchemaTest {

    private static final YamlSchema CHECK = YamlSchema.load("check.schema.json");

    private static List<String> problems(String yaml) {
        return assertThrows(YamlException.class, () -> CHECK.read("s.md", "the check block", yaml, 1))
                .problems()
                .stream()
                .map(FileProblem::toString)
                .toList();
    }

    @Test
    void shouldReportTheAlternativeTheAuthorMeantNotEveryAlternativesComplaints() {
        assertThat(problems("""
                measure: [ { name: q, node: c, qdisc: } ]
                expect:
                  - { value: q.count, above: 1, colour: red }
                  - { value: q.count, near: 1 }
                  - { value: q.count }
                """))
                .containsExactly(
                        "s.md:3: expect[0].colour: unknown key 'colour'; expected one of value, equals, near, within, between,"
                                + " above, below, matches, ratio_to, message",
                        "s.md:4: expect[1]: missing required key 'within'",
                        "s.md:5: expect[2]: needs one of equals, near and within, between, matches or above or below");
    }

    @Test
    void shouldNameTheKeysThatClashAndTheKindsToChooseFrom() {
        assertThat(problems("""
                measure:
                  - { name: a, node: c, qdisc: , ping: { target: 10.0.0.2 } }
                  - { name: b, node: c }
                expect:
                  - { value: a.count, equals: 1, above: 2 }
                """))
                .containsExactly(
                        "s.md:2: measure[0]: give only one of ping, qdisc",
                        "s.md:3: measure[1]: needs one of iperf3, ping, qdisc, classes, filters, interfaces or command",
                        "s.md:5: expect[0]: give only one of equals, above");
    }

    @Test
    void shouldSayRangesTypesAndPatternsInWords() {
        assertThat(problems("""
                measure: [ { name: Up, node: c, ping: { target: 10.0.0.2, count: many } } ]
                retries: 11
                watch: maybe
                """))
                .containsExactly(
                        "s.md:1: measure[0].name: 'Up' is not valid: a name: a lowercase letter, then up to 31 lowercase"
                                + " letters, digits or '_'",
                        "s.md:1: measure[0].ping.count: expected a whole number from 1 to 200, found 'many'",
                        "s.md:2: retries: expected a whole number from 0 to 10, found 11",
                        "s.md:3: watch: expected true or false, found 'maybe'");
    }

    @Test
    void shouldAcceptAFittingDocument() throws YamlException {
        YamlDocument doc = CHECK.read("s.md", "the check block", "measure: [ { name: q, node: c, qdisc: } ]\n", 1);
        assertThat(doc.at("/measure/0/name").asText()).isEqualTo("q");
    }
}
