package dev.tclab.lesson.markdown;

import com.fasterxml.jackson.databind.JsonNode;
import com.vladsch.flexmark.ast.FencedCodeBlock;
import com.vladsch.flexmark.parser.Parser;
import com.vladsch.flexmark.parser.block.NodePostProcessor;
import com.vladsch.flexmark.parser.block.NodePostProcessorFactory;
import com.vladsch.flexmark.util.ast.Document;
import com.vladsch.flexmark.util.ast.Node;
import com.vladsch.flexmark.util.ast.NodeTracker;
import com.vladsch.flexmark.util.data.MutableDataSet;
import dev.tclab.quiz.OptionOrder;
import dev.tclab.quiz.Quiz;
import dev.tclab.quiz.QuizParser;
import dev.tclab.runtime.topology.Topology;
import dev.tclab.yaml.YamlDocument;
import dev.tclab.yaml.YamlException;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Replaces the fenced blocks whose info string names a lesson block type (cmd, check, quiz, hint, solution, prose)
 * by lesson block nodes, validating them against the lesson, and drops blocks whose guard this host fails (code
 * blocks shown as-is, such as ```text, included).
 */
class LessonBlockPostProcessor extends NodePostProcessor {

    private static final Pattern FEATURE = Pattern.compile("[a-z]+:[a-z0-9_-]+");

    private final Document document;
    private final BlockContext context;
    private final int firstLine;

    LessonBlockPostProcessor(Document document) {
        this.document = document;
        this.context = LessonMarkdown.CONTEXT.get(document);
        this.firstLine = LessonMarkdown.FIRST_LINE.get(document);
    }

    @Override
    public void process(NodeTracker state, Node node) {
        if (context == null || !(node instanceof FencedCodeBlock fence)) {
            return;
        }
        int line = firstLine + fence.getStartLineNumber();
        BlockInfo info = BlockInfo.parse(fence.getInfo().toString());
        if (!info.isLessonBlock()) {
            if (!info.isDisplayLanguage()) {
                context.problem(
                        line,
                        "unknown block type '" + info.type() + "'; lesson blocks are "
                                + String.join(
                                        ", ",
                                        BlockInfo.LESSON_BLOCKS.stream()
                                                .sorted()
                                                .toList()) + " (for plain code use e.g. ```text)");
            } else if (info.isGuarded()) {
                displayGuarded(state, fence, info, line);
            }
            return;
        }
        int problemsBefore = context.problems().size();
        info.problems().forEach(message -> context.problem(line, message));
        checkGuards(info, line);
        int checkNumber = info.type().equals("check") ? context.nextCheckNumber() : 0;
        boolean inProse = LessonMarkdown.IN_PROSE.get(document);
        if (inProse) {
            context.problem(
                    line,
                    "a prose block holds text only, not a " + info.type() + " block: end the prose block before it"
                            + " and give the " + info.type() + " block the same guard");
        }
        boolean shown = context.shows(info);
        Node replacement = shown && !inProse ? build(info, fence, line, checkNumber) : null;
        if (context.problems().size() > problemsBefore) {
            List<String> messages = context
                    .problems()
                    .subList(problemsBefore, context.problems().size())
                    .stream()
                    .map(p -> "line " + p.line() + ": " + p.message())
                    .toList();
            replacement = new LessonBlocks.Invalid(fence.getChars(), info.type(), messages);
        }
        if (replacement != null) {
            context.guarded(replacement, info, line);
            fence.insertBefore(replacement);
            state.nodeAddedWithDescendants(replacement);
        }
        fence.unlink();
        state.nodeRemoved(fence);
    }

    /** A code block shown as-is (```text, say) with if= or unless=: kept or dropped as a lesson block would be. */
    private void displayGuarded(NodeTracker state, FencedCodeBlock fence, BlockInfo info, int line) {
        checkGuards(info, line);
        if (context.shows(info)) {
            context.guarded(fence, info, line);
        } else {
            fence.unlink();
            state.nodeRemoved(fence);
        }
    }

    private Node build(BlockInfo info, FencedCodeBlock fence, int line, int checkNumber) {
        String content = fence.getContentChars().toString();
        int contentLine = line + 1;
        return switch (info.type()) {
            case "cmd" -> command(info, fence, content, line);
            case "solution" -> solution(info, fence, content, line);
            case "check" -> check(info, fence, content, contentLine, checkNumber, line);
            case "quiz" -> quiz(info, fence, content, contentLine, line);
            case "prose" -> prose(info, fence, content, contentLine, line);
            default -> hint(info, fence, content, contentLine, line);
        };
    }

    private Node command(BlockInfo info, FencedCodeBlock fence, String content, int line) {
        Topology.Node node = requireNode(info, line, false);
        List<String> lines = commandLines(content, line, "cmd");
        if (node == null) {
            return null;
        }
        locate(content, line, false, node.name());
        return new LessonBlocks.Command(fence.getChars(), node.name(), lines);
    }

    private Node solution(BlockInfo info, FencedCodeBlock fence, String content, int line) {
        requireStep("solution", line);
        Topology.Node node = requireNode(info, line, true);
        List<String> lines = commandLines(content, line, "solution");
        if (node == null) {
            return null;
        }
        context.solutions().add(new BlockContext.SolutionRef(node.name(), lines));
        locate(content, line, true, node.name());
        return new LessonBlocks.Solution(fence.getChars(), node.name(), lines, !node.hidden());
    }

    private Node check(BlockInfo info, FencedCodeBlock fence, String yaml, int contentLine, int number, int line) {
        requireStep("check", line);
        refuseNode(info, line);
        context.lesson()
                .checkValidator()
                .validate(context.file(), contentLine, yaml)
                .forEach(p -> context.problem(
                        p.line(),
                        p.field() == null || p.field().isEmpty() ? p.message() : p.field() + ": " + p.message()));
        String id = null;
        String title = null;
        try {
            JsonNode root = YamlDocument.parse(context.file(), "the check block", yaml, contentLine)
                    .root();
            id = root.path("id").isValueNode() ? root.get("id").asText() : null;
            title = root.path("title").isValueNode() ? root.get("title").asText() : null;
        } catch (YamlException e) {
            // the validator has reported it; the check keeps its default id
        }
        String stepId = context.stepOrIntro();
        id = id == null || id.isBlank() ? stepId + "-check-" + number : id;
        context.claimId("check", id, line);
        context.checks().add(new BlockContext.CheckRef(stepId, id, title, context.file(), contentLine, yaml));
        return new LessonBlocks.Check(fence.getChars(), stepId, id, title);
    }

    private Node quiz(BlockInfo info, FencedCodeBlock fence, String yaml, int contentLine, int line) {
        refuseNode(info, line);
        QuizParser.Result parsed = QuizParser.parse(context.file(), contentLine, yaml);
        parsed.problems()
                .forEach(p -> context.problem(
                        p.line(),
                        p.field() == null || p.field().isEmpty() ? p.message() : p.field() + ": " + p.message()));
        if (parsed.quiz() == null) {
            return null;
        }
        context.claimId("quiz", parsed.quiz().id(), line);
        OptionOrder order = context.lesson().optionOrders().apply(parsed.quiz());
        Quiz shown = order.apply(parsed.quiz());
        context.quizzes().add(shown);
        context.optionOrders().put(shown.id(), order);
        return new LessonBlocks.QuizForm(fence.getChars(), shown, order);
    }

    private Node hint(BlockInfo info, FencedCodeBlock fence, String markdown, int contentLine, int line) {
        refuseNode(info, line);
        if (markdown.isBlank()) {
            context.problem(line, "empty hint block");
            return null;
        }
        LessonBlocks.Hint hint = new LessonBlocks.Hint(fence.getChars(), contentLine);
        hint.takeChildren(parseNested(markdown, contentLine, false));
        return hint;
    }

    private Node prose(BlockInfo info, FencedCodeBlock fence, String markdown, int contentLine, int line) {
        refuseNode(info, line);
        if (!info.isGuarded()) {
            context.problem(
                    line,
                    "a prose block without if= or unless= shows on every kernel: guard it (```prose"
                            + " if=qdisc:cake) or write its text without the fences");
        }
        if (markdown.isBlank()) {
            context.problem(line, "empty prose block");
            return null;
        }
        LessonBlocks.Prose prose = new LessonBlocks.Prose(fence.getChars(), contentLine);
        prose.takeChildren(parseNested(markdown, contentLine, true));
        return prose;
    }

    /** A block's markdown body, parsed as part of this file (its own blocks validated at their file lines). */
    private Document parseNested(String markdown, int contentLine, boolean prose) {
        MutableDataSet options = new MutableDataSet(document);
        options.set(LessonMarkdown.FIRST_LINE, contentLine);
        options.set(LessonMarkdown.IN_PROSE, prose || LessonMarkdown.IN_PROSE.get(document));
        return Parser.builder(options).build().parse(markdown);
    }

    private List<String> commandLines(String content, int line, String type) {
        List<String> lines = content.lines()
                .map(String::stripTrailing)
                .filter(l -> !l.isBlank())
                .toList();
        if (lines.isEmpty()) {
            context.problem(line, "empty " + type + " block: write the command(s) between the fences");
        }
        return lines;
    }

    /** Records each non-blank line of a cmd or solution block with its file line (the fence is on {@code line}). */
    private void locate(String content, int line, boolean solution, String node) {
        List<String> lines = content.lines().toList();
        for (int i = 0; i < lines.size(); i++) {
            if (!lines.get(i).isBlank()) {
                context.commandLines()
                        .add(new BlockContext.CommandLine(
                                context.stepOrIntro(),
                                solution,
                                node,
                                context.file(),
                                line + 1 + i,
                                lines.get(i).strip()));
            }
        }
    }

    /** The node the block names, or null (with a problem) when it names none or one the lab lacks. */
    private Topology.Node requireNode(BlockInfo info, int line, boolean hiddenAllowed) {
        if (info.node() == null) {
            context.problem(line, "a " + info.type() + " block needs a node, e.g. ```" + info.type() + " client");
            return null;
        }
        Topology topology = context.lesson().topology();
        if (topology == null) {
            return new Topology.Node(info.node(), null, false, Map.of(), Map.of(), List.of(), List.of());
        }
        Topology.Node node = topology.nodes().get(info.node());
        if (node == null) {
            context.problem(
                    line,
                    "lab.yml has no node '" + info.node() + "' (nodes: "
                            + String.join(", ", topology.nodes().keySet()) + ")");
            return null;
        }
        if (node.hidden() && !hiddenAllowed) {
            context.problem(
                    line,
                    "node '" + info.node() + "' is hidden in lab.yml, so the learner has no terminal to run "
                            + "this in; use one of " + String.join(", ", topology.interactiveNodes()));
            return null;
        }
        return node;
    }

    private void refuseNode(BlockInfo info, int line) {
        if (info.node() != null) {
            context.problem(line, "a " + info.type() + " block takes no node, found '" + info.node() + "'");
        }
    }

    private void requireStep(String type, int line) {
        if (context.stepId() == null) {
            context.problem(line, type + " blocks belong in a step file (steps/*.md), not in lesson.md");
        }
    }

    private void checkGuards(BlockInfo info, int line) {
        for (String feature : new String[] {info.ifFeature(), info.unlessFeature()}) {
            if (feature == null) {
                continue;
            }
            if (!FEATURE.matcher(feature).matches()) {
                context.problem(
                        line, "'" + feature + "' is not a kernel feature name like qdisc:cake or classifier:matchall");
            } else if (!context.lesson().guardFeatures().contains(feature)) {
                context.problem(line, "guard feature '" + feature + "' is not listed in lesson.md's requires or uses");
            }
        }
    }

    static class Factory extends NodePostProcessorFactory {
        Factory() {
            super(false);
            addNodes(FencedCodeBlock.class);
        }

        @Override
        public NodePostProcessor apply(Document document) {
            return new LessonBlockPostProcessor(document);
        }
    }
}
