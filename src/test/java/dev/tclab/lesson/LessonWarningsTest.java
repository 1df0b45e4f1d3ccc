package dev.tclab.lesson;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import dev.tclab.grading.spec.SpecCheckValidator;
import dev.tclab.yaml.FileProblem;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Each lint of {@link LessonWarnings} on a small lesson: it warns at the line that breaks, and only there. */
class LessonWarningsTest {

    @TempDir
    Path root;

    private static final String LESSON = """
            ---
            title: Classes
            summary: Two classes.
            ---
            Intro.
            """;

    /** client -- gw -- server; the server's own iperf3 listens on 5201 unless a test says otherwise. */
    private static String lab(String serverExtra) {
        return """
                name: classes
                topology:
                  nodes:
                    client:
                      exec:
                        - ip addr add 10.0.0.1/24 dev eth1
                    gw:
                      exec:
                        - ip addr add 10.0.0.254/24 dev eth1
                    server:
                      exec:
                        - ip addr add 10.0.0.2/24 dev eth1
                        - %s
                  links:
                    - endpoints: ["client:eth1", "gw:eth1"]
                    - endpoints: ["gw:eth2", "server:eth1"]
                """.formatted(serverExtra);
    }

    private static final String HTB = """
            ```solution client
            tc qdisc replace dev eth1 root handle 1: htb default 20
            tc class add dev eth1 parent 1: classid 1:10 htb rate 3mbit ceil 10mbit
            tc class add dev eth1 parent 1: classid 1:20 htb rate 7mbit ceil 10mbit
            tc filter add dev eth1 parent 1: protocol ip prio 1 u32 match ip dport 5201 0xffff flowid 1:10
            ```
            """;

    /** A step file: front matter (lines 1-3), then the body. */
    private static String step(String body) {
        return "---\ntitle: A step\n---\n" + body;
    }

    private static String check(String id, String iperf3) {
        return """
                ```check
                id: %s
                measure:
                  - name: up
                    node: client
                    iperf3: %s
                  - { name: c, node: client, classes: { dev: eth1 }, over: up }
                expect:
                  - { value: "c.by_id[1:10].delta.borrowed", above: 0 }
                ```
                """.formatted(id, iperf3);
    }

    private Lesson load(String labYml, String... steps) throws IOException {
        return loadWith(LESSON, labYml, steps);
    }

    private Lesson loadWith(String lessonMd, String labYml, String... steps) throws IOException {
        Path dir = root.resolve("classes");
        write(dir.resolve("lab.yml"), labYml);
        write(dir.resolve("lesson.md"), lessonMd);
        for (int i = 0; i < steps.length; i++) {
            write(dir.resolve("steps/0" + (i + 1) + "-s" + (i + 1) + ".md"), steps[i]);
        }
        Lesson lesson = new LessonLoader(new SpecCheckValidator()).load(dir, "classes");
        assertEquals(List.of(), lesson.problems(), "the fixture must validate");
        return lesson;
    }

    private static void write(Path path, String text) throws IOException {
        Files.createDirectories(path.getParent());
        Files.writeString(path, text);
    }

    private static List<String> warnings(Lesson lesson) {
        return lesson.warnings().stream().map(FileProblem::asWarning).toList();
    }

    @Test
    void shouldWarnAtAPortFilterWhoseStepChecksAFlowWithoutAPort() throws IOException {
        Lesson lesson = load(lab("iperf3 -s -D"), step(HTB + check("borrow", "{ server: 10.0.0.2, seconds: 4 }")));
        assertFalse(lesson.broken(), "a warning does not break the lesson");
        assertThat(warnings(lesson))
                .containsExactly("classes/steps/01-s1.md:8: warning: this filter classifies by port (dport 5201) on"
                        + " node client, but check 'borrow', iperf3 'up' (classes/steps/01-s1.md:15) gives no port: a"
                        + " check's flow runs against a one-off server on a random port from 20000-29999, so this"
                        + " filter does not see it. Give the check's iperf3 `port: 5201` (and start node server's own"
                        + " `iperf3 -s -D` in lab.yml on another port, e.g. `-p 5202`), or classify by `tos`/`dscp`,"
                        + " which the check can set (docs/checks.md, \"Several flows at once\")");
    }

