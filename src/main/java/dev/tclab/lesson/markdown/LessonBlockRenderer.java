package dev.tclab.lesson.markdown;

import com.vladsch.flexmark.html.HtmlWriter;
import com.vladsch.flexmark.html.renderer.NodeRenderer;
import com.vladsch.flexmark.html.renderer.NodeRendererContext;
import com.vladsch.flexmark.html.renderer.NodeRendererFactory;
import com.vladsch.flexmark.html.renderer.NodeRenderingHandler;
import com.vladsch.flexmark.util.data.DataHolder;
import dev.tclab.quiz.Quiz;
import dev.tclab.quiz.QuizAttempt;
import dev.tclab.quiz.QuizGrader;
import java.util.List;
import java.util.Set;

/**
 * HTML for lesson blocks. Every author or learner text goes through {@link HtmlWriter#text} or the escaping
 * markdown renderer, so nothing is emitted unescaped. Quiz answers and explanations are emitted only after the
 * learner has answered, and then only as {@link dev.tclab.quiz.QuizGrader} would explain them.
 */
class LessonBlockRenderer implements NodeRenderer {

    @Override
    public Set<NodeRenderingHandler<?>> getNodeRenderingHandlers() {
        return Set.of(
                new NodeRenderingHandler<>(LessonBlocks.Command.class, this::command),
                new NodeRenderingHandler<>(LessonBlocks.Solution.class, this::solution),
                new NodeRenderingHandler<>(LessonBlocks.Check.class, this::check),
                new NodeRenderingHandler<>(LessonBlocks.QuizForm.class, this::quiz),
                new NodeRenderingHandler<>(LessonBlocks.Hint.class, this::hint),
                new NodeRenderingHandler<>(LessonBlocks.Prose.class, this::prose),
                new NodeRenderingHandler<>(LessonBlocks.Invalid.class, this::invalid));
    }

    private void command(LessonBlocks.Command node, NodeRendererContext ctx, HtmlWriter html) {
        commandBox(html, "cmd", node.node, node.lines, true);
    }

    private void solution(LessonBlocks.Solution node, NodeRendererContext ctx, HtmlWriter html) {
        html.attr("class", "solution").withAttr().tag("details");
        html.tag("summary").text("Show solution (on " + node.node + ")").closeTag("summary");
        commandBox(html, "cmd cmd-solution", node.node, node.lines, node.interactive);
        html.closeTag("details").line();
    }

    private void commandBox(HtmlWriter html, String cssClass, String node, List<String> lines, boolean runnable) {
        String command = String.join("\n", lines);
        html.attr("class", cssClass).withAttr().tag("div").line();
        html.attr("class", "cmd-bar").withAttr().tag("div");
        html.attr("class", "cmd-node").withAttr().tag("span").text(node + " $").closeTag("span");
        if (runnable) {
            html.attr("type", "button")
                    .attr("class", "cmd-run")
                    .attr("data-node", node)
                    .attr("data-command", command)
                    .attr("aria-label", "Run in the terminal of " + node)
                    .withAttr()
                    .tag("button")
                    .text("Run")
                    .closeTag("button");
        }
        html.attr("type", "button")
                .attr("class", "cmd-copy")
                .attr("data-command", command)
                .attr("aria-label", "Copy the command")
                .withAttr()
                .tag("button")
                .text("Copy")
                .closeTag("button");
        html.closeTag("div").line();
        html.tag("pre")
                .tag("code")
                .text(command)
                .closeTag("code")
                .closeTag("pre")
                .line();
        html.closeTag("div").line();
    }

    private void check(LessonBlocks.Check node, NodeRendererContext ctx, HtmlWriter html) {
        html.attr("class", "check")
                .attr("id", "check-" + node.id)
                .withAttr()
                .tag("div")
                .line();
        // Disabled until the lab script takes over: without JavaScript there is no way to run a check.
        html.attr("type", "button")
                .attr("class", "check-run")
                .attr("data-step", node.stepId)
                .attr("data-check", node.id)
                .attr("disabled", "disabled")
                .withAttr()
                .tag("button")
                .text(node.title == null ? "Check" : "Check: " + node.title)
                .closeTag("button")
                .line();
        html.attr("class", "check-result")
                .attr("aria-live", "polite")
                .withAttr()
                .tag("div")
                .closeTag("div")
                .line();
        html.closeTag("div").line();
    }

