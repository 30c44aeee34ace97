package io.pmedia.system;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;

/**
 * Values drawn from the document's schemas with a seeded {@link Random}: a body that follows the schema (types,
 * enums, formats, bounds, required and optional properties), and the hostile values the contract fuzz puts in its
 * place. The same seed draws the same values, so a failure reproduces.
 */
final class SchemaValues {

    /** Stands for a lone surrogate: Jackson will not write one, so the JSON text gets the escape afterwards. */
    static final String LONE_SURROGATE = "@@lone-surrogate@@";

    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;

    /** Texts no field should take as they are, and none should make the platform fail. */
    static final List<String> HOSTILE_TEXTS = List.of(
            "nul\u0000inside", "bell\u0007and\u001bescape", "del\u007f", "c1\u0085control", LONE_SURROGATE,
            "\u202eright-to-left override", "line\nbreak\r\nand\ttab", "../../../etc/passwd", "%00%2e%2e%2f",
            "' OR '1'='1'; DROP TABLE client; --", "O'Brien: 100% [x];drawbox=c=red", "{{name}}${jndi:ldap://x}",
            "<img src=x onerror=alert(1)>", "s3://pmedia/inputs/00000000-0000-0000-0000-000000000000/x.csv",
            "http://127.0.0.1:9180/q/metrics", "http://169.254.169.254/latest/meta-data/", "file:///etc/passwd",
            "", " ", "\u00a0", "😀👍🏽", "x".repeat(5_000));

    private final OpenApiDocument document;
    private final Random random;

    SchemaValues(OpenApiDocument document, Random random) {
        this.document = document;
        this.random = random;
    }

    /** A value that follows {@code schema}. */
    JsonNode valid(JsonNode schema) {
        return valid(schema, 0);
    }

    private JsonNode valid(JsonNode given, int depth) {
        JsonNode schema = document.resolve(given);
        if (schema == null || schema.isMissingNode() || depth > 8) {
            return JSON.textNode("x");
        }
        if (schema.has("enum")) {
            JsonNode values = schema.get("enum");
            return values.get(random.nextInt(values.size()));
        }
        if (schema.has("const")) {
            return schema.get("const");
        }
        for (String choice : List.of("oneOf", "anyOf")) {
            if (schema.has(choice)) {
                JsonNode options = schema.get(choice);
                return valid(options.get(random.nextInt(options.size())), depth + 1);
            }
        }
        if (schema.has("allOf")) {
            ObjectNode merged = JSON.objectNode();
            for (JsonNode part : schema.get("allOf")) {
                JsonNode value = valid(part, depth + 1);
                if (value.isObject()) {
                    merged.setAll((ObjectNode) value);
                }
            }
            return merged;
        }
        String type = type(schema);
        return switch (type) {
            case "object" -> object(schema, depth);
            case "array" -> array(schema, depth);
            case "integer" -> JSON.numberNode(integer(schema));
            case "number" -> JSON.numberNode(integer(schema) + 0.5);
            case "boolean" -> JSON.booleanNode(random.nextBoolean());
            case "null" -> JSON.nullNode();
            default -> JSON.textNode(text(schema));
        };
    }

    /** The schema's type; the non-null one of a {@code [type, 'null']} pair; object when it has properties. */
    static String type(JsonNode schema) {
        JsonNode type = schema.get("type");
        if (type == null) {
            return schema.has("properties") ? "object" : schema.has("items") ? "array" : "string";
        }
        if (type.isArray()) {
            for (JsonNode one : type) {
                if (!"null".equals(one.asText())) {
                    return one.asText();
                }
            }
            return "null";
        }
        return type.asText();
    }

    private ObjectNode object(JsonNode schema, int depth) {
        ObjectNode object = JSON.objectNode();
        List<String> required = new ArrayList<>();
        schema.path("required").forEach(name -> required.add(name.asText()));
        for (Iterator<Map.Entry<String, JsonNode>> properties = schema.path("properties").fields(); properties
                .hasNext();) {
            Map.Entry<String, JsonNode> property = properties.next();
            if (required.contains(property.getKey()) || random.nextInt(3) > 0) {
                object.set(property.getKey(), valid(property.getValue(), depth + 1));
            }
        }
        JsonNode additional = schema.get("additionalProperties");
        if (additional != null && additional.isObject() && object.isEmpty()) {
            object.set("key" + random.nextInt(100), valid(additional, depth + 1));
        }
        return object;
    }

    private ArrayNode array(JsonNode schema, int depth) {
        ArrayNode array = JSON.arrayNode();
        int count = Math.max(schema.path("minItems").asInt(1), 1 + random.nextInt(2));
        count = Math.min(count, schema.path("maxItems").asInt(count));
        for (int i = 0; i < count; i++) {
            array.add(valid(schema.path("items"), depth + 1));
        }
        return array;
    }

    private long integer(JsonNode schema) {
        long min = schema.has("minimum") ? schema.get("minimum").asLong() : 0;
        long max = schema.has("maximum") ? schema.get("maximum").asLong() : Math.max(min + 10, 10);
        return min + (long) (random.nextDouble() * (max - min));
    }