    @Test
    void shouldWarnAtAFlowerPortFilterInACmdBlockOnARouterTheFlowsCross() throws IOException {
        String flower = """
                ```cmd gw
                tc filter add dev eth2 parent 1: protocol ip flower ip_proto tcp dst_port 5201-5210 classid 1:10
                ```
                """;
        Lesson lesson =
                load(lab("iperf3 -s -D -p 6000"), step(flower + check("borrow", "{ server: 10.0.0.2, seconds: 4 }")));
        assertThat(warnings(lesson))
                .singleElement()
                .asString()
                .startsWith("classes/steps/01-s1.md:5: warning: this filter classifies by port (dst_port 5201-5210)"
                        + " on node gw, but check 'borrow'")
                .contains("Give the check's iperf3 `port: 5201`, or classify by `tos`/`dscp`");
    }

    @Test
    void shouldNotWarnWhenTheFlowGivesAPortOrATosOrRunsBeforeTheFilter() throws IOException {
        String baseline = check("baseline", "{ server: 10.0.0.2, seconds: 4 }")
                .replace("  - { name: c, node: client, classes: { dev: eth1 }, over: up }\n", "")
                .replace("\"c.by_id[1:10].delta.borrowed\", above: 0", "up.mbps, above: 1");
        Lesson lesson = load(
                lab("iperf3 -s -D -p 5202"),
                step(baseline),
                step(HTB
                        + check("ported", "{ server: 10.0.0.2, seconds: 4, port: 5201 }")
                        + check("marked", "{ server: 10.0.0.2, seconds: 4, tos: 0x10 }")));
        assertEquals(List.of(), warnings(lesson));
    }

    @Test
    void shouldNotWarnAtAFilterOnAClientWhoseFlowsArePorted() throws IOException {
        String other = HTB.replace("```solution client", "```solution client2");
        String labYml = lab("iperf3 -s -D")
                .replace(
                        "    gw:\n", "    client2:\n      exec:\n        - ip addr add 10.0.1.1/24 dev eth1\n    gw:\n")
                .replace("  links:\n", "  links:\n    - endpoints: [\"client2:eth1\", \"gw:eth3\"]\n");
        String ported = check("ported", "{ server: 10.0.0.2, seconds: 4, port: 5202 }")
                .replace("node: client\n", "node: client2\n")
                .replace("node: client,", "node: client2,");
        Lesson lesson = load(labYml, step(other + ported + check("default", "{ server: 10.0.0.2, seconds: 4 }")));
        assertEquals(List.of(), warnings(lesson));
    }

    @Test
    void shouldWarnAtAFixedPortTheLabsOwnServerListensOn() throws IOException {
        Lesson lesson = load(
                lab("iperf3 -s -D"),
                step(HTB + check("borrow", "\n      server: 10.0.0.2\n      seconds: 4\n      port: 5201")));
        assertThat(warnings(lesson))
                .containsExactly("classes/steps/01-s1.md:18: warning: port 5201 of check 'borrow', iperf3 'up' is the"
                        + " port node server's own `iperf3 -s -D` (lab.yml exec) listens on, so the check's one-off"
                        + " server cannot listen there and the measurement fails. Start that server on another port"
                        + " (`-p 5202`), or give the check another port");
    }

    @Test
    void shouldWarnAtAFlowOfSeveralWhosePortTheLabsServerTakes() throws IOException {
        String flows = "\n      server: 10.0.0.2\n      seconds: 4\n      flows:\n        a: { tos: 0x10 }\n"
                + "        b: { port: 6000 }";
        Lesson lesson = load(lab("iperf3 --server --daemon --port=6000"), step(HTB + check("share", flows)));
        assertThat(warnings(lesson))
                .singleElement()
                .asString()
                .startsWith("classes/steps/01-s1.md:20: warning: port 6000 of check 'share', iperf3 'up.flows.b' is"
                        + " the port node server's own `iperf3 --server --daemon --port=6000`");
    }

    @Test
    void shouldWarnAtAFlowToAnAddressOfItsOwnNode() throws IOException {
        Lesson lesson =
                load(lab("iperf3 -s -D -p 5202"), step(check("self", "\n      server: 10.0.0.1\n      seconds: 4")));
        assertThat(warnings(lesson))
                .containsExactly("classes/steps/01-s1.md:9: warning: iperf3 'up' runs on node client against"
                        + " 10.0.0.1, which lab.yml gives to client itself: the flow never crosses a link of the lab,"
                        + " so the platform fails the measurement (docs/SECURITY.md, \"A measurement proves it crossed"
                        + " the link\"). Measure against an address of another node");
    }

