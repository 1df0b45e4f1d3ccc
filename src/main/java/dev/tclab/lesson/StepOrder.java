package dev.tclab.lesson;

import dev.tclab.yaml.FileProblem;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Steps run in file-name order. This finds the names that make that order differ from what the author meant: an
 * unnumbered file among numbered ones (it sorts after them, so renaming {@code 02-shape.md} to {@code shape.md}
 * would silently move the step to the end) and two files with the same number.
 */
final class StepOrder {

    private static final Pattern NUMBERED = Pattern.compile("(\\d+)[-_].+\\.md");

    private StepOrder() {}

    /**
     * @param folder    how problems name the steps folder, e.g. {@code lessons/tbf-basics/steps}
     * @param fileNames the step files' names, in the order they run
     */
    static List<FileProblem> problems(String folder, List<String> fileNames) {
        List<FileProblem> problems = new ArrayList<>();
        boolean anyNumbered =
                fileNames.stream().anyMatch(name -> NUMBERED.matcher(name).matches());
        Map<BigInteger, String> byNumber = new HashMap<>();
        for (String name : fileNames) {
            Matcher numbered = NUMBERED.matcher(name);
            String file = folder + "/" + name;
            if (!numbered.matches()) {
                if (anyNumbered) {
                    problems.add(new FileProblem(
                            file, 0, "", "number every step file (01-..., 02-...) or none; " + "this one sorts last"));
                }
                continue;
            }
            String sameNumber = byNumber.putIfAbsent(new BigInteger(numbered.group(1)), name);
            if (sameNumber != null) {
                problems.add(new FileProblem(
                        file,
                        0,
                        "",
                        "has the same number as " + sameNumber
                                + "; give each step file its own number so the order is clear"));
            }
        }
        return problems;
    }
}