    private String text(JsonNode schema) {
        String format = schema.path("format").asText("");
        return switch (format) {
            case "uuid" -> new UUID(random.nextLong(), random.nextLong()).toString();
            case "date-time" -> Instant.now().plus(1 + random.nextInt(30), ChronoUnit.DAYS)
                    .truncatedTo(ChronoUnit.SECONDS).toString();
            case "uri", "url" -> "https://example.com/" + word();
            case "email" -> word() + "@example.com";
            case "byte" -> "aGVsbG8=";
            default -> {
                String pattern = schema.path("pattern").asText("");
                String value = pattern.isEmpty() ? "fuzz-" + word() : word();
                int max = schema.path("maxLength").asInt(200);
                yield value.length() > max ? value.substring(0, Math.max(1, max)) : value;
            }
        };
    }

    String word() {
        StringBuilder word = new StringBuilder();
        for (int i = 0, n = 4 + random.nextInt(8); i < n; i++) {
            word.append((char) ('a' + random.nextInt(26)));
        }
        return word.toString();
    }

    /** The texts a database, a file name or a header refuses outright: drawn every other time. */
    private static final List<String> REFUSED_EVERYWHERE = List.of("nul\u0000inside", LONE_SURROGATE,
            "bell\u0007and\u001bescape");

    /** One of the hostile texts; every other draw one that nothing downstream would take. */
    String hostileText() {
        return random.nextBoolean()
                ? REFUSED_EVERYWHERE.get(random.nextInt(REFUSED_EVERYWHERE.size()))
                : HOSTILE_TEXTS.get(random.nextInt(HOSTILE_TEXTS.size()));
    }

    /** A value of the wrong JSON type for a field that holds {@code value}. */
    JsonNode wrongType(JsonNode value) {
        List<JsonNode> wrong = new ArrayList<>();
        if (!value.isTextual()) {
            wrong.add(TextNode.valueOf("not-" + word()));
        }
        if (!value.isNumber()) {
            wrong.add(JSON.numberNode(random.nextInt(1000) - 500));
        }
        if (!value.isBoolean()) {
            wrong.add(JSON.booleanNode(true));
        }
        if (!value.isObject()) {
            wrong.add(JSON.objectNode().put("nested", word()));
        }
        if (!value.isArray()) {
            wrong.add(JSON.arrayNode().add(word()));
        }
        wrong.add(JSON.nullNode());
        return wrong.get(random.nextInt(wrong.size()));
    }

    /** A number no field can hold: beyond a long, beyond a double, negative, fractional. */
    JsonNode absurdNumber() {
        List<String> numbers = List.of("9223372036854775808", "-9223372036854775809", "1e400", "-1", "0", "0.5",
                "2147483648", "-2147483649", "1E+2", "12345678901234567890123456789");
        return new com.fasterxml.jackson.databind.node.POJONode(
                new RawNumber(numbers.get(random.nextInt(numbers.size()))));
    }

    /** Written into the JSON text as it is (see {@link #absurdNumber}). */
    record RawNumber(String text) {

        @com.fasterxml.jackson.annotation.JsonValue
        com.fasterxml.jackson.databind.util.RawValue raw() {
            return new com.fasterxml.jackson.databind.util.RawValue(text);
        }
    }

    /** Every path to a value in {@code node}: field names and indexes, outermost first. */
    static List<List<Object>> leaves(JsonNode node) {
        List<List<Object>> paths = new ArrayList<>();
        collect(node, new ArrayList<>(), paths);
        return paths;
    }

    private static void collect(JsonNode node, List<Object> at, List<List<Object>> paths) {
        if (node.isObject()) {
            node.fields().forEachRemaining(field -> {
                List<Object> next = new ArrayList<>(at);
                next.add(field.getKey());
                paths.add(next);
                collect(field.getValue(), next, paths);
            });
        } else if (node.isArray()) {
            for (int i = 0; i < node.size(); i++) {
                List<Object> next = new ArrayList<>(at);
                next.add(i);
                paths.add(next);
                collect(node.get(i), next, paths);
            }
        }
    }

    /** A deep copy of {@code root} with the value at {@code path} replaced. */
    static JsonNode replaced(JsonNode root, List<Object> path, JsonNode value) {
        JsonNode copy = root.deepCopy();
        JsonNode parent = copy;
        for (int i = 0; i < path.size() - 1; i++) {
            Object step = path.get(i);
            parent = step instanceof Integer index ? parent.get(index) : parent.get((String) step);
        }
        Object last = path.get(path.size() - 1);
        if (last instanceof Integer index) {
            ((ArrayNode) parent).set(index, value);
        } else {
            ((ObjectNode) parent).set((String) last, value);
        }
        return copy;
    }

    /** JSON nested {@code depth} levels deep: {@code [[[ ... ]]]}. */
    static String deeplyNested(int depth) {
        return "[".repeat(depth) + "]".repeat(depth);
    }
}
