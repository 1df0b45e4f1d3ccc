package dev.tclab.grading;

import dev.tclab.yaml.YamlChecks;
import dev.tclab.yaml.YamlNode;
import java.util.Collection;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads and validates the typed options of a measurement kind, recording every problem with its line (through
 * {@link YamlChecks}) and returning a fallback so reading goes on.
 */
public final class OptionReader {

    private static final Pattern IFACE = Pattern.compile("[A-Za-z][A-Za-z0-9_.-]{0,14}");
    private static final Pattern IPV4 = Pattern.compile("(\\d{1,3})\\.(\\d{1,3})\\.(\\d{1,3})\\.(\\d{1,3})");

    private final YamlChecks checks;

    OptionReader(YamlChecks checks) {
        this.checks = checks;
    }

    YamlChecks checks() {
        return checks;
    }

    /** The options mapping, or null (recorded) when it is not one; an empty value is an empty mapping when allowed. */
    YamlNode mapping(YamlNode value, String kind, Collection<String> keys, boolean emptyAllowed) {
        if (emptyAllowed && value.isScalar() && (value.text() == null || value.text().isEmpty())) {
            return null;
        }
        if (!value.isMap()) {
            checks.add(value, "expected a mapping of " + kind + " options (" + String.join(", ", keys) + ")");
            return null;
        }
        checks.onlyKeys(value, keys);
        return value;
    }

    String address(YamlNode options, String key, boolean required) {
        String text = checks.text(options, key, null, required);
        if (text == null) {
            return null;
        }
        Matcher m = IPV4.matcher(text);
        boolean ok = m.matches();
        for (int i = 1; ok && i <= 4; i++) {
            ok = Integer.parseInt(m.group(i)) <= 255;
        }
        if (!ok) {
            checks.add(options.get(key), "'" + text + "' is not an IPv4 address; measurements only reach addresses inside the lab");
        }
        // Returned even when invalid (the problem is recorded): later fields may still refer to this measurement.
        return text;
    }

    /** An interface name, or null when absent (recorded when required); an invalid one is recorded. */
    String iface(YamlNode options, boolean required) {
        if (options == null) {
            if (required) {
                throw new IllegalArgumentException("required options must be read from a mapping");
            }
            return null;
        }
        String dev = checks.text(options, "dev", null, required);
        checks.require(options.get("dev"), dev, IFACE.asMatchPredicate(), "an interface name such as eth1 or ifb0");
        return dev;
    }

    String text(YamlNode options, String key) {
        return options == null ? null : checks.text(options, key, null, false);
    }

    boolean bool(YamlNode options, String key, boolean fallback) {
        return options == null ? fallback : checks.bool(options, key, fallback);
    }

    int integer(YamlNode parent, String key, int fallback, int min, int max) {
        String text = parent == null ? null : checks.text(parent, key, null, false);
        if (text == null) {
            return fallback;
        }
        try {
            int value = Integer.decode(text);
            if (value >= min && value <= max) {
                return value;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        checks.add(parent.get(key), "expected a whole number from " + min + " to " + max + ", found '" + text + "'");
        return fallback;
    }

    double seconds(YamlNode parent, String key, double fallback, double min, double max) {
        String text = parent == null ? null : checks.text(parent, key, null, false);
        if (text == null) {
            return fallback;
        }
        double value;
        try {
            value = Double.parseDouble(text);
        } catch (NumberFormatException e) {
            value = Double.NaN;
        }
        if (!(value >= min && value <= max)) {
            checks.add(parent.get(key), "expected a number of seconds from " + min + " to " + max + ", found '" + text + "'");
            return fallback;
        }
        return value;
    }

    /** A quantity of {@code dimension} (e.g. a bitrate), or null (recorded) when it is not one. */
    Quantity quantity(YamlNode at, Dimension dimension) {
        String text = checks.scalar(at, null);
        if (text == null) {
            return null;
        }
        Quantity.Parsed parsed = Quantity.parse(text);
        if (parsed.quantity() == null) {
            checks.add(at, parsed.problem());
            return null;
        }
        Quantity q = parsed.quantity();
        if (q.unit() == Unit.PERCENT) {
            checks.add(at, "'" + text + "': a percentage is only a tolerance ('within'); write the number alone");
            return null;
        }
        if (dimension != null && q.hasUnit() && q.unit().dimension() != dimension) {
            checks.add(at, "'" + text + "' is " + q.unit().dimension().words() + " but the value is " + dimension.words()
                    + (dimension == Dimension.NUMBER ? "; compare it with a number alone, or declare the unit of a "
                    + "command's numbers (unit: Mbit/s)" : ""));
            return null;
        }
        return q;
    }

    void add(YamlNode at, String message) {
        checks.add(at, message);
    }

    boolean ok() {
        return checks.ok();
    }
}
