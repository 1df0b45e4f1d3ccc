package dev.tclab.yaml;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class YamlSyntaxErrorTest {

    private static String problem(String yaml) {
        return assertThrows(YamlException.class, () -> YamlDocument.parse("lesson.md", "front matter", yaml, 2))
                .problems()
                .get(0)
                .toString();
    }

    @Test
    void shouldPointAtTheUnclosedListAndNameTheLineWhereParsingFailed() {
        assertEquals(
                "lesson.md:6: front matter is not valid YAML: the list opened here with '[' is not closed "
                        + "(found ':' on line 7)",
                problem("title: Demo\nsummary: s\nlevel: x\nminutes: 3\nrequires: [qdisc:tbf\nuses: [x]"));
    }

    @Test
    void shouldSayWhatTheParserFoundWhenItIsOnTheSameLine() {
        assertEquals(
                "lesson.md:2: front matter is not valid YAML: the mapping opened here with '{' is not closed (found ']')",
                problem("a: {b: 1]"));
    }

    @Test
    void shouldSuggestQuotingAValuePathWithBracketsInAFlowMapping() {
        assertEquals(
                "lesson.md:3: front matter is not valid YAML: the mapping opened here with '{' is not closed "
                        + "(found '['): a value with brackets inside '{ }' or '[ ]' must be quoted, e.g. \"c.by_id[1:10].rate\"",
                problem("expect:\n  - { value: c.by_id[1:10].rate, near: 5mbit, within: 10% }"));
    }

    @Test
    void shouldPointAtAQuotedTextThatIsNeverClosed() {
        assertEquals(
                "lesson.md:2: front matter is not valid YAML: the quoted text opened here is never closed (on line 3)",
                problem("a: \"unclosed\nb: 2"));
    }

    @Test
    void shouldExplainAColonInAPlainValue() {
        assertEquals(
                "lesson.md:2: front matter is not valid YAML: this line has a ': ' where no key may start: "
                        + "put the value in quotes, or check the indentation",
                problem("title: Shaping: the basics"));
    }

    @Test
    void shouldExplainTabIndentation() {
        assertEquals(
                "lesson.md:3: front matter is not valid YAML: this line is indented with a tab: YAML indents with "
                        + "spaces only",
                problem("a: 1\n\tb: 2"));
    }

    @Test
    void shouldExplainAnIndentationThatDoesNotFit() {
        assertEquals(
                "lesson.md:2: front matter is not valid YAML: the mapping that starts here continues with a line "
                        + "whose indentation does not fit it (on line 3)",
                problem("title: x\n- item"));
    }

    @Test
    void shouldExplainABadEscape() {
        assertEquals(
                "lesson.md:2: front matter is not valid YAML: the quoted text opened here has '\\q', which is not an "
                        + "escape in double quotes: use single quotes, or write '\\\\'",
                problem("a: \"bad \\q escape\""));
    }

    @Test
    void shouldPassOnAMessageItHasNoPlainWordsFor() {
        assertEquals(
                "lesson.md:2: front matter is not valid YAML: while scanning an anchor: "
                        + "unexpected character found ,(44)",
                problem("a: &, x"));
    }

    @Test
    void shouldNameTheSubjectOfAnEmptyText() {
        assertEquals("lesson.md:2: front matter is empty", problem(""));
    }
}
