package dev.tclab.yaml;

import java.util.List;
import java.util.Set;

/**
 * A parsed document with what its schema found wrong in it. Rules across fields still run on the parts that fit
 * the schema ({@link #fits}), so an author sees every problem of a file at once, not one layer at a time.
 *
 * @param problems the schema's problems, in file order
 * @param invalid  JSON pointers of the values the schema found something wrong in or under
 */
public record Checked(YamlDocument doc, List<FileProblem> problems, Set<String> invalid) {

    /** Whether the value at {@code pointer} fits the schema (nothing in or under it was reported), so it binds. */
    public boolean fits(String pointer) {
        return invalid.stream().noneMatch(p -> p.equals(pointer) || p.startsWith(pointer + "/"))
                && !doc.at(pointer).isMissingNode();
    }
}