    private void quiz(LessonBlocks.QuizForm node, NodeRendererContext ctx, HtmlWriter html) {
        BlockContext context = LessonMarkdown.CONTEXT.get(ctx.getDocument());
        Quiz quiz = node.quiz;
        // Kept as the author's option indexes; the form shows and posts positions in the learner's order.
        QuizAttempt kept = context.lesson().attempts().get(quiz.id());
        QuizAttempt attempt = kept == null
                ? null
                : new QuizAttempt(kept.quizId(), node.order.toShown(kept.choices()), kept.correct());
        String formId = "quiz-" + quiz.id();
        html.attr("class", "quiz")
                .attr("id", formId)
                .attr("method", "post")
                .attr("action", "/lessons/" + context.lesson().slug() + "/quizzes/" + quiz.id())
                .withAttr()
                .tag("form")
                .line();
        html.tag("fieldset").line();
        html.attr("class", "quiz-question")
                .withAttr()
                .tag("legend")
                .raw(InlineMarkdown.html(quiz.question()))
                .closeTag("legend")
                .line();
        html.attr("class", "quiz-kind")
                .withAttr()
                .tag("p")
                .text(quiz.multiple() ? "Pick all that apply." : "Pick one.")
                .closeTag("p")
                .line();
        html.attr("class", "quiz-options").withAttr().tag("ul").line();
        for (int i = 0; i < quiz.options().size(); i++) {
            option(html, quiz, i, attempt, formId);
        }
        html.closeTag("ul").line();
        html.closeTag("fieldset").line();
        html.attr("class", "quiz-actions").withAttr().tag("div");
        html.attr("type", "submit")
                .withAttr()
                .tag("button")
                .text("Check answer")
                .closeTag("button");
        verdict(html, quiz, attempt);
        html.closeTag("div").line();
        html.closeTag("form").line();
    }

    private void option(HtmlWriter html, Quiz quiz, int i, QuizAttempt attempt, String formId) {
        Quiz.Option option = quiz.options().get(i);
        boolean chosen = attempt != null && attempt.choices().contains(i);
        boolean explained = attempt != null && (attempt.correct() || chosen);
        String inputId = formId + "-" + i;
        String css = "quiz-option" + (chosen ? " is-chosen" : "")
                + (explained ? (option.correct() ? " is-right" : " is-wrong") : "");
        html.attr("class", css).withAttr().tag("li");
        html.attr("type", quiz.multiple() ? "checkbox" : "radio")
                .attr("name", "choice")
                .attr("value", String.valueOf(i))
                .attr("id", inputId);
        if (chosen) {
            html.attr("checked", "checked");
        }
        html.withAttr().tagVoid("input");
        html.attr("for", inputId)
                .withAttr()
                .tag("label")
                .raw(InlineMarkdown.html(option.text()))
                .closeTag("label");
        if (explained) {
            html.attr("class", "quiz-why").withAttr().tag("p");
            html.tag("strong")
                    .text(option.correct() ? "Right: " : "Not right: ")
                    .closeTag("strong");
            html.raw(InlineMarkdown.html(option.why())).closeTag("p");
        }
        html.closeTag("li").line();
    }

    private void verdict(HtmlWriter html, Quiz quiz, QuizAttempt attempt) {
        html.attr("class", "quiz-result" + (attempt == null ? "" : attempt.correct() ? " is-correct" : " is-incorrect"))
                .attr("role", "status")
                .withAttr()
                .tag("p");
        if (attempt != null) {
            html.text(QuizGrader.message(quiz, attempt.choices()));
        }
        html.closeTag("p");
    }

    private void hint(LessonBlocks.Hint node, NodeRendererContext ctx, HtmlWriter html) {
        html.attr("class", "hint").withAttr().tag("details").line();
        html.tag("summary").text("Hint").closeTag("summary").line();
        html.attr("class", "hint-body").withAttr().tag("div").line();
        ctx.renderChildren(node);
        html.closeTag("div").line();
        html.closeTag("details").line();
    }

    /** Guarded text: its markdown, as if it stood in the file without the fences. */
    private void prose(LessonBlocks.Prose node, NodeRendererContext ctx, HtmlWriter html) {
        ctx.renderChildren(node);
    }

    private void invalid(LessonBlocks.Invalid node, NodeRendererContext ctx, HtmlWriter html) {
        html.attr("class", "block-error")
                .attr("role", "alert")
                .withAttr()
                .tag("div")
                .line();
        html.tag("p")
                .text("This " + node.type + " block is broken:")
                .closeTag("p")
                .line();
        html.tag("ul");
        node.messages.forEach(m -> html.tag("li").text(m).closeTag("li"));
        html.closeTag("ul").line();
        html.closeTag("div").line();
    }

    static class Factory implements NodeRendererFactory {
        @Override
        public NodeRenderer apply(DataHolder options) {
            return new LessonBlockRenderer();
        }
    }
}
