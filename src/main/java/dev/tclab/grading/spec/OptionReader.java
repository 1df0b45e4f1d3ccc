package dev.tclab.grading.spec;

import dev.tclab.yaml.FileProblem;
import dev.tclab.yaml.YamlDocument;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Checks the rules of bound options that the schema cannot state (an address's octets, a quantity's unit, options
 * that go together), recording each problem at its key's line so reading goes on and every problem is reported.
 */
public final class OptionReader {

    private static final Pattern IPV4 = Pattern.compile("(\\d{1,3})\\.(\\d{1,3})\\.(\\d{1,3})\\.(\\d{1,3})");

    private final YamlDocument doc;
    private final String at;
    private final List<FileProblem> problems;

    /**
     * @param at       the JSON pointer of the options' mapping in {@code doc}
     * @param problems where problems are recorded
     */
    OptionReader(YamlDocument doc, String at, List<FileProblem> problems) {
        this.doc = doc;
        this.at = at;
        this.problems = problems;
    }

    /** A reader of the options under {@code key} (a nested mapping, e.g. one flow). */
    OptionReader under(String key) {
        return new OptionReader(doc, YamlDocument.child(at, key), problems);
    }

    /** Records a problem with the value of {@code key}, or with the whole mapping when {@code key} is null. */
    void add(String key, String message) {
        problems.add(doc.problem(key == null ? at : YamlDocument.child(at, key), message));
    }

    /** An IPv4 address (the schema checks the form, this the octets), or null (recorded) when it is none. */
    String address(String key, String text) {
        Matcher m = IPV4.matcher(text);
        boolean ok = m.matches();
        for (int i = 1; ok && i <= 4; i++) {
            ok = Integer.parseInt(m.group(i)) <= 255;
        }
        if (!ok) {
            add(key, "'" + text + "' is not an IPv4 address; measurements only reach addresses inside the lab");
            return null;
        }
        return text;
    }

    /** A quantity of {@code dimension} (e.g. a bitrate; null: any), or null (recorded) when it is not one. */
    Quantity quantity(String key, String text, Dimension dimension) {
        Quantity.Parsed parsed = Quantity.parse(text);
        if (parsed.quantity() == null) {
            add(key, parsed.problem());
            return null;
        }
        Quantity q = parsed.quantity();
        if (q.unit() == Unit.PERCENT) {
            add(key, "'" + text + "': a percentage is only a tolerance ('within'); write the number alone");
            return null;
        }
        if (dimension != null && q.hasUnit() && q.unit().dimension() != dimension) {
            add(
                    key,
                    "'" + text + "' is " + q.unit().dimension().words() + " but the value is " + dimension.words()
                            + (dimension == Dimension.NUMBER
                                    ? "; compare it with a number alone, or declare the unit of a "
                                            + "command's numbers (unit: Mbit/s)"
                                    : ""));
            return null;
        }
        return q;
    }
}
