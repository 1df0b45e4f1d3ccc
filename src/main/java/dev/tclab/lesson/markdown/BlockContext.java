package dev.tclab.lesson.markdown;

import com.vladsch.flexmark.util.ast.Node;
import dev.tclab.lesson.CheckBlockValidator;
import dev.tclab.quiz.OptionOrder;
import dev.tclab.quiz.Quiz;
import dev.tclab.quiz.QuizAttempt;
import dev.tclab.runtime.topology.Topology;
import dev.tclab.yaml.FileProblem;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * What the lesson block extension needs to turn one markdown file's fenced blocks into lesson blocks, and what
 * it collects while doing so (problems, quizzes, checks, solutions).
 */
public final class BlockContext {

    /**
     * A check block of a step: its id, the title its button shows, and its spec as this learner gets it
     * (parameters substituted), located in the lesson file so spec errors can point there.
     */
    public record CheckRef(String stepId, String id, String title, String file, int line, String yaml) {}

    /** A solution block: commands to run, in order, on a node. */
    public record SolutionRef(String node, List<String> lines) {}

    /**
     * One line of a cmd or solution block, located in the lesson file so lints can point at it.
     *
     * @param stepId   the step it is in, {@code intro} for lesson.md
     * @param solution whether it is in a solution block (else a cmd block)
     */
    public record CommandLine(String stepId, boolean solution, String node, String file, int line, String text) {}

    /**
     * What is shared by every file of one lesson.
     *
     * @param slug          the lesson's slug (quiz forms post to it)
     * @param topology      the lesson's lab, or null when its lab.yml is broken (node names are then not checked)
     * @param guardFeatures features named in requires/uses; guards may only use these
     * @param kernelHas     whether the host has a feature; null while validating, when every guarded block is kept
     * @param attempts      the learner's latest quiz attempts by quiz id (empty while validating)
     * @param optionOrders  the order the learner sees each quiz's options in (the author's while validating)
     */
    public record Lesson(
            String slug,
            Topology topology,
            Set<String> guardFeatures,
            Predicate<String> kernelHas,
            CheckBlockValidator checkValidator,
            Map<String, QuizAttempt> attempts,
            Function<Quiz, OptionOrder> optionOrders) {}

    private final Lesson lesson;
    private final String file;
    private final String stepId;
    private final Map<String, String> seenIds;
    private final List<FileProblem> problems = new ArrayList<>();
    private final List<Quiz> quizzes = new ArrayList<>();
    private final Map<String, OptionOrder> optionOrders = new HashMap<>();
    private final List<CheckRef> checks = new ArrayList<>();
    private final List<SolutionRef> solutions = new ArrayList<>();
    private final List<CommandLine> commandLines = new ArrayList<>();
    private final List<FileProblem> warnings = new ArrayList<>();
    private final Map<Node, Guarded> guarded = new IdentityHashMap<>();
    private int checkBlocks;

    /** A block with if= or unless= as it stands in the document: its info string and its fence's file line. */
    record Guarded(BlockInfo info, int line) {}

    /**
     * @param stepId  the step this file is, or null for the lesson intro
     * @param seenIds quiz and check ids already used in the lesson, with where; shared by the lesson's files
     */
    public BlockContext(Lesson lesson, String file, String stepId, Map<String, String> seenIds) {
        this.lesson = lesson;
        this.file = file;
        this.stepId = stepId;
        this.seenIds = seenIds;
    }

    /** A context for one file whose ids need not be unique against other files. */
    public BlockContext(Lesson lesson, String file, String stepId) {
        this(lesson, file, stepId, new HashMap<>());
    }

    public List<FileProblem> problems() {
        return problems;
    }

    /** The file's quizzes, each with its options in the order this learner sees them. */
    public List<Quiz> quizzes() {
        return quizzes;
    }

    /** The order each of the file's quizzes shows its options in, by quiz id. */
    public Map<String, OptionOrder> optionOrders() {
        return optionOrders;
    }

    public List<CheckRef> checks() {
        return checks;
    }

    public List<SolutionRef> solutions() {
        return solutions;
    }

    /** Every line of the file's cmd and solution blocks on a node of the lab, in file order. */
    public List<CommandLine> commandLines() {
        return commandLines;
    }

    /** Warnings about the file's text (only while validating); see {@link ColonBeforeGuardedBlock}. */
    public List<FileProblem> warnings() {
        return warnings;
    }

    void warning(int line, String message) {
        warnings.add(new FileProblem(file, line, "", message));
    }

    /** Remembers that this node of the document is a block with if= or unless=. */
    void guarded(Node node, BlockInfo info, int line) {
        if (info.isGuarded()) {
            guarded.put(node, new Guarded(info, line));
        }
    }

    /** The guard of a node of the document, or null when nothing can hide it. */
    Guarded guardOf(Node node) {
        return guarded.get(node);
    }

    Lesson lesson() {
        return lesson;
    }

    String file() {
        return file;
    }

    String stepId() {
        return stepId;
    }

    /** The step id checks and command lines carry: the step's, or {@code intro} for lesson.md. */
    String stepOrIntro() {
        return stepId == null ? "intro" : stepId;
    }

    void problem(int line, String message) {
        problems.add(new FileProblem(file, line, "", message));
    }

    /** Records the id, or a problem when the lesson already used it. */
    void claimId(String kind, String id, int line) {
        String earlier = seenIds.putIfAbsent(kind + ":" + id, file + ":" + line);
        if (earlier != null) {
            problem(line, kind + " id '" + id + "' is already used at " + earlier + "; ids are unique in a lesson");
        }
    }

    /** Numbers this file's check blocks 1, 2, ... in file order, guarded ones included, so ids never shift. */
    int nextCheckNumber() {
        return ++checkBlocks;
    }

    /** Whether a block with these guards is shown on this host. */
    boolean shows(BlockInfo info) {
        Predicate<String> has = lesson.kernelHas();
        if (has == null) {
            return true;
        }
        return (info.ifFeature() == null || has.test(info.ifFeature()))
                && (info.unlessFeature() == null || !has.test(info.unlessFeature()));
    }
}
