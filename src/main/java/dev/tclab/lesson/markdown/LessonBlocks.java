package dev.tclab.lesson.markdown;

import com.vladsch.flexmark.util.ast.Block;
import com.vladsch.flexmark.util.sequence.BasedSequence;
import dev.tclab.quiz.OptionOrder;
import dev.tclab.quiz.Quiz;
import java.util.List;

/** The AST nodes that lesson fenced blocks become; {@link LessonBlockRenderer} turns them into HTML. */
public final class LessonBlocks {

    private LessonBlocks() {}

    abstract static class LessonBlock extends Block {
        LessonBlock(BasedSequence chars) {
            super(chars);
        }

        @Override
        public BasedSequence[] getSegments() {
            return EMPTY_SEGMENTS;
        }
    }

    /** A command the learner can run in a node's terminal, one line at a time. */
    static final class Command extends LessonBlock {
        final String node;
        final List<String> lines;

        Command(BasedSequence chars, String node, List<String> lines) {
            super(chars);
            this.node = node;
            this.lines = List.copyOf(lines);
        }
    }

    /** Commands that solve the step on a node, hidden until the learner asks. */
    static final class Solution extends LessonBlock {
        final String node;
        final List<String> lines;
        final boolean interactive;

        Solution(BasedSequence chars, String node, List<String> lines, boolean interactive) {
            super(chars);
            this.node = node;
            this.lines = List.copyOf(lines);
            this.interactive = interactive;
        }
    }

    /** A check of the step, graded by the platform; only its id and title reach the page. */
    static final class Check extends LessonBlock {
        final String stepId;
        final String id;
        final String title;

        Check(BasedSequence chars, String stepId, String id, String title) {
            super(chars);
            this.stepId = stepId;
            this.id = id;
            this.title = title;
        }
    }

    /** A quiz, rendered as a form that the server grades. */
    static final class QuizForm extends LessonBlock {
        /** The quiz with its options in the learner's order. */
        final Quiz quiz;

        final OptionOrder order;

        QuizForm(BasedSequence chars, Quiz quiz, OptionOrder order) {
            super(chars);
            this.quiz = quiz;
            this.order = order;
        }
    }

    /** A block whose body is markdown, parsed on its own: its content is this node's children. */
    abstract static class Nested extends LessonBlock {
        /** The file line the body starts on; the children's offsets count from there. */
        final int contentLine;

        Nested(BasedSequence chars, int contentLine) {
            super(chars);
            this.contentLine = contentLine;
        }
    }

    /** Markdown collapsed until asked for. */
    static final class Hint extends Nested {
        Hint(BasedSequence chars, int contentLine) {
            super(chars, contentLine);
        }
    }

    /** Text shown only on the kernels its guard allows, rendered like the text around it. */
    static final class Prose extends Nested {
        Prose(BasedSequence chars, int contentLine) {
            super(chars, contentLine);
        }
    }

    /** A block that could not be used, shown to the author in place of the block. */
    static final class Invalid extends LessonBlock {
        final String type;
        final List<String> messages;

        Invalid(BasedSequence chars, String type, List<String> messages) {
            super(chars);
            this.type = type;
            this.messages = List.copyOf(messages);
        }
    }
}
