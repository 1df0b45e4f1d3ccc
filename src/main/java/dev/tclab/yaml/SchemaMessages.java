package dev.tclab.yaml;

import com.fasterxml.jackson.databind.JsonNode;
import com.networknt.schema.Error;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.StreamSupport;

/**
 * Says a JSON Schema validator's errors in an author's words, located by line. A failed {@code oneOf} (a measurement
 * kind, an assertion form) is reported as the problems of the alternative the author evidently meant (the one whose
 * keys are there), not as every alternative's complaints.
 */
final class SchemaMessages {

    private static final Set<String> CHOICES = Set.of("oneOf", "anyOf");
    /** Errors that say the value is not of an alternative's form at all (rather than a bad detail inside it). */
    private static final Set<String> FORM = Set.of("required", "type");

    private final JsonNode schema;
    private final YamlDocument doc;

    SchemaMessages(JsonNode schema, YamlDocument doc) {
        this.schema = schema;
        this.doc = doc;
    }

    List<FileProblem> translate(List<Error> errors) {
        List<Error> choices =
                errors.stream().filter(e -> CHOICES.contains(e.getKeyword())).toList();
        List<Error> outer = choices.stream()
                .filter(c -> choices.stream().noneMatch(o -> under(c, o)))
                .toList();
        List<FileProblem> out = new ArrayList<>();
        for (Error e : errors) {
            // Identity, not equals: a oneOf nested in another at the same place has the same message and location.
            if (outer.stream().anyMatch(o -> o == e)) {
                out.addAll(choice(e, errors.stream().filter(x -> under(x, e)).toList()));
            } else if (outer.stream().noneMatch(o -> under(e, o))) {
                out.add(single(e));
            }
        }
        return out;
    }

    /**
     * Whether {@code e} was found while evaluating {@code scope} (one of its alternatives). Evaluation paths do not
     * name list items, so the value's location must lie within the scope's too.
     */
    private static boolean under(Error e, Error scope) {
        String within = pointer(scope);
        return e != scope
                && path(e).startsWith(path(scope) + "/")
                && (pointer(e).equals(within) || pointer(e).startsWith(within + "/"));
    }

    private static String path(Error e) {
        return e.getEvaluationPath().toString();
    }

    private List<FileProblem> choice(Error choice, List<Error> inside) {
        String at = pointer(choice);
        JsonNode alternatives = schemaAt(choice);
        if (choice.getKeyword().equals("oneOf") && validCount(choice) > 1) {
            // A oneOf that more than one alternative fits: say which keys clash.
            List<String> present = new ArrayList<>();
            alternatives.forEach(alt -> requiredWithin(alt).stream()
                    .filter(k -> doc.at(at).has(k) && !present.contains(k))
                    .forEach(present::add));
            return List.of(doc.problem(
                    at,
                    present.size() > 1
                            ? "give only one of " + String.join(", ", present)
                            : "fits more than one of the forms it may take: " + forms(alternatives)));
        }
        List<List<Error>> branches = new ArrayList<>();
        for (int i = 0; i < alternatives.size(); i++) {
            String prefix = path(choice) + "/" + i;
            branches.add(inside.stream()
                    .filter(e -> path(e).startsWith(prefix + "/"))
                    .toList());
        }
        for (List<Error> branch : branches) {
            if (branch.stream()
                    .noneMatch(e -> FORM.contains(e.getKeyword()) && pointer(e).equals(at))) {
                return translate(branch);
            }
        }
        int best = -1;
        long bestPresent = 0;
        for (int i = 0; i < alternatives.size(); i++) {
            long present = required(alternatives.get(i)).stream()
                    .filter(k -> doc.at(at).has(k))
                    .count();
            if (present > bestPresent) {
                best = i;
                bestPresent = present;
            }
        }
        if (best >= 0) {
            return translate(branches.get(best));
        }
        JsonNode value = doc.at(at);
        boolean someKeys = StreamSupport.stream(alternatives.spliterator(), false)
                .anyMatch(a -> !required(a).isEmpty());
        return List.of(doc.problem(
                at,
                value.isObject() && someKeys
                        ? "needs one of " + forms(alternatives)
                        : "expected " + forms(alternatives) + ", found " + found(value)));
    }

