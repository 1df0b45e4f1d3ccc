package dev.tclab.lesson;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tclab.grading.spec.SpecCheckValidator;
import dev.tclab.yaml.FileProblem;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LessonLoaderTest {

    @TempDir
    Path root;

    private Path dir;

    private static final String LAB = """
            name: demo
            topology:
              nodes:
                client:
                server:
              links:
                - endpoints: ["client:eth1", "server:eth1"]
            """;
    private static final String LESSON = """
            ---
            title: Demo
            summary: A demo.
            level: beginner
            minutes: 10
            requires: [qdisc:tbf]
            uses: [qdisc:cake]
            parameters:
              rate: { choices: [5, 7], description: Mbit/s }
            ---
            Intro at {{rate}} Mbit/s.
            """;
    private static final String STEP = """
            ---
            title: Shape to {{rate}}
            ---
            ```cmd client
            tc qdisc replace dev eth1 root tbf rate {{rate}}mbit burst 32kb latency 100ms
            ```
            """;

    @BeforeEach
    void writeValidLesson() throws IOException {
        dir = root.resolve("demo");
        write("lab.yml", LAB);
        write("lesson.md", LESSON);
        write("steps/01-shape.md", STEP);
    }

    private void write(String file, String text) throws IOException {
        Path path = dir.resolve(file);
        Files.createDirectories(path.getParent());
        Files.writeString(path, text);
    }

    private Lesson load() {
        return new LessonLoader(new SpecCheckValidator()).load(dir, "lessons/demo");
    }

    private List<String> problems() {
        return load().problems().stream().map(FileProblem::toString).toList();
    }

    @Test
    void shouldLoadAValidLesson() {
        Lesson lesson = load();
        assertEquals(List.of(), lesson.problems());
        assertEquals("demo", lesson.slug());
        assertEquals("Demo", lesson.meta().title());
        assertEquals(List.of("5", "7"), lesson.meta().parameters().get("rate").choices());
        assertEquals(List.of("shape"), lesson.steps().stream().map(Step::id).toList());
        assertEquals(List.of("client", "server"), lesson.topology().interactiveNodes());
    }

    @Test
    void shouldOrderStepsByFileNameAndHonourAnIdOverride() throws IOException {
        write("steps/02-measure.md", "---\ntitle: Measure\nid: measure-again\n---\nText\n");
        write("steps/00-intro.md", "---\ntitle: First\n---\nText\n");
        assertEquals(
                List.of("intro", "shape", "measure-again"),
                load().steps().stream().map(Step::id).toList());
    }

    @Test
    void shouldRejectUndeclaredParameterWithItsLine() throws IOException {
        write("steps/01-shape.md", STEP + "\nThen wait {{delay}} ms.\n");
        assertEquals(
                List.of(
                        "lessons/demo/steps/01-shape.md:8: parameter '{{delay}}' is not declared under 'parameters' in lesson.md"),
                problems());
    }

    @Test
    void shouldRejectUndeclaredParameterInTheIntroWithItsFileLine() throws IOException {
        write("lesson.md", LESSON + "\nAlso {{burst}}.\n");
        assertEquals(
                List.of(
                        "lessons/demo/lesson.md:13: parameter '{{burst}}' is not declared under 'parameters' in lesson.md"),
                problems());
    }

    @Test
    void shouldReportBrokenFrontMatterAtTheUnclosedList() throws IOException {
        write("lesson.md", "---\ntitle: [unclosed\nsummary: x\n---\nbody\n");
        assertEquals(
                List.of("lessons/demo/lesson.md:2: front matter is not valid YAML: the list opened here with '[' "
                        + "is not closed (found ':' on line 3)"),
                problems());
    }

    @Test
    void shouldIgnoreEditorSwapAndBackupFilesAndHiddenFiles() throws IOException {
        for (String name : List.of(
                ".01-shape.md.swp",
                ".01-shape.md.swo",
                "01-shape.md~",
                "#01-shape.md#",
                "01-shape.md.bak",
                "01-shape.md.orig",
                ".DS_Store")) {
            write("steps/" + name, "not a step");
        }
        write(".lesson.md.swp", "not a lesson");
        assertEquals(List.of(), problems());
        assertEquals(List.of("shape"), load().steps().stream().map(Step::id).toList());
    }

    @Test
    void shouldStillReportOtherFilesInSteps() throws IOException {
        write("steps/notes.txt", "todo");
        assertEquals(
                List.of("lessons/demo/steps/notes.txt: only .md step files belong in steps/ (editor backups and "
                        + "hidden files are ignored; move other files to the lesson folder)"),
                problems());
    }

    @Test
    void shouldReportAnUnnumberedStepAmongNumberedOnes() throws IOException {
        write("steps/measure.md", "---\ntitle: Measure\n---\nText\n");
        assertEquals(
                List.of("lessons/demo/steps/measure.md: number every step file (01-..., 02-...) or none; "
                        + "this one sorts last"),
                problems());
    }

    @Test
    void shouldAcceptStepFilesWithoutAnyNumbers() throws IOException {
        Files.move(dir.resolve("steps/01-shape.md"), dir.resolve("steps/shape.md"));
        write("steps/measure.md", "---\ntitle: Measure\n---\nText\n");
        assertEquals(List.of(), problems());
    }

    @Test
    void shouldReportTwoStepFilesWithTheSameNumber() throws IOException {
        write("steps/1-measure.md", "---\ntitle: Measure\n---\nText\n");
        assertEquals(
                List.of("lessons/demo/steps/1-measure.md: has the same number as 01-shape.md; give each step "
                        + "file its own number so the order is clear"),
                problems());
    }

    @Test
    void shouldReportUnclosedOrMissingFrontMatter() throws IOException {
        write("lesson.md", "---\ntitle: x\n");
        write("steps/01-shape.md", "no front matter\n");
        assertEquals(
                List.of(
                        "lessons/demo/lesson.md:1: the front matter opened on line 1 is never closed by a '---' line",
                        "lessons/demo/steps/01-shape.md:1: missing front matter: start the file with a '---' line, the YAML (title: ...), and another '---' line"),
                problems());
    }

    @Test
    void shouldReportBadFrontMatterFields() throws IOException {
        write(
                "lesson.md",
                "---\ntitle: Demo\nsummary: s\nlevel: expert\nminutes: soon\nrequires: [tbf]\ncolour: red\n"
                        + "parameters: { rate: { choices: [1] } }\n---\nbody\n");
        assertEquals(
                List.of(
                        "lessons/demo/lesson.md:4: level: expected one of beginner, intermediate, advanced, found 'expert'",
                        "lessons/demo/lesson.md:5: minutes: 'soon' is not valid: rough duration in whole minutes, e.g. 40",
                        "lessons/demo/lesson.md:6: requires[0]: 'tbf' is not valid: a kernel feature name like qdisc:tbf, classifier:matchall or link:ifb",
                        "lessons/demo/lesson.md:7: colour: unknown key 'colour'; expected one of title, summary, level, minutes, requires, uses, prerequisites, parameters"),
                problems());
    }

    @Test
    void shouldReportBrokenLabYmlAndStillLoadTheRest() throws IOException {
        write(
                "lab.yml",
                "name: demo\ntopology:\n  nodes:\n    client:\n  links:\n    - endpoints: [\"client:eth1\", \"nobody:eth1\"]\n");
        Lesson lesson = load();
        assertNull(lesson.topology());
        assertEquals(
                List.of(
                        "lessons/demo/lab.yml:6: topology.links[0].endpoints[1]: no node named 'nobody' in topology.nodes (have: client)"),
                lesson.problems().stream().map(FileProblem::toString).toList());
        assertEquals("Demo", lesson.meta().title());
    }

    @Test
    void shouldReportMissingFiles() throws IOException {
        Files.delete(dir.resolve("lab.yml"));
        Files.delete(dir.resolve("steps/01-shape.md"));
        assertEquals(
                List.of(
                        "lessons/demo/lab.yml: missing: every lesson has a lab.yml describing its lab",
                        "lessons/demo/steps: no steps: add steps/01-name.md"),
                problems());
    }

    @Test
    void shouldReportCommandForUnknownNodeAndBadGuardWithFileLines() throws IOException {
        write(
                "steps/02-more.md",
                "---\ntitle: More\n---\nText\n\n```cmd gateway\nip a\n```\n\n```cmd client if=qdisc:netem\nip a\n```\n");
        assertEquals(
                List.of(
                        "lessons/demo/steps/02-more.md:6: lab.yml has no node 'gateway' (nodes: client, server)",
                        "lessons/demo/steps/02-more.md:10: guard feature 'qdisc:netem' is not listed in lesson.md's requires or uses"),
                problems());
    }

    @Test
    void shouldReportCheckThatIsNotValidYaml() throws IOException {
        write("steps/02-check.md", "---\ntitle: Check\n---\n```check\nmeasure: [\n```\n");
        List<String> problems = problems();
        assertEquals(1, problems.size(), problems.toString());
        assertTrue(problems.get(0).startsWith("lessons/demo/steps/02-check.md:"), problems.toString());
        assertTrue(problems.get(0).contains("is not valid YAML"), problems.toString());
    }

    @Test
    void shouldReportQuizIdsUsedTwiceAcrossFiles() throws IOException {
        String quiz =
                "```quiz\nid: same\nquestion: q\noptions:\n  - { text: a, correct: true, why: x }\n  - { text: b, why: y }\n```\n";
        write("lesson.md", LESSON + "\n" + quiz);
        write("steps/02-q.md", "---\ntitle: Q\n---\n" + quiz);
        assertEquals(
                List.of(
                        "lessons/demo/steps/02-q.md:4: quiz id 'same' is already used at lessons/demo/lesson.md:13; ids are unique in a lesson"),
                problems());
    }

    @Test
    void shouldValidateWithTheFirstChoiceSoBlocksParseWithRealValues() throws IOException {
        write(
                "steps/02-check.md",
                "---\ntitle: Check\n---\n```check\ntitle: at {{rate}}\n"
                        + "measure:\n  - name: q\n    node: client\n    qdisc: { dev: eth1 }\nexpect:\n  - value: q.root.kind\n    equals: tbf\n"
                        + "```\n");
        assertEquals(List.of(), problems());
        Lesson lesson = load();
        LessonView view = LessonRenderer.render(
                lesson, Parameters.firstChoices(lesson.meta().parameters()), null, Map.of(), new SpecCheckValidator());
        assertEquals("at 5", view.steps().get(1).checks().get(0).title());
    }

    @Test
    void shouldRejectFolderNamesThatAreNotSlugs() throws IOException {
        Path odd = root.resolve("My Lesson");
        Files.createDirectories(odd);
        Lesson lesson = new LessonLoader(new SpecCheckValidator()).load(odd, "lessons/My Lesson");
        assertTrue(lesson.broken());
        assertTrue(
                lesson.problems().get(0).message().contains("slug"),
                lesson.problems().toString());
    }

    @Test
    void shouldRenderLearnersTheirOwnValues() {
        Lesson lesson = load();
        String a = null;
        String b = null;
        for (int i = 0; i < 20 && (a == null || a.equals(b)); i++) {
            a = render(lesson, "learner-a");
            b = render(lesson, "learner-" + i);
        }
        assertFalse(a.equals(b), "two learners see different rates somewhere in a class of 20");
        assertTrue(a.contains("rate 5mbit") || a.contains("rate 7mbit"), a);
    }

    private static String render(Lesson lesson, String learner) {
        return LessonRenderer.render(
                        lesson,
                        Parameters.forLearner(
                                learner, lesson.slug(), lesson.meta().parameters()),
                        f -> true,
                        Map.of(),
                        new SpecCheckValidator())
                .steps()
                .get(0)
                .html();
    }

    private static final String SPLIT = """
            ---
            title: Demo
            summary: A demo.
            requires: [qdisc:tbf]
            parameters:
              split: { names: [a_rate, b_rate], choices: [[12, 8], [10, 10], [14, 6]], description: A and B share 20 }
            ---
            Class A gets {{a_rate}} Mbit/s, class B {{b_rate}} Mbit/s.
            """;

    @Test
    void shouldDrawRelatedParametersTogether() throws IOException {
        write("lesson.md", SPLIT);
        write("steps/01-shape.md", STEP.replace("{{rate}}", "{{a_rate}}"));
        Lesson lesson = load();
        assertEquals(List.of(), lesson.problems());
        Parameter split = lesson.meta().parameters().get("split");
        assertEquals(List.of("a_rate", "b_rate"), split.names());
        for (int i = 0; i < 50; i++) {
            Map<String, String> values =
                    Parameters.forLearner("learner-" + i, "demo", lesson.meta().parameters());
            assertEquals(
                    20,
                    Integer.parseInt(values.get("a_rate")) + Integer.parseInt(values.get("b_rate")),
                    values.toString());
        }
        assertEquals(
                List.of(
                        Map.of("a_rate", "12", "b_rate", "8"),
                        Map.of("a_rate", "10", "b_rate", "10"),
                        Map.of("a_rate", "14", "b_rate", "6")),
                Parameters.everyChoice(lesson.meta().parameters()));
    }

    @Test
    void shouldReportAMalformedTupleAndAChoiceThatBreaksABlock() throws IOException {
        write("lesson.md", SPLIT.replace("[14, 6]]", "[14, 6], [20]]"));
        assertTrue(
                problems().stream()
                        .anyMatch(p -> p.startsWith("lessons/demo/lesson.md:6: ")
                                && p.contains("each choice is a list of 2 values, one for each of [a_rate, b_rate]")),
                problems().toString());
        write("lesson.md", SPLIT.replace("[14, 6]]", "[14, 6x]]"));
        write("steps/01-shape.md", STEP.replace("{{rate}}", "{{a_rate}}") + """

                ```check
                measure: [ { name: c, node: client, classes: { dev: eth1 } } ]
                expect: [ { value: "c.by_id[1:10].rate", near: "{{b_rate}}mbit", within: 10% } ]
                ```
                """);
        List<String> problems = problems();
        assertEquals(1, problems.size(), problems.toString());
        assertTrue(
                problems.get(0).contains("'6xmbit'")
                        && problems.get(0).endsWith("(with parameters {a_rate=14, b_rate=6x})"),
                problems.toString());
    }
}