    @Test
    void shouldWarnAtASolutionThatMovesACheckServersAddress() throws IOException {
        String move = """
                ```solution gw
                ip addr add 10.0.0.2/32 dev lo
                ```
                """;
        Lesson lesson =
                load(lab("iperf3 -s -D -p 5202"), step(move + check("moved", "{ server: 10.0.0.2, seconds: 4 }")));
        assertThat(warnings(lesson))
                .singleElement()
                .asString()
                .startsWith("classes/steps/01-s1.md:5: warning: this puts 10.0.0.2 on node gw, but lab.yml gives it"
                        + " to node server and check 'moved', iperf3 'up' (classes/steps/01-s1.md:12) measures"
                        + " against it");
    }

    @Test
    void shouldWarnAtACheckCommandThatReadsTheNodesFilesOrProcesses() throws IOException {
        String commands = """
                ```cmd client
                iperf3 -c 10.0.0.2 -J > /tmp/result.txt
                ```
                ```check
                id: looks
                measure:
                  - { name: saved, node: client, command: "cat /tmp/result.txt" }
                  - { name: running, node: server, command: "pgrep -c iperf3" }
                  - { name: net, node: client, command: "cat /proc/net/dev; tc -s qdisc show dev eth1 | grep -c tbf" }
                  - { name: own, node: client, command: "touch /tmp/check-state; cat /tmp/check-state" }
                expect:
                  - { value: saved.ok, equals: "true" }
                ```
                """;
        Lesson lesson = load(lab("iperf3 -s -D"), step(commands));
        assertThat(warnings(lesson))
                .containsExactly(
                        "classes/steps/01-s1.md:10: warning: check 'looks', command 'saved' reads /tmp/result.txt,"
                                + " which the lesson's commands put in the node (classes/steps/01-s1.md:5), but it finds"
                                + " the sidecar's /tmp/result.txt instead: a check's command runs in the"
                                + " node's measurement sidecar, which shares the node's network (interfaces, qdiscs,"
                                + " sockets) but not its files or processes (docs/checks.md, \"Measurements\")."
                                + " Measure the network instead, e.g. with `tc`, `ip` or `ss`",
                        "classes/steps/01-s1.md:11: warning: check 'looks', command 'running' runs `pgrep`, which sees"
                                + " the sidecar's processes, not the node's: a check's command runs in the node's"
                                + " measurement sidecar, which shares the node's network (interfaces, qdiscs, sockets)"
                                + " but not its files or processes (docs/checks.md, \"Measurements\"). Measure the"
                                + " network instead, e.g. with `tc`, `ip` or `ss`");
    }

    @Test
    void shouldWarnAtASentenceEndingInAColonWhoseBlockAKernelHides() throws IOException {
        String lesson = LESSON.replace("---\nIntro.", "uses: [qdisc:cake]\n---\nIntro.");
        String shape = """
                With CAKE, one line does it:

                ```cmd client if=qdisc:cake
                tc qdisc replace dev eth1 root cake bandwidth 4500kbit
                ```

                ```prose unless=qdisc:cake
                Without CAKE, a tbf:
                ```

                ```cmd client unless=qdisc:cake
                tc qdisc replace dev eth1 root tbf rate 4500kbit burst 8kb latency 10ms
                ```

                Now measure again:

                ```cmd client if=qdisc:cake
                ping -c 3 10.0.0.2
                ```

                ```cmd client unless=qdisc:cake
                ping -c 5 10.0.0.2
                ```

                On this platform the ping fell to 2 ms.
                """;
        Lesson loaded = loadWith(lesson, lab("iperf3 -s -D"), step(shape));
        assertFalse(loaded.broken(), "a warning does not break the lesson");
        assertThat(warnings(loaded))
                .containsExactly("classes/steps/01-s1.md:4: warning: this sentence ends in ':', but the cmd block"
                        + " after it (line 6) is shown only when the kernel has qdisc:cake, and on a kernel without"
                        + " qdisc:cake the sentence is followed by a paragraph (line 11). Guard the sentence too"
                        + " (put it in a ```prose if=qdisc:cake block), or give the block a fallback right after it"
                        + " (```cmd ... unless=qdisc:cake)");
    }
}
