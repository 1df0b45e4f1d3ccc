package dev.tclab.lesson;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Per-learner parameter values and their substitution into lesson text. */
public final class Parameters {

    /** {@code {{name}}}, blanks inside the braces allowed. */
    static final Pattern USE = Pattern.compile("\\{\\{\\s*([^{}]*?)\\s*}}");

    /** A {@code {{name}}} in a text, with the text line it is on (1-based). */
    public record Use(String name, int line) {}

    private Parameters() {}

    /**
     * The learner's value for every parameter: a choice seeded by (learner, lesson, parameter), so a learner
     * always gets the same value and neighbours in a class usually get different ones.
     */
    public static Map<String, String> forLearner(String learner, String lesson, Map<String, Parameter> parameters) {
        Map<String, String> values = new LinkedHashMap<>();
        parameters.forEach((name, p) ->
                put(values, p, pick(learner, lesson, name, p.tuples().size())));
        return values;
    }

    /** Every parameter's first choice. */
    public static Map<String, String> firstChoices(Map<String, Parameter> parameters) {
        Map<String, String> values = new LinkedHashMap<>();
        parameters.values().forEach(p -> put(values, p, 0));
        return values;
    }

    /**
     * What validation substitutes: every parameter's first choice, then each other choice of each parameter with the
     * rest at their first, so a value that breaks a block only in some choices is found too.
     */
    public static List<Map<String, String>> everyChoice(Map<String, Parameter> parameters) {
        Map<String, String> first = firstChoices(parameters);
        List<Map<String, String>> all = new ArrayList<>(List.of(first));
        for (Parameter p : parameters.values()) {
            for (int i = 1; i < p.tuples().size(); i++) {
                Map<String, String> one = new LinkedHashMap<>(first);
                put(one, p, i);
                all.add(one);
            }
        }
        return all;
    }

    /** Every name a parameter declares: a tuple parameter declares each of its names. */
    public static Set<String> names(Map<String, Parameter> parameters) {
        Set<String> names = new LinkedHashSet<>();
        parameters.values().forEach(p -> names.addAll(p.names()));
        return names;
    }

    private static void put(Map<String, String> values, Parameter p, int choice) {
        for (int i = 0; i < p.names().size(); i++) {
            values.put(p.names().get(i), p.tuples().get(choice).get(i));
        }
    }

    /** The text with every declared {@code {{name}}} replaced; undeclared uses are left as written. */
    public static String substitute(String text, Map<String, String> values) {
        Matcher m = USE.matcher(text);
        StringBuilder out = new StringBuilder();
        while (m.find()) {
            String value = values.get(m.group(1));
            m.appendReplacement(out, Matcher.quoteReplacement(value == null ? m.group() : value));
        }
        m.appendTail(out);
        return out.toString();
    }

    /** Every {@code {{name}}} in the text, in order. */
    public static List<Use> uses(String text) {
        List<Use> uses = new ArrayList<>();
        Matcher m = USE.matcher(text);
        int line = 1;
        int counted = 0;
        while (m.find()) {
            line += countNewlines(text, counted, m.start());
            counted = m.start();
            uses.add(new Use(m.group(1), line));
        }
        return uses;
    }

    private static int countNewlines(String text, int from, int to) {
        int n = 0;
        for (int i = from; i < to; i++) {
            if (text.charAt(i) == '\n') {
                n++;
            }
        }
        return n;
    }

    private static int pick(String learner, String lesson, String name, int count) {
        try {
            MessageDigest sha = MessageDigest.getInstance("SHA-256");
            byte[] digest = sha.digest((learner + '\0' + lesson + '\0' + name).getBytes(StandardCharsets.UTF_8));
            return (int) Math.floorMod(ByteBuffer.wrap(digest).getLong(), (long) count);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every JDK", e);
        }
    }
}
