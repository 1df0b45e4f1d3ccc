package dev.tclab.lesson;

import dev.tclab.yaml.FileProblem;
import dev.tclab.lab.Topology;
import dev.tclab.lab.TopologyException;
import dev.tclab.lab.TopologyParser;
import dev.tclab.quiz.Quiz;
import dev.tclab.yaml.YamlChecks;
import dev.tclab.yaml.YamlNode;
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
    static final Pattern FEATURE = Pattern.compile("[a-z]+:[a-z0-9_-]+");
    static final Pattern PARAMETER_NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");
    /** {@code 01-baseline.md}: an optional ordering number, then the step id. */
    static final Pattern STEP_FILE = Pattern.compile("(?:\\d+[-_])?(.+)\\.md");
    /** The keys read; tests hold docs/schema/lesson.schema.json and step.schema.json to the same lists. */
    static final List<String> LESSON_KEYS = List.of("title", "summary", "level", "minutes", "requires", "uses",
            "prerequisites", "parameters");
    static final List<String> STEP_KEYS = List.of("title", "id");
    static final List<String> PARAMETER_KEYS = List.of("choices", "description", "names");

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
            problems.add(new FileProblem(display, 0, "", "the folder name is the lesson's slug: lowercase letters, digits "
                    + "and '-', starting with a letter or digit"));
        }
        YamlChecks checks = new YamlChecks();
        String introFile = display + "/lesson.md";
        MarkdownFile intro = readMarkdown(dir.resolve("lesson.md"), introFile, checks);
        LessonMeta meta = intro.frontMatter() == null ? LessonMeta.unreadable(slug) : readMeta(intro.frontMatter(), checks);
        LessonMeta declared = intro.frontMatter() == null ? null : meta;
        Topology topology = readTopology(dir.resolve("lab.yml"), display + "/lab.yml", problems);
        List<Step> steps = readSteps(dir.resolve("steps"), display + "/steps", declared, checks);
        undeclaredParameters(intro.file(), intro.body(), intro.bodyLine(), declared).forEach(checks::add);
        problems.addAll(checks.problems());
        Lesson lesson = new Lesson(slug, meta, introFile, intro.body(), intro.bodyLine(), steps, topology, List.of(), problems);
        LessonView validated = LessonRenderer.render(lesson, Parameters.firstChoices(meta.parameters()), null, Map.of(),
                checkValidator);
        problems.addAll(validated.problems());
        // Every other choice is rendered too; a problem only some choices have is reported once.
        List<Map<String, String>> choices = Parameters.everyChoice(meta.parameters());
        for (Map<String, String> values : choices.subList(1, choices.size())) {
            LessonRenderer.render(lesson, values, null, Map.of(), checkValidator).problems().stream()
                    .filter(p -> !problems.contains(p)).map(p -> withChoice(p, values)).forEach(problems::add);
        }
        problems.sort(Comparator.comparing(FileProblem::file).thenComparingInt(FileProblem::line));
        List<String> quizIds = validated.quizzes().stream().map(Quiz::id).toList();
        return new Lesson(slug, meta, introFile, intro.body(), intro.bodyLine(), steps, topology, quizIds, problems);
    }

    private static String folderName(Path dir) {
        String name = dir.getFileName() == null ? dir.toString() : dir.getFileName().toString();
        return name.endsWith("/") ? name.substring(0, name.length() - 1) : name;
    }

    private MarkdownFile readMarkdown(Path path, String file, YamlChecks checks) {
        if (!Files.isRegularFile(path)) {
            checks.add(new FileProblem(file, 0, "", "missing: every lesson folder has a lesson.md with front matter"));
            return new MarkdownFile(file, null, "", 1);
        }
        String text = readText(path, file, checks);
        return text == null ? new MarkdownFile(file, null, "", 1) : MarkdownFile.read(file, text, checks);
    }

    private static String readText(Path path, String file, YamlChecks checks) {
        try {
            return StandardCharsets.UTF_8.newDecoder().decode(ByteBuffer.wrap(Files.readAllBytes(path))).toString();
        } catch (CharacterCodingException e) {
            checks.add(new FileProblem(file, 0, "", "is not UTF-8 text"));
        } catch (IOException e) {
            checks.add(new FileProblem(file, 0, "", "cannot be read: " + e.getMessage()));
        }
        return null;
    }

    private static LessonMeta readMeta(YamlNode front, YamlChecks checks) {
        checks.onlyKeys(front, LESSON_KEYS);
        String title = checks.text(front, "title", "", true);
        String summary = checks.text(front, "summary", "", true);
        String level = checks.text(front, "level", "beginner", false);
        checks.require(front.get("level"), level, LessonMeta.LEVELS::contains, "one of " + String.join(", ", LessonMeta.LEVELS));
        int minutes = readMinutes(front, checks);
        List<String> requires = features(front, "requires", checks);
        List<String> uses = features(front, "uses", checks);
        List<String> prerequisites = texts(front, "prerequisites", checks);
        prerequisites.forEach(p -> checks.require(front.get("prerequisites"), p, SLUG.asMatchPredicate(), "a lesson slug"));
        return new LessonMeta(title, summary, level, minutes, requires, uses, prerequisites, readParameters(front, checks));
    }

    private static int readMinutes(YamlNode front, YamlChecks checks) {
        String minutes = checks.text(front, "minutes", "0", false);
        if (minutes.matches("\\d{1,4}")) {
            return Integer.parseInt(minutes);
        }
        checks.add(front.get("minutes"), "minutes is a whole number, e.g. 40; found '" + minutes + "'");
        return 0;
    }

    private static List<String> features(YamlNode front, String key, YamlChecks checks) {
        List<String> features = texts(front, key, checks);
        features.forEach(f -> checks.require(front.get(key), f, FEATURE.asMatchPredicate(),
                "a kernel feature name like qdisc:tbf or classifier:matchall"));
        return features;
    }

    private static List<String> texts(YamlNode parent, String key, YamlChecks checks) {
        List<String> texts = new ArrayList<>();
        for (YamlNode item : checks.list(parent, key, false)) {
            String text = checks.scalar(item, null);
            if (text != null) {
                texts.add(text);
            }
        }
        return texts;
    }

    private static FileProblem withChoice(FileProblem p, Map<String, String> values) {
        return new FileProblem(p.file(), p.line(), p.field(), p.message() + " (with parameters " + values + ")");
    }

    private static Map<String, Parameter> readParameters(YamlNode front, YamlChecks checks) {
        Map<String, Parameter> parameters = new LinkedHashMap<>();
        YamlNode map = checks.map(front, "parameters", false);
        if (map == null) {
            return parameters;
        }
        map.entries().forEach((name, spec) -> {
            checks.require(spec, name, PARAMETER_NAME.asMatchPredicate(), "letters, digits and '_', not starting with a digit");
            if (!spec.isMap()) {
                checks.add(spec, "a parameter is a mapping: { choices: [...], description: ... }");
                return;
            }
            checks.onlyKeys(spec, PARAMETER_KEYS);
            String description = checks.text(spec, "description", "", false);
            if (spec.get("names") != null) {
                readTuples(name, spec, description, checks).ifPresent(p -> parameters.put(name, p));
                return;
            }
            List<String> choices = texts(spec, "choices", checks);
            if (spec.get("choices") == null || choices.isEmpty()) {
                checks.add(spec, "a parameter needs a non-empty 'choices' list");
                return;
            }
            parameters.put(name, new Parameter(name, choices, description));
        });
        return parameters;
    }

    /** A related parameter: {@code names: [a, b]} and {@code choices: [[12, 8], [10, 10]]}, one value per name. */
    private static Optional<Parameter> readTuples(String name, YamlNode spec, String description,
                                                            YamlChecks checks) {
        List<String> names = texts(spec, "names", checks);
        names.forEach(n -> checks.require(spec.get("names"), n, PARAMETER_NAME.asMatchPredicate(),
                "letters, digits and '_', not starting with a digit"));
        if (names.isEmpty() || new HashSet<>(names).size() != names.size()) {
            checks.add(spec.get("names"), "'names' lists the names each choice sets, each once, e.g. [a_rate, b_rate]");
            return Optional.empty();
        }
        List<List<String>> tuples = new ArrayList<>();
        for (YamlNode choice : checks.list(spec, "choices", true)) {
            if (!choice.isList() || choice.items().size() != names.size()) {
                checks.add(choice, "each choice is a list of " + names.size() + " values, one for each of " + names);
                continue;
            }
            List<String> tuple = new ArrayList<>();
            choice.items().forEach(v -> tuple.add(checks.scalar(v, "")));
            tuples.add(tuple);
        }
        if (tuples.isEmpty()) {
            checks.add(spec, "a parameter needs a non-empty 'choices' list");
            return Optional.empty();
        }
        return Optional.of(new Parameter(name, names, tuples, description));
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

    private List<Step> readSteps(Path dir, String display, LessonMeta meta, YamlChecks checks) {
        if (!Files.isDirectory(dir)) {
            checks.add(new FileProblem(display, 0, "", "missing: a lesson has its steps as steps/01-name.md, steps/02-name.md, ..."));
            return List.of();
        }
        List<Path> files;
        try (Stream<Path> listing = Files.list(dir)) {
            files = listing.filter(Files::isRegularFile).filter(path -> !IgnoredFiles.isIgnored(folderName(path)))
                    .sorted(Comparator.comparing(LessonLoader::folderName)).toList();
        } catch (IOException e) {
            checks.add(new FileProblem(display, 0, "", "cannot be listed: " + e.getMessage()));
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
                checks.add(new FileProblem(file, 0, "", "only .md step files belong in steps/ (editor backups and "
                        + "hidden files are ignored; move other files to the lesson folder)"));
                continue;
            }
            stepNames.add(name);
            Step step = readStep(path, file, m.group(1), meta, checks);
            if (step != null && !ids.add(step.id())) {
                checks.add(new FileProblem(file, 1, "id", "step id '" + step.id() + "' is used by another step"));
            } else if (step != null) {
                steps.add(step);
            }
        }
        StepOrder.problems(display, stepNames).forEach(checks::add);
        if (files.isEmpty()) {
            checks.add(new FileProblem(display, 0, "", "no steps: add steps/01-name.md"));
        }
        return steps;
    }

    private static Step readStep(Path path, String file, String fileId, LessonMeta meta, YamlChecks checks) {
        String text = readText(path, file, checks);
        if (text == null) {
            return null;
        }
        undeclaredParameters(file, text, 1, meta).forEach(checks::add);
        MarkdownFile md = MarkdownFile.read(file, text, checks);
        if (md.frontMatter() == null) {
            return new Step(fileId, fileId, file, md.body(), md.bodyLine());
        }
        checks.onlyKeys(md.frontMatter(), STEP_KEYS);
        String title = checks.text(md.frontMatter(), "title", fileId, true);
        String id = checks.text(md.frontMatter(), "id", fileId, false);
        checks.require(md.frontMatter().get("id") == null ? md.frontMatter() : md.frontMatter().get("id"), id,
                SLUG.asMatchPredicate(), "a step id is lowercase letters, digits and '-' (rename the file or set id:)");
        return new Step(id, title, file, md.body(), md.bodyLine());
    }

    /** Uses of parameters lesson.md does not declare; none are reported while lesson.md's front matter is unreadable. */
    private static List<FileProblem> undeclaredParameters(String file, String text, int firstLine, LessonMeta meta) {
        if (meta == null) {
            return List.of();
        }
        return Parameters.uses(text).stream()
                .filter(use -> !Parameters.names(meta.parameters()).contains(use.name()))
                .map(use -> new FileProblem(file, firstLine + use.line() - 1, "", "parameter '{{" + use.name()
                        + "}}' is not declared under 'parameters' in lesson.md"))
                .toList();
    }
}
