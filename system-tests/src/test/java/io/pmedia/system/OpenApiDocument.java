package io.pmedia.system;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;

/**
 * docs/openapi.yaml as the contract tests read it: every operation with its parameters, credentials and body schema,
 * and the schemas with their local references resolved. The document is the source: a new operation is fuzzed and
 * walked the day it is documented.
 */
final class OpenApiDocument {

    /** One parameter of an operation. */
    record Parameter(String name, String in, boolean required, JsonNode schema) {
    }

    /**
     * One operation. {@code security}: the alternatives the document allows, each a set of scheme names (bearer,
     * apiKey, adminToken); empty when the operation is public.
     */
    record Operation(String method, String path, String id, List<Parameter> parameters, List<Set<String>> security,
            Map<String, JsonNode> bodies, boolean bodyRequired) {

        boolean takes(String scheme) {
            return security.stream().anyMatch(alternative -> alternative.contains(scheme));
        }

        boolean isPublic() {
            return security.isEmpty() || security.stream().anyMatch(Set::isEmpty);
        }

        /** The JSON body schema, or null when the operation takes none. */
        JsonNode jsonBody() {
            return bodies.get("application/json");
        }

        @Override
        public String toString() {
            return method + " " + path;
        }
    }

    private final JsonNode root;
    private final List<Operation> operations;

    private OpenApiDocument(JsonNode root) {
        this.root = root;
        this.operations = readOperations();
    }

    static OpenApiDocument load() {
        Path file = Path.of(System.getProperty("pmedia.root", "..")).resolve("docs/openapi.yaml");
        try {
            return new OpenApiDocument(new ObjectMapper(new YAMLFactory()).readTree(file.toFile()));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file, e);
        }
    }

    List<Operation> operations() {
        return operations;
    }

    /** {@code node} with a local {@code $ref} followed (as often as it takes). */
    JsonNode resolve(JsonNode node) {
        JsonNode at = node;
        for (int hops = 0; at != null && at.has("$ref") && hops < 20; hops++) {
            String ref = at.get("$ref").asText();
            if (!ref.startsWith("#/")) {
                throw new IllegalStateException("only local references are supported: " + ref);
            }
            at = root.at(ref.substring(1));
        }
        return at;
    }

    private List<Operation> readOperations() {
        List<Operation> found = new ArrayList<>();
        List<Set<String>> defaultSecurity = security(root.get("security"));
        for (Iterator<Map.Entry<String, JsonNode>> paths = root.path("paths").fields(); paths.hasNext();) {
            Map.Entry<String, JsonNode> path = paths.next();
            List<Parameter> shared = parameters(path.getValue().get("parameters"));
            for (Iterator<Map.Entry<String, JsonNode>> methods = path.getValue().fields(); methods.hasNext();) {
                Map.Entry<String, JsonNode> method = methods.next();
                if (!Set.of("get", "post", "put", "patch", "delete").contains(method.getKey())) {
                    continue;
                }
                JsonNode op = method.getValue();
                List<Parameter> parameters = new ArrayList<>(shared);
                parameters.addAll(parameters(op.get("parameters")));
                Map<String, JsonNode> bodies = new LinkedHashMap<>();
                JsonNode body = resolve(op.get("requestBody"));
                if (body != null) {
                    body.path("content").fields().forEachRemaining(
                            content -> bodies.put(content.getKey(), content.getValue().path("schema")));
                }
                found.add(new Operation(method.getKey().toUpperCase(), path.getKey(), op.path("operationId").asText(),
                        List.copyOf(parameters),
                        op.has("security") ? security(op.get("security")) : defaultSecurity, bodies,
                        body != null && body.path("required").asBoolean(false)));
            }
        }
        return List.copyOf(found);
    }

    private List<Parameter> parameters(JsonNode list) {
        List<Parameter> parameters = new ArrayList<>();
        if (list != null) {
            for (JsonNode entry : list) {
                JsonNode parameter = resolve(entry);
                parameters.add(new Parameter(parameter.path("name").asText(), parameter.path("in").asText(),
                        parameter.path("required").asBoolean(false), parameter.path("schema")));
            }
        }
        return parameters;
    }

    private static List<Set<String>> security(JsonNode requirements) {
        List<Set<String>> alternatives = new ArrayList<>();
        if (requirements != null) {
            for (JsonNode requirement : requirements) {
                Set<String> schemes = new LinkedHashSet<>();
                requirement.fieldNames().forEachRemaining(schemes::add);
                alternatives.add(schemes);
            }
        }
        return alternatives;
    }
}
