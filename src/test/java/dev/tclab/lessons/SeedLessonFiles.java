package dev.tclab.lessons;

import dev.tclab.lab.KernelCapabilities;
import dev.tclab.lab.Topology;
import dev.tclab.lab.TopologyParser;
import dev.tclab.yaml.YamlNode;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * A deliberately small reader of a lesson folder on the test classpath, for the seed lessons' self-test only: the
 * lab.yml, the parameters' choices, and each step's fenced {@code check} and {@code solution} blocks with their
 * node and {@code if=}/{@code unless=} guards. It does not validate or render anything; the lesson loader does
 * that. When the loader is on main, the self-test should take its blocks from the loader's model instead.
 */
final class SeedLessonFiles {

    private static final Pattern FENCE_OPEN = Pattern.compile("^```(\\S+)(.*)$");
    private static final Pattern PLACEHOLDER = Pattern.compile("\\{\\{\\s*([A-Za-z0-9_-]+)\\s*}}");

    /** A fenced block; {@code line} is the file line of its first body line. */
    record Block(String type, String node, Map<String, String> guards, String body, int line) {

        boolean shownOn(KernelCapabilities kernel) {
            String needs = guards.get("if");
            String lacks = guards.get("unless");
            return (needs == null || kernel.supports(needs)) && (lacks == null || !kernel.supports(lacks));
        }
    }

    record Step(String file, List<Block> blocks) {

        List<Block> of(String type, KernelCapabilities kernel) {
            return blocks.stream().filter(b -> b.type().equals(type) && b.shownOn(kernel)).toList();
        }
    }

    record Lesson(String slug, Topology topology, Map<String, List<String>> choices, List<Step> steps) {
    }

    private SeedLessonFiles() {
    }

    static Lesson read(String slug) throws Exception {
        Path dir = folder(slug);
        Topology topology = TopologyParser.parse(slug + "/lab.yml", Files.readString(dir.resolve("lab.yml")));
        List<Step> steps = new ArrayList<>();
        try (Stream<Path> files = Files.list(dir.resolve("steps"))) {
            for (Path file : files.filter(f -> f.toString().endsWith(".md")).sorted().toList()) {
                String display = slug + "/steps/" + file.getFileName();
                steps.add(new Step(display, blocks(Files.readString(file, StandardCharsets.UTF_8))));
            }
        }
        return new Lesson(slug, topology, choices(Files.readString(dir.resolve("lesson.md"))), steps);
    }

    /** Replaces {@code {{name}}} with the chosen values; an unknown name fails loudly. */
    static String substitute(String text, Map<String, String> params) {
        Matcher m = PLACEHOLDER.matcher(text);
        StringBuilder out = new StringBuilder();
        while (m.find()) {
            String value = params.get(m.group(1));
            if (value == null) {
                throw new IllegalStateException("parameter {{" + m.group(1) + "}} is not declared");
            }
            m.appendReplacement(out, Matcher.quoteReplacement(value));
        }
        return m.appendTail(out).toString();
    }

    private static Path folder(String slug) throws URISyntaxException {
        var url = SeedLessonFiles.class.getClassLoader().getResource("lessons/" + slug + "/lesson.md");
        if (url == null) {
            throw new IllegalStateException("no lessons/" + slug + "/lesson.md on the classpath");
        }
        return Path.of(url.toURI()).getParent();
    }

    private static Map<String, List<String>> choices(String lessonMd) throws Exception {
        String[] parts = lessonMd.split("(?m)^---\\s*$", 3);
        YamlNode front = YamlNode.parse("lesson.md", parts[1], 2);
        Map<String, List<String>> choices = new LinkedHashMap<>();
        YamlNode parameters = front.get("parameters");
        if (parameters != null) {
            parameters.entries().forEach((name, spec) ->
                    choices.put(name, spec.get("choices").items().stream().map(YamlNode::text).toList()));
        }
        return choices;
    }

    private static List<Block> blocks(String markdown) throws IOException {
        List<Block> blocks = new ArrayList<>();
        String[] lines = markdown.split("\n", -1);
        for (int i = 0; i < lines.length; i++) {
            Matcher open = FENCE_OPEN.matcher(lines[i]);
            if (!open.matches()) {
                continue;
            }
            String[] words = open.group(2).strip().isEmpty() ? new String[0] : open.group(2).strip().split("\\s+");
            String node = null;
            Map<String, String> guards = new LinkedHashMap<>();
            for (String word : words) {
                int eq = word.indexOf('=');
                if (eq > 0) {
                    guards.put(word.substring(0, eq), word.substring(eq + 1));
                } else {
                    node = word;
                }
            }
            StringBuilder body = new StringBuilder();
            int first = i + 2;
            for (i++; i < lines.length && !lines[i].startsWith("```"); i++) {
                body.append(lines[i]).append('\n');
            }
            blocks.add(new Block(open.group(1), node, guards, body.toString(), first));
        }
        return blocks;
    }
}