    /** How many alternatives of a failed oneOf the value fits (the validator's first message argument). */
    private static int validCount(Error oneOf) {
        Object[] arguments = oneOf.getArguments();
        try {
            return arguments == null || arguments.length == 0 ? 0 : Integer.parseInt(String.valueOf(arguments[0]));
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    private FileProblem single(Error e) {
        String at = pointer(e);
        JsonNode value = e.getInstanceNode() == null ? doc.at(at) : e.getInstanceNode();
        JsonNode rule = schemaAt(e);
        JsonNode parent = parentSchemaAt(e);
        return switch (e.getKeyword()) {
            case "additionalProperties" ->
                doc.keyProblem(
                        YamlDocument.child(at, e.getProperty()),
                        "unknown key '" + e.getProperty() + "'; expected one of " + String.join(", ", keys(parent)));
            case "required" ->
                doc.problem(at, "missing required key '" + e.getProperty() + "'" + describe(parent, e.getProperty()));
            case "type" ->
                doc.problem(
                        at,
                        "expected " + (parent.has("minimum") || parent.has("maximum") ? range(parent) : typeWords(rule))
                                + ", found " + found(value));
            case "minimum", "maximum" -> doc.problem(at, "expected " + range(parent) + ", found " + value.asText());
            case "pattern" ->
                doc.problem(
                        at,
                        "'" + value.asText() + "' is not valid"
                                + (description(parent).isEmpty()
                                        ? ": it must match " + rule.asText()
                                        : ": " + description(parent)));
            case "propertyNames" -> {
                String key = e.getProperty() != null ? e.getProperty() : String.valueOf(e.getArguments()[0]);
                yield doc.keyProblem(
                        YamlDocument.child(at, key),
                        "'" + key + "' is not a valid name here"
                                + (description(parent).isEmpty() ? "" : ": " + description(parent)));
            }
            case "const" ->
                doc.problem(
                        at,
                        "expected " + found(rule) + ", found " + found(value)
                                + (description(parent).isEmpty() ? "" : ": " + description(parent)));
            case "not" ->
                doc.problem(
                        at,
                        found(value) + " is not allowed here"
                                + (description(rule).isEmpty() ? "" : ": " + description(rule)));
            case "contains", "minContains" -> doc.problem(at, "no item is " + description(rule));
            case "maxContains" ->
                doc.problem(
                        at,
                        description(parent).isEmpty()
                                ? "too many of its items are " + description(rule)
                                : description(parent));
            case "enum" -> doc.problem(at, "expected one of " + join(rule) + ", found " + found(value));
            case "minItems" ->
                doc.problem(
                        at,
                        "needs at least " + rule.asInt() + (rule.asInt() == 1 ? " item" : " items") + ", found "
                                + value.size() + about(parent));
            case "maxItems" ->
                doc.problem(
                        at,
                        "takes at most " + rule.asInt() + (rule.asInt() == 1 ? " item" : " items") + ", found "
                                + value.size() + about(parent));
            case "minProperties" ->
                doc.problem(
                        at,
                        "needs at least " + rule.asInt() + (rule.asInt() == 1 ? " entry" : " entries") + about(parent));
            case "maxProperties" ->
                doc.problem(at, "takes at most " + rule.asInt() + " entries, found " + value.size() + about(parent));
            case "uniqueItems" -> doc.problem(at, "lists the same item twice" + about(parent));
            case "minLength" -> doc.problem(at, "must not be empty");
            default -> doc.problem(at, e.getMessage());
        };
    }

    /** The JSON pointer of the value an error is about. */
    private static String pointer(Error e) {
        return e.getInstanceLocation().toString();
    }

    /** The schema node of the keyword that failed (e.g. the {@code oneOf} list, the {@code type} value). */
    private JsonNode schemaAt(Error e) {
        return schema.at(fragment(e));
    }

    /** The schema (sub)object holding the keyword that failed. */
    private JsonNode parentSchemaAt(Error e) {
        String fragment = fragment(e);
        return schema.at(fragment.substring(0, Math.max(0, fragment.lastIndexOf('/'))));
    }

    private static String fragment(Error e) {
        String location = e.getSchemaLocation().toString();
        int hash = location.indexOf('#');
        return hash < 0 ? "" : location.substring(hash + 1);
    }

    /** A schema with its {@code $ref} followed (one level, within this document). */
    private JsonNode resolve(JsonNode node) {
        JsonNode ref = node.get("$ref");
        return ref != null && ref.asText().startsWith("#")
                ? schema.at(ref.asText().substring(1))
                : node;
    }

    private List<String> required(JsonNode alternative) {
        List<String> keys = new ArrayList<>();
        resolve(alternative).path("required").forEach(k -> keys.add(k.asText()));
        return keys;
    }

    /** The keys an alternative requires, with those of the alternatives nested in it ({@code anyOf} of above, below). */
    private List<String> requiredWithin(JsonNode alternative) {
        List<String> keys = new ArrayList<>(required(alternative));
        for (String nesting : List.of("anyOf", "oneOf")) {
            resolve(alternative).path(nesting).forEach(nested -> keys.addAll(requiredWithin(nested)));
        }
        return keys;
    }

    private List<String> keys(JsonNode objectSchema) {
        List<String> keys = new ArrayList<>();
        resolve(objectSchema).path("properties").fieldNames().forEachRemaining(keys::add);
        return keys;
    }

    private String forms(JsonNode alternatives) {
        List<String> forms = new ArrayList<>();
        for (JsonNode alt : alternatives) {
            List<String> required = required(alt);
            JsonNode type = resolve(alt).get("type");
            JsonNode nested = resolve(alt).has("anyOf")
                    ? resolve(alt).get("anyOf")
                    : resolve(alt).get("oneOf");
            forms.add(
                    !required.isEmpty()
                            ? String.join(" and ", required)
                            : type != null ? typeWords(type) : nested != null ? forms(nested) : "another form");
        }
        return String.join(", ", forms.subList(0, forms.size() - 1))
                + (forms.size() > 1 ? " or " : "")
                + forms.get(forms.size() - 1);
    }

    /** The schema's description of a value in parentheses, or nothing. */
    private String about(JsonNode valueSchema) {
        String words = description(valueSchema);
        return words.isEmpty() ? "" : " (" + words + ")";
    }

    private String describe(JsonNode objectSchema, String key) {
        JsonNode property = resolve(objectSchema).path("properties").path(key);
        String words = property.isMissingNode() ? "" : description(property);
        return words.isEmpty() ? "" : " (" + words + ")";
    }

    /** The schema's description of a value, worded to follow a colon: "the lab's name: ...", no closing period. */
    private String description(JsonNode node) {
        JsonNode own = node.get("description");
        String text =
                own != null ? own.asText() : resolve(node).path("description").asText("");
        if (text.endsWith(".")) {
            text = text.substring(0, text.length() - 1);
        }
        boolean capitalized =
                text.length() > 1 && Character.isUpperCase(text.charAt(0)) && !Character.isUpperCase(text.charAt(1));
        return capitalized ? Character.toLowerCase(text.charAt(0)) + text.substring(1) : text;
    }

    private static String range(JsonNode numberSchema) {
        JsonNode min = numberSchema.get("minimum");
        JsonNode max = numberSchema.get("maximum");
        String what = "integer".equals(numberSchema.path("type").asText()) ? "a whole number" : "a number";
        if (min != null && max != null) {
            return what + " from " + min.asText() + " to " + max.asText();
        }
        return min != null ? what + " of at least " + min.asText() : what + " of at most " + max.asText();
    }

    private static String typeWords(JsonNode type) {
        if (type.isArray()) {
            List<String> words = new ArrayList<>();
            type.forEach(t -> words.add(typeWords(t)));
            return String.join(" or ", words);
        }
        return switch (type.asText()) {
            case "integer" -> "a whole number";
            case "number" -> "a number";
            case "string" -> "text";
            case "boolean" -> "true or false";
            case "object" -> "a mapping";
            case "array" -> "a list";
            case "null" -> "nothing";
            default -> type.asText();
        };
    }

    private static String found(JsonNode value) {
        if (value == null || value.isMissingNode() || value.isNull()) {
            return "nothing";
        }
        if (value.isObject()) {
            return "a mapping";
        }
        if (value.isArray()) {
            return "a list";
        }
        return value.isTextual() ? "'" + value.asText() + "'" : value.asText();
    }

    private static String join(JsonNode values) {
        return StreamSupport.stream(values.spliterator(), false)
                .map(JsonNode::asText)
                .collect(Collectors.joining(", "));
    }
}
