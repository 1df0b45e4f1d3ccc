package dev.tclab.grading.spec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tclab.yaml.FileProblem;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class CheckSpecParserTest {

    private static final String FILE = "lessons/tbf-basics/steps/02-shape.md";

    /** The example of the check format brief, with parameters substituted. */
    private static final String FULL = """
            id: shaped-to-rate
            title: The client's uplink runs at about {{rate}} Mbit/s
            measure:
              - name: up
                node: client
                iperf3: { server: 10.0.0.2, seconds: 6, reverse: false }
              - name: lat
                node: client
                ping: { target: 10.0.0.2, count: 20, interval: 0.2 }
                during: up
              - name: q
                node: client
                qdisc: { dev: eth1 }
              - name: classes
                node: gw
                classes: { dev: eth1 }
              - name: filters
                node: gw
                filters: { dev: eth1, parent: "ffff:" }
              - name: addr
                node: client
                command: "ip -j addr show dev eth1"
                parse: json
            expect:
              - value: up.mbps
                near: "{{rate}}mbit"
                within: 15%
                message: "measured {value} Mbit/s, expected about {{rate}} Mbit/s: is the tbf on eth1 of the client?"
              - value: q.root.kind
                equals: tbf
              - value: lat.avg_ms
                below: 50ms
              - value: lat.avg_ms
                ratio_to: baseline.loaded_ping
                below: 0.1
              - any_of:
                  - { value: q.root.kind, equals: tbf }
                  - { value: q.root.kind, equals: cake }
            record:
              loaded_ping: lat.avg_ms
            retries: 2
            stable: 1
            interval: 1s
            timeout: 60s
            watch: false
            hint: "Look at `tc -s qdisc show dev eth1` on the client."
            """;

    @Test
    void shouldParseTheDocumentedExample() throws Exception {
        CheckSpec spec = CheckSpecParser.parse(FILE, FULL, 10, Map.of("rate", "10"));
        assertEquals("shaped-to-rate", spec.id());
        assertEquals("The client's uplink runs at about 10 Mbit/s", spec.title());
        assertEquals(
                List.of("up", "lat", "q", "classes", "filters", "addr"),
                spec.measurements().stream().map(Measurement::name).toList());
        CommandMeasurement addr = (CommandMeasurement) spec.measurements().get(5);
        assertEquals(CommandMeasurement.Parse.JSON, addr.parse());
        assertEquals(List.of(spec.measurements().get(1)), spec.during("up"));
        assertEquals(5, spec.expect().size());
        Assertion.Check near = (Assertion.Check) spec.expect().get(0);
        assertEquals(
                new Comparison.Near(Quantity.parse("10mbit").quantity(), Tolerance.percent(15)), near.comparison());
        assertEquals("lat.avg_ms", spec.record().get("loaded_ping").text());
        assertEquals(2, spec.retries());
        assertEquals(Duration.ofSeconds(60), spec.timeout());
    }

    @Test
    void shouldReportUndeclaredParameterAtItsLine() {
        CheckSpecException e = assertThrows(
                CheckSpecException.class, () -> CheckSpecParser.parse(FILE, FULL, 10, Map.of("speed", "10")));
        assertEquals(11, e.problems().get(0).line(), "{{rate}} first appears on the second line of the block");
        assertTrue(e.problems().get(0).message().contains("{{rate}} is not declared"));
    }

    private static List<FileProblem> problems(String yaml) {
        return assertThrows(CheckSpecException.class, () -> CheckSpecParser.parse(FILE, yaml, 20))
                .problems();
    }

    /** An empty group is an author's slip: an empty any_of never holds, an empty all_of always does. */
    @Test
    void shouldRefuseAnEmptyGroup() {
        for (String group : List.of("any_of", "all_of")) {
            List<FileProblem> problems = problems("""
                    measure:
                      - { name: q, node: client, qdisc: { dev: eth1 } }
                    expect:
                      - %s: []
                    """.formatted(group));
            assertEquals(1, problems.size(), problems.toString());
            assertTrue(problems.get(0).field().startsWith("expect[0]"), problems.toString());
        }
    }

    @Test
    void shouldLocateEveryProblemWithLineAndField() {
        List<FileProblem> problems = problems("""
                measure:
                  - name: up
                    node: client
                    iperf3: { server: example.org, seconds: 99 }
                  - name: lat
                    node: client
                    ping: { target: 10.0.0.2 }
                    during: nothing
                expect:
                  - { value: up.speed, above: 1mbit }
                  - { value: lat.avg_ms, below: 10mbps }
                  - { value: lat.avg_ms, near: 5ms }
                  - { value: ghost.x, equals: 1 }
                  - { value: up.mbps, below: 32kb }
                timeout: soon
                """);
        List<String> lines = problems.stream()
                .map(p -> p.line() + " " + p.field() + ": " + p.message())
                .toList();
        assertTrue(
                lines.contains(
                        "23 measure[0].iperf3.server: 'example.org' is not valid: an IPv4 address; measurements only reach addresses inside the lab"),
                lines.toString());
        assertTrue(
                lines.contains("23 measure[0].iperf3.seconds: expected a whole number from 1 to 30, found 99"),
                lines.toString());
        assertTrue(
                lines.stream()
                        .anyMatch(l -> l.startsWith("27 measure[1].during: 'nothing' is not an earlier measurement")),
                lines.toString());
        assertTrue(
                lines.stream().anyMatch(l -> l.startsWith("30 expect[1].below: '10mbps' is ambiguous")),
                lines.toString());
        assertTrue(lines.contains("31 expect[2]: missing required key 'within'"), lines.toString());
        assertTrue(
                lines.stream().anyMatch(l -> l.startsWith("32 expect[3].value: 'ghost' is neither a measurement")),
                lines.toString());
        assertTrue(
                lines.contains("34 timeout: 'soon' is not valid: a duration such as 500ms, 2s or 1m"),
                lines.toString());
        // Assertions on a measurement the schema refused wait until it fits; then they are checked too.
        assertTrue(lines.stream().noneMatch(l -> l.startsWith("29 ") || l.startsWith("33 ")), lines.toString());
        List<String> fixed = problems("""
                measure:
                  - name: up
                    node: client
                    iperf3: { server: 10.0.0.2, seconds: 9 }
                expect:
                  - { value: up.speed, above: 1mbit }
                  - { value: up.mbps, below: 32kb }
                timeout: 11m
                """).stream()
                .map(p -> p.line() + " " + p.field() + ": " + p.message())
                .toList();
        assertTrue(
                fixed.stream().anyMatch(l -> l.startsWith("25 expect[0].value: a iperf3 result has the fields")),
                fixed.toString());
        assertTrue(
                fixed.stream().anyMatch(l -> l.startsWith("26 expect[1].below: '32kb' is a size")), fixed.toString());
        assertTrue(fixed.contains("27 timeout: a timeout is between 1s and 10m"), fixed.toString());
    }

    @Test
    void shouldRejectAMessageWritingAnotherUnitThanTheValueIsShownIn() throws Exception {
        List<FileProblem> problems = problems("""
                measure:
                  - { name: up, node: client, iperf3: { server: 10.0.0.2, seconds: 3 } }
                  - { name: q, node: client, qdisc: { dev: eth1 } }
                expect:
                  - { value: q.root.bytes, above: 3mb, message: "sent only {value} bytes" }
                  - { value: up.mbps, ratio_to: baseline.native, above: 0.05, message: "{value} kbit/s" }
                """);
        List<String> lines = problems.stream()
                .map(p -> p.line() + " " + p.field() + ": " + p.message())
                .toList();
        assertEquals(
                List.of(
                        "24 expect[0].message: the message writes '{value} bytes' but {value} is shown in mb (the "
                                + "unit of the expectation, or of the field when the expectation has none): write '{value} {unit}'",
                        "25 expect[1].message: the message writes '{value} kbit/s' but {value} is shown in Mbit/s (the unit of the "
                                + "expectation, or of the field when the expectation has none): write '{value} {unit}'"),
                lines);
        CheckSpec fine = CheckSpecParser.parse(FILE, """
                measure:
                  - { name: up, node: client, iperf3: { server: 10.0.0.2, seconds: 3 } }
                expect:
                  - { value: up.mbps, above: 1000mbit, message: "measured {value} Mbit/s against {value} {unit}" }
                  - { value: up.mbps, ratio_to: baseline.native, above: 0.05, message: "{value} Mbit/s, {ratio} of it" }
                """, 20);
        assertEquals(2, fine.expect().size());
    }

    @Test
    void shouldRejectPingThatOutlastsItsLoad() {
        List<FileProblem> problems = problems("""
                measure:
                  - { name: up, node: client, iperf3: { server: 10.0.0.2, seconds: 3 } }
                  - { name: lat, node: client, ping: { target: 10.0.0.2, count: 20, interval: 0.2 }, during: up }
                """);
        assertEquals(22, problems.get(0).line());
        assertTrue(
                problems.get(0).message().contains("must end before 'up'"),
                problems.get(0).message());
    }

    @Test
    void shouldRejectDuringANonLoadAndTwoLoadsAtOnce() {
        List<FileProblem> problems = problems("""
                measure:
                  - { name: q, node: client, qdisc: { dev: eth1 } }
                  - { name: lat, node: client, ping: { target: 10.0.0.2 }, during: q }
                  - { name: up, node: client, iperf3: { server: 10.0.0.2 } }
                  - { name: down, node: client, iperf3: { server: 10.0.0.2, reverse: true }, during: up }
                """);
        assertTrue(problems.get(0).message().contains("'during' and 'over' need a load"), problems.toString());
        assertTrue(
                problems.get(1)
                        .message()
                        .contains(
                                "two iperf3 measurements cannot run at once; give one iperf3 measurement several flows"),
                problems.toString());
    }

    @Test
    void shouldRejectMalformedStructure() {
        assertEquals(
                "expected a mapping, found a list",
                problems("- just a list\n").get(0).message());
        assertTrue(
                problems("measure: [ { name: x, node: c } ]\n").get(0).message().contains("needs one of"));
        assertTrue(problems("measure:\n  - { name: x, node: c, qdisc: {}, ping: { target: 10.0.0.2 } }\n")
                .get(0)
                .message()
                .equals("give only one of ping, qdisc"));
        assertTrue(problems(
                        "measure: [ { name: up, node: c, iperf3: { server: 10.0.0.2 } } ]\nexpect: [ { value: up.mbps, near: 5mbit, within: 2ms } ]\n")
                .get(0)
                .message()
                .contains("is a time"));
        assertTrue(problems("measure: [ { name: a, node: c, command: ls, regex: \"(\" } ]\n")
                .get(0)
                .message()
                .contains("not a valid regular expression"));
        assertTrue(problems("measure: [ { name: a, node: c, qdisc: { dev: eth1 } } ]\nrecord: { base: nothing.x }\n")
                .get(0)
                .message()
                .contains("not a value of this check"));
        assertTrue(problems("measure: [ { name: a, node: c, qdisc: { dev: eth1 } } ]\nretries: many\n")
                .get(0)
                .message()
                .contains("whole number from 0 to 10"));
        // SnakeYAML notices the unclosed flow list where the text ends; the problem points at the '[' and names that
        // line.
        FileProblem unclosed = problems("measure: [ unclosed\n").get(0);
        assertEquals(20, unclosed.line());
        assertEquals(
                "the check block is not valid YAML: the list opened here with '[' is not closed (found the end on line 21)",
                unclosed.message());
    }

    @Test
    void shouldRejectAUnitExpectationOnACommandsUnitlessNumbers() {
        List<FileProblem> problems = problems("""
                measure:
                  - name: x
                    node: client
                    command: "echo rate=5"
                    regex: "rate=(?<rate>\\\\d+)"
                  - name: j
                    node: client
                    command: "tc -j qdisc show dev eth1"
                    parse: json
                expect:
                  - { value: x.match.rate, near: 5mbit, within: 10% }
                  - { value: x.exit_code, at_least: 1mbit }
                  - { value: x.exit_code, below: 1ms }
                  - { value: "j.json[0].packets", above: 1kb }
                  - { value: "j.json[0].options.rate", above: 1mbit }
                """);
        List<String> lines = problems.stream()
                .map(p -> p.line() + " " + p.field() + ": " + p.message())
                .toList();
        assertTrue(
                lines.contains(
                        "30 expect[0].near: '5mbit' is a rate (bit, kbit, mbit, gbit) but the value is a plain "
                                + "number; compare it with a number alone, or declare the unit of a command's numbers (unit: Mbit/s)"),
                lines.toString());
        assertTrue(
                lines.stream()
                        .anyMatch(l -> l.startsWith("31 expect[1]: unknown field 'at_least'")
                                || l.startsWith("31 expect[1].at_least")),
                lines.toString());
        assertTrue(lines.stream().anyMatch(l -> l.startsWith("32 expect[2].below: '1ms' is a time")), lines.toString());
        assertTrue(lines.stream().anyMatch(l -> l.startsWith("33 expect[3].above: '1kb' is a size")), lines.toString());
        assertTrue(lines.stream().noneMatch(l -> l.startsWith("34 ")), "tc's JSON rate is in bytes/s: " + lines);
    }

    @Test
    void shouldAcceptUnitExpectationsOnACommandsDeclaredUnit() throws Exception {
        CheckSpec spec = CheckSpecParser.parse(FILE, """
                measure:
                  - name: x
                    node: client
                    command: "echo rate=5"
                    regex: "rate=(?<rate>\\\\d+)"
                    unit: Mbit/s
                expect:
                  - { value: x.match.rate, near: 5mbit, within: 10% }
                  - { value: x.match.rate, above: 4000kbit }
                """, 20);
        assertEquals(Unit.MBIT_PER_S, ((CommandMeasurement) spec.measurements().get(0)).unit());
        List<String> bad = problems("""
                measure:
                  - { name: x, node: client, command: "echo 5", regex: "(?<v>\\\\d+)", unit: ms }
                  - { name: y, node: client, command: "echo 5", unit: furlongs }
                  - { name: z, node: client, command: "echo 5", unit: ms }
                  - { name: q, node: client, qdisc: { dev: eth1 }, unit: ms }
                expect:
                  - { value: x.match.v, near: 5mbit, within: 10% }
                """).stream()
                .map(p -> p.line() + " " + p.field() + ": " + p.message())
                .toList();
        assertTrue(
                bad.stream()
                        .anyMatch(
                                l -> l.startsWith(
                                        "26 expect[0].near: '5mbit' is a rate (bit, kbit, mbit, gbit) but the value is a time")),
                bad.toString());
        assertTrue(
                bad.stream().anyMatch(l -> l.startsWith("22 measure[1].unit: 'furlongs' is not a unit")),
                bad.toString());
        assertTrue(
                bad.stream().anyMatch(l -> l.startsWith("23 measure[2].unit: 'unit' applies to the numbers")),
                bad.toString());
        assertTrue(
                bad.stream()
                        .anyMatch(l -> l.startsWith("24 measure[3].unit: 'unit' belongs to a 'command' measurement")),
                bad.toString());
    }

    @Test
    void shouldKnowTheUnitOfATcFieldByItsKeyAnywhereInTheTree() throws Exception {
        List<String> lines = problems("""
                measure:
                  - { name: c, node: client, classes: { dev: eth1 } }
                  - { name: q, node: client, qdisc: { dev: eth1 } }
                expect:
                  - { value: "c.by_id[1:10].packets", near: 5mbit, within: 10% }
                  - { value: "c.by_id[1:10].rate", near: 5mbit, within: 10% }
                  - { value: q.root.options.rate, above: 1ms }
                  - { value: "q.root.tins[0].avg_delay_us", below: 5ms }
                  - { value: "c.by_id[1:10].quantum", above: 1mbit }
                """).stream()
                .map(p -> p.line() + " " + p.field() + ": " + p.message())
                .toList();
        assertTrue(
                lines.stream().anyMatch(l -> l.startsWith("24 expect[0].near: '5mbit' is a rate")), lines.toString());
        assertTrue(lines.stream().anyMatch(l -> l.startsWith("26 expect[2].above: '1ms' is a time")), lines.toString());
        assertTrue(
                lines.stream()
                        .anyMatch(
                                l -> l.startsWith(
                                        "28 expect[4].above: '1mbit' is a rate (bit, kbit, mbit, gbit) but the value is a size")),
                lines.toString());
        assertEquals(3, lines.size(), lines.toString());
    }
}
