package dev.tclab.grading.spec;

import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Catches an author's message that writes a fixed unit after {@code {value}} while the value is shown in another
 * one: {@code {value}} is in the unit of the expectation when it has one ({@code above: 3mb} shows mb), else in the
 * field's unit, so "sent only {value} bytes" would print "2.5 bytes".
 */
final class MessageUnits {

    private static final Pattern UNIT_AFTER_VALUE = Pattern.compile("\\{value}\\s*([A-Za-zµ/]+)");

    private MessageUnits() {}

    /**
     * @param fieldUnit the unit of the compared field, or null when the parser does not know it
     * @return the problem in words, or empty
     */
    static Optional<String> problem(String message, Comparison comparison, Unit fieldUnit) {
        Optional<Unit> shown = comparison.unit().or(() -> Optional.ofNullable(fieldUnit));
        // A plain number is shown without a unit, so the author's word after it names what it counts.
        if (message == null || shown.isEmpty() || shown.get() == Unit.NONE) {
            return Optional.empty();
        }
        Matcher m = UNIT_AFTER_VALUE.matcher(message);
        while (m.find()) {
            Optional<Unit> written = Quantity.unitNamed(m.group(1));
            if (written.isPresent() && written.get() != shown.get()) {
                return Optional.of("the message writes '{value} " + m.group(1) + "' but {value} is shown in "
                        + shown.get().symbol() + " (the unit of the expectation, or of the field when the expectation "
                        + "has none): write '{value} {unit}'");
            }
        }
        return Optional.empty();
    }
}
