package dev.tclab.yaml;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.networknt.schema.Error;
import com.networknt.schema.InputFormat;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import com.networknt.schema.serialization.NodeReader;
import com.networknt.schema.utils.JsonNodes;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.RecordComponent;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/** One of the JSON Schemas published for authors' editors (docs/schema), read from the file as the tests use it. */
public final class PublishedSchema {

    private static final NodeReader READER =
            NodeReader.builder().locationAware().build();

    private final JsonNode document;
    private final Schema schema;

    public PublishedSchema(String fileName) {
        try {
            String text = Files.readString(Path.of("docs/schema", fileName));
            document = new ObjectMapper().readTree(text);
            schema = SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12)
                    .getSchema(text, InputFormat.JSON);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Every problem as "line: location: message", lines counted from 1 in {@code yaml}. */
    public List<String> problems(String yaml) {
        JsonNode tree;
        try {
            tree = READER.readTree(yaml, InputFormat.YAML);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        List<String> out = new ArrayList<>();
        for (Error e : schema.validate(tree)) {
            int line = JsonNodes.tokenStreamLocationOf(e.getInstanceNode()).getLineNr();
            out.add(line + ": " + e.getInstanceLocation() + ": " + e.getMessage());
        }
        return out;
    }

    /** The schema's node at a JSON pointer, e.g. {@code /$defs/measurement/properties/qdisc}. */
    public JsonNode at(String pointer) {
        return document.at(pointer);
    }

    /** The property names the object at the JSON pointer allows, e.g. {@code ""} or {@code "/$defs/node"}. */
    public Set<String> keys(String pointer) {
        JsonNode properties = document.at(pointer).get("properties");
        if (properties == null) {
            throw new IllegalArgumentException("no properties at '" + pointer + "'");
        }
        Set<String> keys = new TreeSet<>();
        properties.fieldNames().forEachRemaining(keys::add);
        return keys;
    }

    /**
     * The keys a record binds from an author's YAML: its components, named as their {@code @JsonProperty} says.
     * Tests hold them to {@link #keys}, so the schema and the records the app binds never drift apart.
     */
    public static Set<String> boundKeys(Class<?> record) {
        Set<String> keys = new TreeSet<>();
        for (RecordComponent component : record.getRecordComponents()) {
            JsonProperty named = component.getAccessor().getAnnotation(JsonProperty.class);
            JsonProperty onField = named != null ? named : fieldAnnotation(record, component.getName());
            keys.add(onField != null ? onField.value() : component.getName());
        }
        return keys;
    }

    private static JsonProperty fieldAnnotation(Class<?> record, String name) {
        try {
            return record.getDeclaredField(name).getAnnotation(JsonProperty.class);
        } catch (NoSuchFieldException e) {
            return null;
        }
    }

    /** JSON pointers of properties without a description (editors show it on hover and in completion). */
    public List<String> undescribedProperties() {
        List<String> out = new ArrayList<>();
        collectUndescribed(document, "", out);
        return out;
    }

    private void collectUndescribed(JsonNode node, String pointer, List<String> out) {
        if (node.has("properties")
                && node.get("properties").isObject()
                && !pointer.contains("/if")
                && !pointer.contains("/then")
                && !pointer.contains("/else")
                && !pointer.contains("/contains")
                && !pointer.endsWith("correctOption")) {
            node.get("properties").fields().forEachRemaining(field -> {
                JsonNode property = field.getValue();
                JsonNode target = property.has("$ref")
                        ? document.at(property.get("$ref").asText().substring(1))
                        : property;
                if (!property.has("description") && !target.has("description")) {
                    out.add(pointer + "/properties/" + field.getKey());
                }
            });
        }
        node.fields()
                .forEachRemaining(field -> collectUndescribed(field.getValue(), pointer + "/" + field.getKey(), out));
    }
}
