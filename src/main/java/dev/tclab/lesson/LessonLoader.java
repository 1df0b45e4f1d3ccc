package dev.tclab.lesson;

import com.fasterxml.jackson.databind.JsonNode;
import dev.tclab.quiz.Quiz;
import dev.tclab.runtime.topology.Topology;
import dev.tclab.runtime.topology.TopologyException;
import dev.tclab.runtime.topology.TopologyParser;
import dev.tclab.yaml.FileProblem;
import dev.tclab.yaml.YamlDocument;
import dev.tclab.yaml.YamlSchema;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Reads one lesson folder (lesson.md, steps/*.md, lab.yml) and validates all of it. It never throws for a bad
 * lesson: every problem, with file and line, ends up in {@link Lesson#problems()}.
 */
public final class LessonLoader {

    public static final Pattern SLUG = Pattern.compile("[a-z0-9][a-z0-9-]{0,62}");
    /** {@code 01-baseline.md}: an optional ordering number, then the step id. */
    static final Pattern STEP_FILE = Pattern.compile("(?:\\d+[-_])?(.+)\\.md");

    static final YamlSchema LESSON_SCHEMA = YamlSchema.load("lesson.schema.json");
    static final YamlSchema STEP_SCHEMA = YamlSchema.load("step.schema.json");

    /** lesson.md's front matter as written (docs/schema/lesson.schema.json). */
    record LessonFile(
            String title,
            String summary,
            String level,
            String minutes,
            List<String> requires,
            List<String> uses,
            List<String> prerequisites,
            Map<String, ParameterFile> parameters) {}

    /** A parameter as written: plain choices, or tuples of one value per name. */
    record ParameterFile(List<JsonNode> choices, String description, List<String> names) {}

    /** A step's front matter as written (docs/schema/step.schema.json). */
    record StepFile(String title, String id) {}

    private final CheckBlockValidator checkValidator;

    public LessonLoader(CheckBlockValidator checkValidator) {
        this.checkValidator = checkValidator;
    }

    /**
     * @param dir     the lesson folder
     * @param display how the folder is named in problems, e.g. {@code lessons/tbf-basics}
     */
    public Lesson load(Path dir, String display) {
        String slug = folderName(dir);
        List<FileProblem> problems = new ArrayList<>();
        if (!SLUG.matcher(slug).matches()) {
            problems.add(new FileProblem(
                    display,
                    0,
                    "",
                    "the folder name is the lesson's slug: lowercase letters, digits "
                            + "and '-', starting with a letter or digit"));
        }
        List<FileProblem> read = new ArrayList<>();
        String introFile = display + "/lesson.md";
        MarkdownFile intro = readMarkdown(dir.resolve("lesson.md"), introFile, read);
        // Null while lesson.md's front matter cannot be read: then no {{parameter}} is reported as undeclared.
        LessonMeta declared = intro.frontMatter() == null ? null : readMeta(intro.frontMatter(), read);
        LessonMeta meta = declared == null ? LessonMeta.unreadable(slug) : declared;
        Topology topology = readTopology(dir.resolve("lab.yml"), display + "/lab.yml", problems);
        List<Step> steps = readSteps(dir.resolve("steps"), display + "/steps", declared, read);
        read.addAll(undeclaredParameters(intro.file(), intro.body(), intro.bodyLine(), declared));
        problems.addAll(read);
        Lesson lesson = new Lesson(
                slug, meta, introFile, intro.body(), intro.bodyLine(), steps, topology, List.of(), problems, List.of());
        LessonView validated = LessonRenderer.render(
                lesson, Parameters.firstChoices(meta.parameters()), null, Map.of(), checkValidator);
        problems.addAll(validated.problems());
        // Every other choice is rendered too; a problem only some choices have is reported once.
        List<Map<String, String>> choices = Parameters.everyChoice(meta.parameters());
        for (Map<String, String> values : choices.subList(1, choices.size())) {
            LessonRenderer.render(lesson, values, null, Map.of(), checkValidator).problems().stream()
                    .filter(p -> !problems.contains(p))
                    .map(p -> withChoice(p, values))
                    .forEach(problems::add);
        }
        problems.sort(Comparator.comparing(FileProblem::file).thenComparingInt(FileProblem::line));
        List<String> quizIds = validated.quizzes().stream().map(Quiz::id).toList();
        List<FileProblem> warnings = new ArrayList<>(validated.warnings());
        if (topology != null) {
            warnings.addAll(LessonWarnings.of(topology, validated));
        }
        warnings.sort(Comparator.comparing(FileProblem::file).thenComparingInt(FileProblem::line));
        return new Lesson(
                slug, meta, introFile, intro.body(), intro.bodyLine(), steps, topology, quizIds, problems, warnings);
    }

    private static String folderName(Path dir) {
        String name =
                dir.getFileName() == null ? dir.toString() : dir.getFileName().toString();
        return name.endsWith("/") ? name.substring(0, name.length() - 1) : name;
    }

    private MarkdownFile readMarkdown(Path path, String file, List<FileProblem> problems) {
        if (!Files.isRegularFile(path)) {
            problems.add(
                    new FileProblem(file, 0, "", "missing: every lesson folder has a lesson.md with front matter"));
            return new MarkdownFile(file, null, "", 1);
        }
        String text = readText(path, file, problems);
        return text == null ? new MarkdownFile(file, null, "", 1) : MarkdownFile.read(file, text, problems);
    }

    private static String readText(Path path, String file, List<FileProblem> problems) {
        try {
            return StandardCharsets.UTF_8
                    .newDecoder()
                    .decode(ByteBuffer.wrap(Files.readAllBytes(path)))
                    .toString();
        } catch (CharacterCodingException e) {
            problems.add(new FileProblem(file, 0, "", "is not UTF-8 text"));
        } catch (IOException e) {
            problems.add(new FileProblem(file, 0, "", "cannot be read: " + e.getMessage()));
        }
        return null;
    }

    /** The lesson's front matter, or null (its problems recorded) when it does not fit the schema. */
    private static LessonMeta readMeta(YamlDocument front, List<FileProblem> problems) {
        List<FileProblem> invalid = LESSON_SCHEMA.problems(front);
        if (!invalid.isEmpty()) {
            problems.addAll(invalid);
            return null;
        }
        LessonFile lesson = front.bind("", LessonFile.class);
        Map<String, Parameter> parameters = new LinkedHashMap<>();
        if (lesson.parameters() != null) {
            lesson.parameters()
                    .forEach((name, spec) ->
                            readParameter(front, name, spec, problems).ifPresent(p -> parameters.put(name, p)));
        }
        return new LessonMeta(
                lesson.title(),
                lesson.summary(),
                lesson.level() == null ? "beginner" : lesson.level(),
                lesson.minutes() == null ? 0 : Integer.parseInt(lesson.minutes()),
                orEmpty(lesson.requires()),
                orEmpty(lesson.uses()),
                orEmpty(lesson.prerequisites()),
                parameters);
    }

    private static List<String> orEmpty(List<String> list) {
        return list == null ? List.of() : list;
    }

    private static FileProblem withChoice(FileProblem p, Map<String, String> values) {
        return new FileProblem(p.file(), p.line(), p.field(), p.message() + " (with parameters " + values + ")");
    }

    /**
     * A parameter: plain choices, or a related one ({@code names: [a, b]} and {@code choices: [[12, 8], [10, 10]]},
     * one value per name).
     */
    private static Optional<Parameter> readParameter(
            YamlDocument front, String name, ParameterFile spec, List<FileProblem> problems) {
        String at = YamlDocument.child("/parameters", name);
        String description = spec.description() == null ? "" : spec.description();
        if (spec.names() == null) {
            return Optional.of(new Parameter(
                    name, spec.choices().stream().map(JsonNode::asText).toList(), description));
        }
        List<List<String>> tuples = new ArrayList<>();
        for (int i = 0; i < spec.choices().size(); i++) {
            JsonNode choice = spec.choices().get(i);
            if (choice.size() != spec.names().size()) {
                problems.add(front.problem(
                        at + "/choices/" + i,
                        "each choice is a list of " + spec.names().size() + " values, one for each of "
                                + spec.names()));
                continue;
            }
            List<String> tuple = new ArrayList<>();
            choice.forEach(v -> tuple.add(v.asText()));
            tuples.add(tuple);
        }
        return tuples.size() < spec.choices().size()
                ? Optional.empty()
                : Optional.of(new Parameter(name, spec.names(), tuples, description));
    }

    private static Topology readTopology(Path path, String file, List<FileProblem> problems) {
        if (!Files.isRegularFile(path)) {
            problems.add(new FileProblem(file, 0, "", "missing: every lesson has a lab.yml describing its lab"));
            return null;
        }
        try {
            return TopologyParser.parse(file, Files.readString(path));
        } catch (TopologyException e) {
            problems.addAll(e.problems());
        } catch (IOException e) {
            problems.add(new FileProblem(file, 0, "", "cannot be read: " + e.getMessage()));
        }
        return null;
    }

    private List<Step> readSteps(Path dir, String display, LessonMeta meta, List<FileProblem> problems) {
        if (!Files.isDirectory(dir)) {
            problems.add(new FileProblem(
                    display, 0, "", "missing: a lesson has its steps as steps/01-name.md, steps/02-name.md, ..."));
            return List.of();
        }
        List<Path> files;
        try (Stream<Path> listing = Files.list(dir)) {
            files = listing.filter(Files::isRegularFile)
                    .filter(path -> !IgnoredFiles.isIgnored(folderName(path)))
                    .sorted(Comparator.comparing(LessonLoader::folderName))
                    .toList();
        } catch (IOException e) {
            problems.add(new FileProblem(display, 0, "", "cannot be listed: " + e.getMessage()));
            return List.of();
        }
        List<String> stepNames = new ArrayList<>();
        List<Step> steps = new ArrayList<>();
        Set<String> ids = new HashSet<>();
        for (Path path : files) {
            String name = folderName(path);
            String file = display + "/" + name;
            Matcher m = STEP_FILE.matcher(name);
            if (!m.matches()) {
                problems.add(new FileProblem(
                        file,
                        0,
                        "",
                        "only .md step files belong in steps/ (editor backups and "
                                + "hidden files are ignored; move other files to the lesson folder)"));
                continue;
            }
            stepNames.add(name);
            Step step = readStep(path, file, m.group(1), meta, problems);
            if (step != null && !ids.add(step.id())) {
                problems.add(new FileProblem(file, 1, "id", "step id '" + step.id() + "' is used by another step"));
            } else if (step != null) {
                steps.add(step);
            }
        }
        StepOrder.problems(display, stepNames).forEach(problems::add);
        if (files.isEmpty()) {
            problems.add(new FileProblem(display, 0, "", "no steps: add steps/01-name.md"));
        }
        return steps;
    }

    private static Step readStep(Path path, String file, String fileId, LessonMeta meta, List<FileProblem> problems) {
        String text = readText(path, file, problems);
        if (text == null) {
            return null;
        }
        problems.addAll(undeclaredParameters(file, text, 1, meta));
        MarkdownFile md = MarkdownFile.read(file, text, problems);
        if (md.frontMatter() == null) {
            return new Step(fileId, fileId, file, md.body(), md.bodyLine());
        }
        List<FileProblem> invalid = STEP_SCHEMA.problems(md.frontMatter());
        if (!invalid.isEmpty()) {
            problems.addAll(invalid);
            return new Step(fileId, fileId, file, md.body(), md.bodyLine());
        }
        StepFile step = md.frontMatter().bind("", StepFile.class);
        if (step.id() == null && !SLUG.matcher(fileId).matches()) {
            problems.add(md.frontMatter()
                    .problem(
                            "",
                            "'" + fileId + "' is not valid: a step id is lowercase letters,"
                                    + " digits and '-' (rename the file or set id:)"));
        }
        return new Step(step.id() == null ? fileId : step.id(), step.title(), file, md.body(), md.bodyLine());
    }

    /** Uses of parameters lesson.md does not declare; none are reported while lesson.md's front matter is unreadable. */
    private static List<FileProblem> undeclaredParameters(String file, String text, int firstLine, LessonMeta meta) {
        if (meta == null) {
            return List.of();
        }
        return Parameters.uses(text).stream()
                .filter(use -> !Parameters.names(meta.parameters()).contains(use.name()))
                .map(use -> new FileProblem(
                        file,
                        firstLine + use.line() - 1,
                        "",
                        "parameter '{{" + use.name() + "}}' is not declared under 'parameters' in lesson.md"))
                .toList();
    }
}
