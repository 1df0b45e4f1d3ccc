package dev.tclab.yaml;

import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.yaml.snakeyaml.error.Mark;
import org.yaml.snakeyaml.error.MarkedYAMLException;

/**
 * Turns a SnakeYAML syntax error into a problem an author can act on. SnakeYAML notices most mistakes after them
 * (an unclosed '[' shows up at the next line's ':'), so the problem points at the construct that is broken (the
 * parser's context mark) and names the line where parsing failed (its problem mark) when that is another line.
 * Messages SnakeYAML words in its own terms are said in plain words; any other message is passed on as it is.
 */
final class YamlSyntaxError {

    /** What the parser was reading, by its own wording: the subject of the sentence. */
    private static final Map<String, String> CONTEXTS = Map.of(
            "while parsing a flow sequence", "the list opened here with '['",
            "while parsing a flow mapping", "the mapping opened here with '{'",
            "while parsing a block sequence", "the list that starts here",
            "while parsing a block collection", "the list that starts here",
            "while parsing a block mapping", "the mapping that starts here",
            "while scanning a quoted scalar", "the quoted text opened here",
            "while scanning a double-quoted scalar", "the quoted text opened here",
            "while scanning a simple key", "the key here",
            "while scanning a block scalar", "the block of text that starts here");

    private static final String NO_CONTEXT = "this line";

    /** What went wrong, by SnakeYAML's wording: the rest of the sentence, and what the parser found instead. */
    private record Rule(Pattern problem, String predicate, int foundGroup) {}

    private static final List<Rule> RULES = List.of(
            new Rule(Pattern.compile("expected ',' or '[]}]', but got (.+)"), "is not closed", 1),
            new Rule(Pattern.compile("found unexpected end of stream"), "is never closed", 0),
            new Rule(
                    Pattern.compile("expected <block end>, but found .+"),
                    "continues with a line whose indentation does not fit it",
                    0),
            new Rule(
                    Pattern.compile("mapping values are not allowed here"),
                    "has a ': ' where no key may start: put the value in quotes, or check the indentation",
                    0),
            new Rule(
                    Pattern.compile("found character '\\\\t\\(TAB\\)' that cannot start any token.*"),
                    "is indented with a tab: YAML indents with spaces only",
                    0),
            new Rule(
                    Pattern.compile("found character '(.+)' that cannot start any token.*"),
                    "has '$1', which cannot start a value: put the value in quotes",
                    0),
            new Rule(
                    Pattern.compile("found undefined alias (.+)"),
                    "uses '*$1', but no anchor '&$1' is defined: put a value that starts with '*' in quotes",
                    0),
            new Rule(
                    Pattern.compile("found unknown escape character (.)\\(\\d+\\)"),
                    "has '\\\\$1', which is not an escape in double quotes: use single quotes, or write '\\\\\\\\'",
                    0),
            new Rule(Pattern.compile("could not find expected ':'"), "lacks the ':' that ends a key", 0));

    private YamlSyntaxError() {}

    /**
     * @param subject   what was parsed, e.g. {@code front matter}
     * @param firstLine the file line the YAML text starts on
     */
    static FileProblem describe(String file, String subject, MarkedYAMLException e, int firstLine) {
        String context = e.getContextMark() == null ? null : CONTEXTS.get(e.getContext());
        Mark at = context == null ? e.getProblemMark() : e.getContextMark();
        int line = at == null ? firstLine : at.getLine() + firstLine;
        String prefix = subject + " is not valid YAML: ";
        for (Rule rule : RULES) {
            Matcher matcher = rule.problem().matcher(String.valueOf(e.getProblem()));
            if (matcher.matches()) {
                String sentence =
                        (context == null ? NO_CONTEXT : context) + " " + matcher.replaceFirst(rule.predicate());
                String found = rule.foundGroup() == 0 ? null : token(matcher.group(rule.foundGroup()));
                return new FileProblem(
                        file,
                        line,
                        "",
                        prefix
                                + sentence
                                + where(found, e.getProblemMark(), at, firstLine)
                                + quoteSuggestion(e.getProblemMark()));
            }
        }
        String words = e.getContext() == null ? e.getProblem() : e.getContext() + ": " + e.getProblem();
        return new FileProblem(file, line, "", prefix + words + where(null, e.getProblemMark(), at, firstLine));
    }

    /** {@code (found ':' on line 7)}, {@code (found ']')}, {@code (on line 7)} or nothing. */
    private static String where(String found, Mark problem, Mark at, int firstLine) {
        boolean otherLine = problem != null && at != null && problem.getLine() != at.getLine();
        if (found == null && !otherLine) {
            return "";
        }
        String onLine = otherLine ? "on line " + (problem.getLine() + firstLine) : "";
        return " (" + (found == null ? onLine : ("found " + found + " " + onLine).strip()) + ")";
    }

    /**
     * In a flow mapping or list ({@code { value: c.by_id[1:10].rate }}) a plain value ends at a '[' or '{', so a
     * value path with brackets breaks it. When the parser stopped at a bracket glued to a value, this suggests the
     * same value in quotes; otherwise nothing.
     */
    private static String quoteSuggestion(Mark problem) {
        if (problem == null || problem.getBuffer() == null) {
            return "";
        }
        int[] text = problem.getBuffer();
        int at = problem.getIndex();
        if (at <= 0
                || at >= text.length
                || (text[at] != '[' && text[at] != '{')
                || " \t,:[{".indexOf(text[at - 1]) >= 0) {
            return "";
        }
        int start = at;
        while (start > 0 && " \t\n,[{".indexOf(text[start - 1]) < 0) {
            start--;
        }
        int end = at;
        int depth = 0;
        for (; end < text.length && text[end] != '\n'; end++) {
            int c = text[end];
            if (c == '[' || c == '{') {
                depth++;
            } else if ((c == ']' || c == '}') && depth-- == 0) {
                break;
            } else if (c == ',' && depth == 0) {
                break;
            }
        }
        String value = new String(text, start, end - start).strip();
        return ": a value with brackets inside '{ }' or '[ ]' must be quoted, e.g. \"" + value + "\"";
    }

    /** A parser token in an author's words, or null for the parser's internal ones. */
    private static String token(String token) {
        return switch (token) {
            case "<stream end>" -> "the end";
            case "<scalar>" -> "a value";
            default -> token.startsWith("<") || token.equals("?") ? null : "'" + token.replace("'", "") + "'";
        };
    }
}
