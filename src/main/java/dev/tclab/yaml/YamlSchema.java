package dev.tclab.yaml;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.networknt.schema.Error;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * One of the JSON Schemas published for authors (docs/schema, on the classpath under {@code schema/}): the same file
 * gives authors completion in their editors and is what the platform validates their YAML against, reporting every
 * violation at once, each with its file line and a plain message.
 */
public final class YamlSchema {

    private static final SchemaRegistry REGISTRY =
            SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12);

    private final JsonNode document;
    private final Schema schema;

    private YamlSchema(JsonNode document, Schema schema) {
        this.document = document;
        this.schema = schema;
    }

    /** @param name a file of docs/schema, e.g. {@code check.schema.json} */
    public static YamlSchema load(String name) {
        String resource = "schema/" + name;
        try (InputStream in = YamlSchema.class.getClassLoader().getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("the published schema " + resource + " is not on the classpath");
            }
            JsonNode document = new ObjectMapper().readTree(in);
            return new YamlSchema(document, REGISTRY.getSchema(document));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Parses YAML and validates it: the document when it fits the schema, else every problem at once. */
    public YamlDocument read(String file, String subject, String text, int firstLine) throws YamlException {
        YamlDocument doc = YamlDocument.parse(file, subject, text, firstLine);
        List<FileProblem> problems = problems(doc);
        if (!problems.isEmpty()) {
            throw new YamlException(problems);
        }
        return doc;
    }

    /** Every violation of the schema, in file order. */
    public List<FileProblem> problems(YamlDocument doc) {
        return check(doc).problems();
    }

    /** The document with every violation of the schema, in file order, and where they are. */
    public Checked check(YamlDocument doc) {
        List<Error> errors = schema.validate(doc.root());
        List<FileProblem> problems = new SchemaMessages(document, doc)
                .translate(errors).stream()
                        .distinct()
                        .sorted(Comparator.comparingInt(FileProblem::line))
                        .toList();
        Set<String> invalid =
                errors.stream().map(e -> e.getInstanceLocation().toString()).collect(Collectors.toSet());
        return new Checked(doc, problems, invalid);
    }
}
