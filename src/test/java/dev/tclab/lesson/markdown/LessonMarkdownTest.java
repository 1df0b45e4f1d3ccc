package dev.tclab.lesson.markdown;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tclab.grading.spec.SpecCheckValidator;
import dev.tclab.quiz.OptionOrder;
import dev.tclab.quiz.QuizAttempt;
import dev.tclab.runtime.topology.Topology;
import dev.tclab.runtime.topology.TopologyParser;
import dev.tclab.yaml.FileProblem;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;

class LessonMarkdownTest {

    private static final Topology LAB = topology();

    private static Topology topology() {
        try {
            return TopologyParser.parse("lab.yml", """
                    name: t
                    topology:
                      nodes:
                        client:
                        modem: { hidden: true }
                      links:
                        - endpoints: ["client:eth1", "modem:eth1"]
                    """);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private BlockContext context(Predicate<String> kernelHas, Map<String, QuizAttempt> attempts, String stepId) {
        BlockContext.Lesson lesson = new BlockContext.Lesson(
                "demo",
                LAB,
                Set.of("qdisc:cake"),
                kernelHas,
                new SpecCheckValidator(),
                attempts,
                OptionOrder::authored);
        return new BlockContext(lesson, "steps/01-a.md", stepId);
    }

    private BlockContext validating() {
        return context(null, Map.of(), "a");
    }

    /** Renders as a step file whose body starts on line 4 (after a 3-line front matter). */
    private String render(String markdown, BlockContext context) {
        return LessonMarkdown.render(markdown, 4, context);
    }

    private static List<String> messages(BlockContext context) {
        return context.problems().stream().map(FileProblem::toString).toList();
    }

    @Test
    void shouldRenderCommandWithRunAndCopyButtonsForItsNode() {
        BlockContext ctx = validating();
        String html = render("```cmd client\nip addr\ntc qdisc show dev eth1\n```\n", ctx);
        assertEquals(List.of(), ctx.problems());
        assertTrue(
                html.contains(
                        "class=\"cmd-run\" data-node=\"client\" data-command=\"ip addr\ntc qdisc show dev eth1\""),
                html);
        assertTrue(html.contains("class=\"cmd-copy\""), html);
        assertTrue(html.contains("<pre><code>ip addr\ntc qdisc show dev eth1</code></pre>"), html);
    }

    @Test
    void shouldRenderGithubTablesWithEscapedCellsAndAlignment() {
        BlockContext ctx = validating();
        String html = render("""
                | you write | tc reads | bytes |
                | --- | :---: | ---: |
                | `32kb` | 32 kilobytes | 32768 |
                | <b>x</b> | short row |
                """, ctx);
        assertEquals(List.of(), ctx.problems());
        assertTrue(html.contains("<table>") && html.contains("<thead>") && html.contains("<tbody>"), html);
        assertTrue(html.contains("<th>you write</th>"), html);
        assertTrue(html.contains("<td><code>32kb</code></td>"), html);
        assertTrue(html.contains("<td align=\"right\">32768</td>"), html);
        assertTrue(html.contains("<td>&lt;b&gt;x&lt;/b&gt;</td>"), html);
        assertFalse(html.contains("| ---"), html);
    }

    @Test
    void shouldRejectCommandForNodeTheLabLacks() {
        BlockContext ctx = validating();
        String html = render("Text\n\n```cmd server\nip addr\n```\n", ctx);
        assertEquals(List.of("steps/01-a.md:6: lab.yml has no node 'server' (nodes: client, modem)"), messages(ctx));
        assertTrue(html.contains("class=\"block-error\""), html);
        assertFalse(html.contains("cmd-run"), html);
    }

    @Test
    void shouldRejectCommandForHiddenNodeButAllowSolutionThere() {
        BlockContext ctx = validating();
        render("```cmd modem\nip addr\n```\n\n```solution modem\ntc qdisc show\n```\n", ctx);
        assertEquals(1, ctx.problems().size(), messages(ctx).toString());
        assertTrue(
                messages(ctx).get(0).startsWith("steps/01-a.md:4: node 'modem' is hidden"),
                messages(ctx).toString());
        assertEquals(List.of(new BlockContext.SolutionRef("modem", List.of("tc qdisc show"))), ctx.solutions());
    }

    @Test
    void shouldRequireANodeOnCommandAndSolution() {
        BlockContext ctx = validating();
        render("```cmd\nip addr\n```\n\n```solution\nip addr\n```\n", ctx);
        assertEquals(
                List.of(
                        "steps/01-a.md:4: a cmd block needs a node, e.g. ```cmd client",
                        "steps/01-a.md:8: a solution block needs a node, e.g. ```solution client"),
                messages(ctx));
    }

    @Test
    void shouldRejectEmptyCommand() {
        BlockContext ctx = validating();
        render("```cmd client\n\n```\n", ctx);
        assertEquals(
                List.of("steps/01-a.md:4: empty cmd block: write the command(s) between the fences"), messages(ctx));
    }

    @Test
    void shouldHideSolutionInDetails() {
        BlockContext ctx = validating();
        String html = render(
                "```solution client\ntc qdisc replace dev eth1 root tbf rate 1mbit burst 8kb latency 50ms\n```\n", ctx);
        assertTrue(html.startsWith("<details class=\"solution\"><summary>Show solution (on client)</summary>"), html);
        assertTrue(
                html.contains("data-command=\"tc qdisc replace dev eth1 root tbf rate 1mbit burst 8kb latency 50ms\""),
                html);
    }

    @Test
    void shouldRenderCheckAsDisabledButtonWithDefaultAndExplicitIds() {
        BlockContext ctx = validating();
        String html = render(
                "```check\nmeasure:\n  - name: q\n    node: client\n    qdisc: { dev: eth1 }\nexpect:\n  - value: q.root.kind\n    equals: tbf\n```\n\n```check\nid: shaped\ntitle: it is shaped\nmeasure:\n  - name: q\n    node: client\n    qdisc: { dev: eth1 }\nexpect:\n  - value: q.root.kind\n    equals: tbf\n```\n",
                ctx);
        assertEquals(List.of(), ctx.problems());
        assertTrue(
                html.contains(
                        "<button type=\"button\" class=\"check-run\" data-step=\"a\" data-check=\"a-check-1\" disabled=\"disabled\">Check</button>"),
                html);
        assertTrue(html.contains("data-check=\"shaped\" disabled=\"disabled\">Check: it is shaped</button>"), html);
        assertTrue(html.contains("<div class=\"check-result\" aria-live=\"polite\"></div>"), html);
        assertFalse(html.contains("measure"), "the spec itself stays on the server: " + html);
        assertEquals(
                List.of("a-check-1", "shaped"),
                ctx.checks().stream().map(BlockContext.CheckRef::id).toList());
    }

    @Test
    void shouldReportCheckThatIsNotYamlAtItsFileLine() {
        BlockContext ctx = validating();
        render("Intro\n\n```check\nmeasure:\n  - name: up\n   bad: [\n```\n", ctx);
        assertEquals(1, ctx.problems().size(), messages(ctx).toString());
        FileProblem problem = ctx.problems().get(0);
        assertTrue(problem.line() >= 8 && problem.line() <= 10, "YAML error located in the file: " + problem);
        assertTrue(problem.message().contains("not valid YAML"), problem.toString());
    }

    @Test
    void shouldRejectCheckAndSolutionInLessonIntro() {
        BlockContext ctx = context(null, Map.of(), null);
        render(
                "```check\nmeasure:\n  - name: q\n    node: client\n    qdisc: { dev: eth1 }\nexpect:\n  - value: q.root.kind\n    equals: tbf\n```\n\n```solution client\nip a\n```\n",
                ctx);
        assertEquals(
                List.of(
                        "steps/01-a.md:4: check blocks belong in a step file (steps/*.md), not in lesson.md",
                        "steps/01-a.md:14: solution blocks belong in a step file (steps/*.md), not in lesson.md"),
                messages(ctx));
    }

    @Test
    void shouldRenderQuizAsFormWithoutAnswersBeforeAnswering() {
        BlockContext ctx = validating();
        String html = render(QUIZ, ctx);
        assertEquals(List.of(), ctx.problems());
        assertTrue(
                html.contains(
                        "<form class=\"quiz\" id=\"quiz-unit\" method=\"post\" action=\"/lessons/demo/quizzes/unit\">"),
                html);
        assertTrue(html.contains("<input type=\"radio\" name=\"choice\" value=\"0\" id=\"quiz-unit-0\" />"), html);
        assertTrue(html.contains("<label for=\"quiz-unit-1\">32 <code>kbit</code></label>"), html);
        assertFalse(html.contains("kilobytes are bytes"), "no explanation before answering: " + html);
        assertFalse(html.contains("is-right"), html);
    }

    @Test
    void shouldShowOnlyTheChosenExplanationAfterAWrongAnswer() {
        BlockContext ctx = context(null, Map.of("unit", new QuizAttempt("unit", List.of(1), false)), "a");
        String html = render(QUIZ, ctx);
        assertTrue(html.contains("value=\"1\" id=\"quiz-unit-1\" checked=\"checked\""), html);
        assertTrue(html.contains("would be bits"), html);
        assertFalse(html.contains("kilobytes are bytes"), "the right answer is not revealed: " + html);
        assertTrue(html.contains("Not quite."), html);
    }

    @Test
    void shouldShowEveryExplanationAfterARightAnswer() {
        BlockContext ctx = context(null, Map.of("unit", new QuizAttempt("unit", List.of(0), true)), "a");
        String html = render(QUIZ, ctx);
        assertTrue(html.contains("kilobytes are bytes") && html.contains("would be bits"), html);
        assertTrue(html.contains("Correct!"), html);
    }

    @Test
    void shouldReportQuizWithoutCorrectAnswerAndWithoutWhy() {
        BlockContext ctx = validating();
        String html =
                render("```quiz\nid: q\nquestion: Which?\noptions:\n  - text: a\n    why: no\n  - text: b\n```\n", ctx);
        assertEquals(
                List.of(
                        "steps/01-a.md:8: options: no item is marked 'correct: true'",
                        "steps/01-a.md:10: options[1]: missing required key 'why' (the explanation the learner reads after choosing"
                                + " this option (after a right answer, of every option))"),
                messages(ctx));
        assertTrue(html.contains("block-error"), html);
    }

    @Test
    void shouldReportDuplicateQuizIds() {
        BlockContext ctx = validating();
        render(QUIZ + "\n" + QUIZ, ctx);
        assertEquals(1, ctx.problems().size(), messages(ctx).toString());
        assertTrue(
                messages(ctx).get(0).contains("quiz id 'unit' is already used at steps/01-a.md:4"),
                messages(ctx).toString());
    }

    @Test
    void shouldRenderHintAsCollapsedMarkdown() {
        BlockContext ctx = validating();
        String html = render("```hint\nTry **tbf** with `burst 32kb`.\n```\n", ctx);
        assertEquals(List.of(), ctx.problems());
        assertTrue(html.contains("<details class=\"hint\">"), html);
        assertTrue(html.contains("<p>Try <strong>tbf</strong> with <code>burst 32kb</code>.</p>"), html);
    }

    @Test
    void shouldValidateBlocksNestedInAHintAtTheirFileLine() {
        BlockContext ctx = validating();
        render("```hint\nText\n\n~~~cmd nowhere\nip a\n~~~\n```\n", ctx);
        assertEquals(List.of("steps/01-a.md:7: lab.yml has no node 'nowhere' (nodes: client, modem)"), messages(ctx));
    }

    @Test
    void shouldReportUnknownBlockTypeButKeepDisplayLanguages() {
        BlockContext ctx = validating();
        String html = render("```quizz\nid: x\n```\n\n```yaml\na: 1\n```\n\n```\nplain\n```\n", ctx);
        assertEquals(
                List.of("steps/01-a.md:4: unknown block type 'quizz'; lesson blocks are check, cmd, hint, prose, quiz, "
                        + "solution (for plain code use e.g. ```text)"),
                messages(ctx));
        assertTrue(html.contains("<code class=\"language-yaml\">a: 1"), html);
    }

    @Test
    void shouldReportBadAttributesAndNodesOnBlocksThatTakeNone() {
        BlockContext ctx = validating();
        render("```cmd client when=x extra\nip a\n```\n\n```hint client\nx\n```\n", ctx);
        assertEquals(
                List.of(
                        "steps/01-a.md:4: unknown attribute 'when'; blocks take if=<feature> and unless=<feature>",
                        "steps/01-a.md:4: unexpected 'extra' after node 'client'; write attributes as key=value",
                        "steps/01-a.md:8: a hint block takes no node, found 'client'"),
                messages(ctx));
    }

    @Test
    void shouldReportGuardsOnUndeclaredOrMalformedFeatures() {
        BlockContext ctx = validating();
        render("```cmd client if=qdisc:netem\nip a\n```\n\n```cmd client unless=cake\nip a\n```\n", ctx);
        assertEquals(
                List.of(
                        "steps/01-a.md:4: guard feature 'qdisc:netem' is not listed in lesson.md's requires or uses",
                        "steps/01-a.md:8: 'cake' is not a kernel feature name like qdisc:cake or classifier:matchall"),
                messages(ctx));
    }

    @Test
    void shouldPickTheGuardedBlockTheKernelCanRun() {
        String markdown = "```cmd client if=qdisc:cake\ntc qdisc add dev eth1 root cake\n```\n\n"
                + "```cmd client unless=qdisc:cake\ntc qdisc add dev eth1 root tbf rate 1mbit burst 8kb latency 50ms\n```\n";
        String withCake = render(markdown, context(f -> f.equals("qdisc:cake"), Map.of(), "a"));
        String withoutCake = render(markdown, context(f -> false, Map.of(), "a"));
        assertTrue(withCake.contains("root cake") && !withCake.contains("root tbf"), withCake);
        assertTrue(withoutCake.contains("root tbf") && !withoutCake.contains("root cake"), withoutCake);
    }

    @Test
    void shouldShowGuardedProseAsMarkdownOnlyOnTheKernelItsGuardAllows() {
        String markdown = "Shape the gw.\n\n```prose if=qdisc:cake\nCAKE keeps the ping at **2 ms**.\n\n"
                + "Its AQM drops early.\n```\n\n```prose unless=qdisc:cake\nThe tbf keeps it at `13 ms`:\n\n"
                + "~~~text\nqdisc tbf 8003: root\n~~~\n```\n";
        BlockContext validating = validating();
        render(markdown, validating);
        assertEquals(List.of(), validating.problems());
        String withCake = render(markdown, context(f -> f.equals("qdisc:cake"), Map.of(), "a"));
        String withoutCake = render(markdown, context(f -> false, Map.of(), "a"));
        assertEquals(
                "<p>Shape the gw.</p>\n<p>CAKE keeps the ping at <strong>2 ms</strong>.</p>\n<p>Its AQM drops early.</p>\n",
                withCake);
        assertEquals(
                "<p>Shape the gw.</p>\n<p>The tbf keeps it at <code>13 ms</code>:</p>\n"
                        + "<pre><code class=\"language-text\">qdisc tbf 8003: root\n</code></pre>\n",
                withoutCake);
    }

    @Test
    void shouldPickAGuardedTextBlockLikeALessonBlock() {
        String markdown = "```text if=qdisc:cake\nqdisc cake 8001: root\n```\n\n"
                + "```text unless=qdisc:cake\nqdisc tbf 8003: root\n```\n";
        String withCake = render(markdown, context(f -> true, Map.of(), "a"));
        String withoutCake = render(markdown, context(f -> false, Map.of(), "a"));
        assertTrue(withCake.contains("qdisc cake") && !withCake.contains("qdisc tbf"), withCake);
        assertTrue(withoutCake.contains("qdisc tbf") && !withoutCake.contains("qdisc cake"), withoutCake);
        BlockContext ctx = validating();
        render("```text if=qdisc:netem\nx\n```\n", ctx);
        assertEquals(
                List.of("steps/01-a.md:4: guard feature 'qdisc:netem' is not listed in lesson.md's requires or uses"),
                messages(ctx));
    }

    @Test
    void shouldRefuseProseWithoutAGuardEmptyOrHoldingLessonBlocks() {
        BlockContext ctx = validating();
        String html = render(
                "```prose\nText.\n```\n\n```prose if=qdisc:cake\n```\n\n"
                        + "```prose if=qdisc:cake\nRun:\n\n~~~cmd client\nip a\n~~~\n```\n",
                ctx);
        assertEquals(
                List.of(
                        "steps/01-a.md:4: a prose block without if= or unless= shows on every kernel: guard it"
                                + " (```prose if=qdisc:cake) or write its text without the fences",
                        "steps/01-a.md:8: empty prose block",
                        "steps/01-a.md:14: a prose block holds text only, not a cmd block: end the prose block"
                                + " before it and give the cmd block the same guard"),
                messages(ctx));
        assertTrue(ctx.commandLines().isEmpty(), ctx.commandLines().toString());
        assertFalse(html.contains("cmd-run"), html);
    }

    @Test
    void shouldWarnOfAColonBeforeABlockOnlySomeKernelsShowAtItsFileLine() {
        BlockContext ctx = validating();
        render(
                "Intro.\n\nWith CAKE, one line\ndoes it:\n\n```cmd client if=qdisc:cake\ntc qdisc add dev eth1 root cake\n```\n\n"
                        + "Then measure.\n",
                ctx);
        assertEquals(List.of(), ctx.problems());
        assertEquals(
                List.of("steps/01-a.md:7: this sentence ends in ':', but the cmd block after it (line 9) is shown only"
                        + " when the kernel has qdisc:cake, and on a kernel without qdisc:cake the sentence is followed"
                        + " by a paragraph (line 13). Guard the sentence too (put it in a ```prose if=qdisc:cake"
                        + " block), or give the block a fallback right after it (```cmd ... unless=qdisc:cake)"),
                ctx.warnings().stream().map(FileProblem::toString).toList());
        BlockContext shown = context(f -> true, Map.of(), "a");
        render("Run:\n\n```cmd client if=qdisc:cake\nip a\n```\n", shown);
        assertEquals(List.of(), shown.warnings(), "only validation, which keeps every block, lints the text");
    }

    @Test
    void shouldWarnOfAColonInAHintBeforeABlockAKernelHides() {
        BlockContext ctx = validating();
        render("```hint\nFirst\n\n**Try:**\n\n~~~text unless=qdisc:cake\nx\n~~~\n```\n", ctx);
        assertEquals(List.of(), ctx.problems());
        assertEquals(
                List.of("steps/01-a.md:7: this sentence ends in ':', but the text block after it (line 9) is shown"
                        + " only when the kernel lacks qdisc:cake, and on a kernel with qdisc:cake nothing follows the"
                        + " sentence. Guard the sentence too (put it in a ```prose unless=qdisc:cake block), or give"
                        + " the block a fallback right after it (```text ... if=qdisc:cake)"),
                ctx.warnings().stream().map(FileProblem::toString).toList());
    }

    @Test
    void shouldNotWarnOfAColonWhateverTheKernelShowsAfterIt() {
        BlockContext ctx = validating();
        render(
                // a twin; a sentence guarded like its block; an unguarded block; prose that goes on in prose
                "Shape it:\n\n```cmd client if=qdisc:cake\nip a\n```\n\n```cmd client unless=qdisc:cake\nip b\n```\n\n"
                        + "```prose if=qdisc:cake\nWith CAKE:\n```\n\n```cmd client if=qdisc:cake\nip c\n```\n\n"
                        + "Look:\n\n```cmd client\nip d\n```\n\n"
                        + "```prose unless=qdisc:cake\nThe fallback:\n\nis a tbf.\n```\n\nEnd.\n\n"
                        // one sentence per kernel before a block both introduce; a guarded sentence before its twin's
                        // block
                        + "```prose unless=qdisc:cake\nThe tbf's output:\n```\n\n```prose if=qdisc:cake\nCAKE's:\n```\n\n"
                        + "```text\nqdisc ...\n```\n\n"
                        + "```prose unless=qdisc:cake\nWithout CAKE:\n```\n\n```cmd client if=qdisc:cake\nip e\n```\n\n"
                        + "```cmd client unless=qdisc:cake\nip f\n```\n",
                ctx);
        assertEquals(List.of(), ctx.problems());
        assertEquals(List.of(), ctx.warnings());
    }

    @Test
    void shouldKeepCheckIdsStableWhenAGuardDropsAnEarlierCheck() {
        BlockContext ctx = context(f -> false, Map.of(), "a");
        render("```check if=qdisc:cake\nmeasure: []\n```\n\n```check\nmeasure: []\n```\n", ctx);
        assertEquals(
                List.of("a-check-2"),
                ctx.checks().stream().map(BlockContext.CheckRef::id).toList());
    }

    @Test
    void shouldEscapeRawHtmlEverywhere() {
        BlockContext ctx = validating();
        String html = render(
                "Hello <script>alert(1)</script>\n\n<div onclick=\"x()\">block</div>\n\n"
                        + "[link](javascript:alert(2))\n\n```cmd client\necho \"<script>alert(3)</script>\"\n```\n\n"
                        + "```quiz\nid: x\nquestion: Is <script>alert(4)</script> safe?\noptions:\n  - text: <b>yes</b>\n    correct: true\n"
                        + "    why: <img src=x onerror=alert(5)>\n  - text: no\n    why: no\n```\n",
                context(null, Map.of("x", new QuizAttempt("x", List.of(0), true)), "a"));
        assertFalse(html.contains("<script"), html);
        assertFalse(html.contains("<div onclick"), html);
        assertFalse(html.contains("<img"), html);
        assertFalse(html.contains("<b>"), html);
        assertFalse(html.contains("href=\"javascript:"), html);
        assertTrue(html.contains("&lt;script&gt;alert(1)&lt;/script&gt;"), html);
        assertTrue(html.contains("&lt;img src=x onerror=alert(5)&gt;"), html);
    }

    private static final String QUIZ = """
            ```quiz
            id: unit
            question: What is `32kb`?
            options:
              - text: 32 kilobytes
                correct: true
                why: In tc, kilobytes are bytes times 1024.
              - text: 32 `kbit`
                why: That would be bits, written kbit.
            ```
            """;
}
