package io.pmedia.system;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.stream.Stream;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;

/**
 * The contract fuzz (issue 20): for every operation of docs/openapi.yaml, a body drawn from its schema and hostile
 * variants of it (control characters, lone surrogates, 1 MB strings, 10,000-deep nesting, numbers out of range, wrong
 * types, unknown keys, broken JSON, odd media types), hostile path and query parameters, and odd headers, sent
 * through the gateway with the credentials the operation takes. The assertion: no answer is 5xx, and every error has
 * the 2.11 body (with {@code Retry-After} on 429 and 503).
 *
 * <p>
 * A fixed seed in CI ({@code -Dpmedia.fuzz.seed}, default 20261127); {@code ./pmedia fuzz} runs a random seed for
 * longer ({@code -Dpmedia.fuzz.rounds}). Every failure is printed with its reproduction (and written whole to
 * system-tests/target/fuzz-failures.txt).
 */
class ContractFuzzTest {

    static final long SEED = Long.getLong("pmedia.fuzz.seed", 20261127L);
    static final int ROUNDS = Integer.getInteger("pmedia.fuzz.rounds", 1);
    private static final Set<String> CODES = Set.of("UNAUTHORIZED", "FORBIDDEN", "BAD_REQUEST", "VALIDATION_ERROR",
            "NOT_FOUND", "METHOD_NOT_ALLOWED", "CONFLICT", "GONE", "PAYLOAD_TOO_LARGE", "UNSUPPORTED_MEDIA_TYPE",
            "RATE_LIMITED", "INTERNAL_ERROR", "SERVICE_UNAVAILABLE", "NOT_ACCEPTABLE");
    /** Failed attempts on the token endpoints count against this machine's address (docs/security.md). */
    private static final int TOKEN_CASES = 6;
    private static final ObjectMapper JSON = new ObjectMapper();
    /**
     * Values every query parameter is sent with, whatever it takes (percent-encoded as sent): blanks, cursors that
     * decode to a NUL or to SQL, far and expanded-year dates, integers at and past 32 and 64 bits.
     */
    static final List<String> TYPED_HOSTILE = List.of("", "%20", "%09", "%E2%80%A8", "%E3%80%80",
            "MTc5NTkzMDM1MDU3OTg5ODoA", cursor("0:' OR 1=1--"), cursor("1795930350579898:\u0000"),
            cursor("-1:x"), cursor("99999999999999999999:x"), "-4713-01-01", "-999999999-01-01", "%2B10000-01-01",
            "0000-01-01", "9999-12-31T23:59:59Z", "2026-02-30", "2147483648", "-2147483649", "0",
            "9223372036854775808", "1e309", "NaN");
    /** Blank texts every text field of a body is sent with: empty, space, tab, line separator, ideographic space. */
    static final List<String> BLANKS = List.of("", " ", "\t", "\u2028", "\u3000");
    private static final Path FAILURES = Path.of("target", "fuzz-failures.txt");

    private static final OpenApiDocument DOCUMENT = OpenApiDocument.load();
    private static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();
    private static Stack.Vendor vendor;
    private static final Map<Integer, Integer> STATUSES = new java.util.concurrent.ConcurrentSkipListMap<>();

    /** One request of the fuzz. */
    record Case(String what, String method, String target, Map<String, String> headers, byte[] body) {

        String reproduction() {
            StringBuilder curl = new StringBuilder("curl -i -X ").append(method).append(" '").append(Stack.gateway())
                    .append(target).append('\'');
            headers.forEach((name, value) -> curl.append(" -H '").append(name).append(": ")
                    .append(value.length() > 120
                            ? value.substring(0, 120) + "...(" + value.length() + " chars)"
                            : value.replaceAll("Bearer .*", "Bearer $TOKEN"))
                    .append('\''));
            if (body != null) {
                String text = new String(body, StandardCharsets.UTF_8);
                curl.append(" --data-binary '").append(text.length() > 600
                        ? text.substring(0, 600) + "...(" + body.length + " bytes)"
                        : text).append('\'');
            }
            return what + "\n  " + curl;
        }
    }

    @BeforeAll
    static void onboard() throws IOException {
        vendor = Stack.onboard("contract fuzz");
        Files.createDirectories(FAILURES.getParent());
        Files.deleteIfExists(FAILURES);
    }

    @AfterAll
    static void offboard() {
        Stack.delete(vendor);
        System.out.println("contract fuzz: " + STATUSES.values().stream().mapToInt(Integer::intValue).sum()
                + " requests, answers by status " + STATUSES);
    }

    @TestFactory
    Stream<DynamicTest> noOperationAnswers5xxAndEveryErrorHasTheErrorBody() {
        System.out.println("contract fuzz: seed " + SEED + ", rounds " + ROUNDS + " (-Dpmedia.fuzz.seed="
                + SEED + " reproduces it)");
        return DOCUMENT.operations().stream()
                .map(operation -> DynamicTest.dynamicTest(operation.toString(), () -> fuzz(operation)));
    }

    private void fuzz(OpenApiDocument.Operation operation) {
        Random random = new Random(SEED ^ operation.toString().hashCode());
        List<String> failures = new ArrayList<>();
        List<Case> cases = cases(operation, new SchemaValues(DOCUMENT, random), random);
        for (Case fuzzCase : cases) {
            HttpResponse<String> response = send(fuzzCase);
            STATUSES.merge(response.statusCode(), 1, Integer::sum);
            String failure = check(fuzzCase, response);
            if (failure != null) {
                failures.add(failure + "\n" + fuzzCase.reproduction());
            }
        }
        if (!failures.isEmpty()) {
            try {
                Files.writeString(FAILURES, String.join("\n\n", failures) + "\n\n", StandardOpenOption.CREATE,
                        StandardOpenOption.APPEND);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        assertThat(failures).as(operation + ": " + cases.size() + " cases, seed " + SEED).isEmpty();
    }

    // --- the cases ---------------------------------------------------------------------------------------------

    private List<Case> cases(OpenApiDocument.Operation operation, SchemaValues values, Random random) {
        List<Case> cases = new ArrayList<>();
        boolean tokenEndpoint = operation.isPublic() && operation.path().contains("oken");
        Map<String, String> path = pathValues(operation, values);
        Map<String, String> query = queryValues(operation, values, false);
        Map<String, String> headers = credentials(operation);
        JsonNode schema = operation.jsonBody();
        JsonNode body = schema == null ? null : values.valid(schema);
        boolean registers = operation.path().startsWith("/admin/") && operation.method().equals("POST");

        if (!registers || body == null) {
            cases.add(request("drawn from the schema", operation, path, query, headers, body));
        }
        for (int round = 0; round < ROUNDS; round++) {
            if (body != null) {
                bodyCases(operation, values, random, path, query, headers, body, cases);
            } else if (operation.method().equals("POST") || operation.method().equals("PUT")) {
                cases.add(raw("an unexpected JSON body", operation, path, query, json(headers), "{\"x\":1}"));
            }
            for (OpenApiDocument.Parameter parameter : operation.parameters()) {
                String hostile = values.hostileText();
                if (parameter.in().equals("path")) {
                    Map<String, String> odd = new LinkedHashMap<>(path);
                    odd.put(parameter.name(), encode(hostile));
                    cases.add(request("hostile path parameter " + parameter.name(), operation, odd, query, headers,
                            body));
                    odd.put(parameter.name(), "%ff%fe%00");
                    cases.add(request("invalid UTF-8 in path parameter " + parameter.name(), operation, odd, query,
                            headers, body));
                } else if (parameter.in().equals("query")) {
                    if (round == 0) {
                        for (String value : TYPED_HOSTILE) {
                            Map<String, String> typed = new LinkedHashMap<>(query);
                            typed.put(parameter.name(), value);
                            cases.add(request("query parameter " + parameter.name() + "=" + value, operation, path,
                                    typed, headers, body));
                        }
                    }
                    Map<String, String> odd = new LinkedHashMap<>(query);
                    odd.put(parameter.name(), encode(hostile));
                    cases.add(request("hostile query parameter " + parameter.name(), operation, path, odd, headers,
                            body));
                    odd.put(parameter.name(), random.nextBoolean() ? "-1" : "99999999999999999999");
                    cases.add(request("absurd query parameter " + parameter.name(), operation, path, odd, headers,
                            body));
                }
            }
            Map<String, String> extraQuery = new LinkedHashMap<>(query);
            extraQuery.put("unknown", "%00" + values.word());
            cases.add(request("an undeclared query parameter with NUL", operation, path, extraQuery, headers, body));
            Map<String, String> odd = new LinkedHashMap<>(headers);
            odd.put("X-Fuzz", "h".repeat(30_000 + random.nextInt(70_000)));
            cases.add(request("a header block over the limit", operation, path, query, odd, body));
            odd = new LinkedHashMap<>(headers);
            odd.put("Accept", random.nextBoolean() ? "image/png" : "text/html;q=0.9, */*;q=0");
            odd.put("X-Request-Id", "r".repeat(150) + values.word());
            cases.add(request("an odd Accept and request id", operation, path, query, odd, body));
            if (!operation.isPublic()) {
                odd = new LinkedHashMap<>(headers);
                odd.put("Authorization", random.nextBoolean() ? "Bearer " + values.word() : "Basic Og==");
                cases.add(request("a forged credential", operation, path, query, odd, body));
            }
        }
        if (tokenEndpoint && cases.size() > TOKEN_CASES) {
            // Each failed attempt counts against this machine's address: a handful, spread over the kinds.
            List<Case> few = new ArrayList<>();
            for (int i = 0; i < TOKEN_CASES; i++) {
                few.add(cases.get(i * cases.size() / TOKEN_CASES));
            }
            return few;
        }
        return cases;
    }

    private void bodyCases(OpenApiDocument.Operation operation, SchemaValues values, Random random,
            Map<String, String> path, Map<String, String> query, Map<String, String> headers, JsonNode body,
            List<Case> cases) {
        List<List<Object>> leaves = SchemaValues.leaves(body);
        for (List<Object> leaf : leaves) {
            if (body.at(pointer(leaf)).isTextual()) {
                for (String blank : BLANKS) {
                    cases.add(request("a blank (" + blank.codePoints().mapToObj(c -> "U+%04X".formatted(c)).toList()
                            + ") at " + leaf, operation, path, query, headers,
                            SchemaValues.replaced(body, leaf, TextNode.valueOf(blank))));
                }
            }
        }
        for (List<Object> leaf : pick(leaves, 8, random)) {
            cases.add(request("hostile text at " + leaf, operation, path, query, headers,
                    SchemaValues.replaced(body, leaf, TextNode.valueOf(values.hostileText()))));
        }
        for (List<Object> leaf : pick(leaves, 3, random)) {
            cases.add(request("a wrong type at " + leaf, operation, path, query, headers,
                    SchemaValues.replaced(body, leaf, values.wrongType(body.at(pointer(leaf))))));
        }
        for (List<Object> leaf : pick(leaves, 2, random)) {
            cases.add(request("an absurd number at " + leaf, operation, path, query, headers,
                    SchemaValues.replaced(body, leaf, values.absurdNumber())));
        }
        if (!leaves.isEmpty()) {
            List<Object> leaf = leaves.get(random.nextInt(leaves.size()));
            cases.add(request("a 1 MB string at " + leaf, operation, path, query, headers,
                    SchemaValues.replaced(body, leaf, TextNode.valueOf("m".repeat(1_000_000)))));
            cases.add(raw("10,000-deep nesting at " + leaf, operation, path, query, json(headers),
                    write(SchemaValues.replaced(body, leaf, TextNode.valueOf("@@deep@@")))
                            .replace("\"@@deep@@\"", SchemaValues.deeplyNested(10_000))));
        }
        if (body.isObject()) {
            ObjectNode unknown = body.deepCopy();
            unknown.put("unknown-" + values.word(), values.hostileText());
            unknown.put("nul\u0000key", 1);
            cases.add(request("unknown keys", operation, path, query, headers, unknown));
        }
        cases.add(raw("10,000-deep nesting as the body", operation, path, query, json(headers),
                SchemaValues.deeplyNested(10_000)));
        for (String broken : List.of("", "null", "[]", "{", "{\"a\":1}{\"b\":2}", "\"text\"", "{}")) {
            cases.add(raw("the body " + (broken.isEmpty() ? "(empty)" : broken), operation, path, query,
                    json(headers), broken));
        }
        Case invalidUtf8 = raw("invalid UTF-8 in the body", operation, path, query, json(headers), "");
        cases.add(new Case(invalidUtf8.what(), invalidUtf8.method(), invalidUtf8.target(), invalidUtf8.headers(),
                new byte[]{'{', '"', 'a', '"', ':', '"', (byte) 0xff, (byte) 0xfe, '"', '}'}));
        for (String type : List.of("text/plain", "application/xml", "application/json; charset=utf-16",
                "multipart/form-data; boundary=x", "a/b/c", "application/json;;;")) {
            Map<String, String> typed = new LinkedHashMap<>(headers);
            typed.put("Content-Type", type);
            cases.add(new Case("Content-Type " + type, operation.method(), target(operation, path, query), typed,
                    write(body).getBytes(StandardCharsets.UTF_8)));
        }
    }

    private static String cursor(String decoded) {
        return Base64.getUrlEncoder().withoutPadding()
                .encodeToString(decoded.getBytes(StandardCharsets.UTF_8));
    }

    private static <T> List<T> pick(List<T> from, int count, Random random) {
        List<T> copy = new ArrayList<>(from);
        java.util.Collections.shuffle(copy, random);
        return copy.subList(0, Math.min(count, copy.size()));
    }

    private static String pointer(List<Object> path) {
        StringBuilder pointer = new StringBuilder();
        for (Object step : path) {
            pointer.append('/').append(String.valueOf(step).replace("~", "~0").replace("/", "~1"));
        }
        return pointer.toString();
    }

    private Map<String, String> pathValues(OpenApiDocument.Operation operation, SchemaValues values) {
        Map<String, String> path = new LinkedHashMap<>();
        for (OpenApiDocument.Parameter parameter : operation.parameters()) {
            if (parameter.in().equals("path")) {
                path.put(parameter.name(), encode(values.valid(parameter.schema()).asText()));
            }
        }
        return path;
    }

    private Map<String, String> queryValues(OpenApiDocument.Operation operation, SchemaValues values,
            boolean all) {
        Map<String, String> query = new LinkedHashMap<>();
        for (OpenApiDocument.Parameter parameter : operation.parameters()) {
            if (parameter.in().equals("query") && (parameter.required() || all)) {
                query.put(parameter.name(), encode(values.valid(parameter.schema()).asText()));
            }
        }
        return query;
    }

    /** The credentials the operation takes: the operator's token, or the fuzz vendor's token (and API key). */
    private static Map<String, String> credentials(OpenApiDocument.Operation operation) {
        Map<String, String> headers = new LinkedHashMap<>();
        if (operation.takes("adminToken")) {
            headers.put("Authorization", "Bearer " + Stack.adminToken());
            return headers;
        }
        if (operation.takes("bearer")) {
            headers.put("Authorization", "Bearer " + vendor.token());
        }
        if (operation.takes("apiKey")) {
            headers.put("x-api-key", vendor.apiKey());
        }
        return headers;
    }

    private static Map<String, String> json(Map<String, String> headers) {
        Map<String, String> typed = new LinkedHashMap<>(headers);
        typed.put("Content-Type", "application/json");
        return typed;
    }

    private static Case request(String what, OpenApiDocument.Operation operation, Map<String, String> path,
            Map<String, String> query, Map<String, String> headers, JsonNode body) {
        if (body == null) {
            return new Case(what, operation.method(), target(operation, path, query), headers, null);
        }
        return raw(what, operation, path, query, json(headers), write(body));
    }

    private static Case raw(String what, OpenApiDocument.Operation operation, Map<String, String> path,
            Map<String, String> query, Map<String, String> headers, String body) {
        return new Case(what, operation.method(), target(operation, path, query), headers,
                body.getBytes(StandardCharsets.UTF_8));
    }

    private static String target(OpenApiDocument.Operation operation, Map<String, String> path,
            Map<String, String> query) {
        String target = operation.path();
        for (Map.Entry<String, String> parameter : path.entrySet()) {
            target = target.replace("{" + parameter.getKey() + "}", parameter.getValue());
        }
        if (!query.isEmpty()) {
            StringBuilder q = new StringBuilder();
            query.forEach((name, value) -> q.append(q.isEmpty() ? "?" : "&").append(name).append('=').append(value));
            target += q;
        }
        return target;
    }

    /** Percent-encodes a text for a path segment or a query value (a lone surrogate as the bytes Java gives it). */
    private static String encode(String value) {
        String text = value.replace(SchemaValues.LONE_SURROGATE, "\ud800");
        return URLEncoder.encode(text, StandardCharsets.UTF_8).replace("+", "%20");
    }

    /** The JSON text, with the lone-surrogate stand-in replaced by its escape. */
    private static String write(JsonNode body) {
        try {
            return JSON.writeValueAsString(body).replace(SchemaValues.LONE_SURROGATE, "\\ud800");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    // --- sending and checking ----------------------------------------------------------------------------------

    /** One answer; a 429 is waited out (its Retry-After) and the case sent again, so each case is really tried. */
    private static HttpResponse<String> send(Case fuzzCase) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(Stack.gateway() + fuzzCase.target()))
                .timeout(Duration.ofSeconds(60))
                .method(fuzzCase.method(), fuzzCase.body() == null
                        ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofByteArray(fuzzCase.body()));
        fuzzCase.headers().forEach(request::header);
        HttpRequest built = request.build();
        try {
            HttpResponse<String> response = null;
            for (int attempt = 0; attempt < 4; attempt++) {
                response = HTTP.send(built, HttpResponse.BodyHandlers.ofString());
                if (response.statusCode() != 429 || fuzzCase.what().contains("forged")) {
                    return response;
                }
                long wait = response.headers().firstValueAsLong("Retry-After").orElse(1);
                // Pacing under the vendor's documented budget, not synchronisation.
                Thread.sleep(Math.min(10, wait) * 1000);
            }
            return response;
        } catch (IOException e) {
            throw new UncheckedIOException(fuzzCase.what() + ": no answer: " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** Null when the answer keeps the contract; else what is wrong with it. */
    static String check(Case fuzzCase, HttpResponse<String> response) {
        int status = response.statusCode();
        if (status >= 500) {
            return "answered " + status + ": " + abbreviate(response.body());
        }
        if (status < 400) {
            return null;
        }
        String type = response.headers().firstValue("Content-Type").orElse("");
        if (status == 404 && type.startsWith("text/html") && fuzzCase.target().startsWith("/v/")
                && fuzzCase.headers().getOrDefault("Accept", "").contains("text/html")) {
            // A share page's not-found page, for a browser (docs/sharing.md; the document lists text/html).
            return null;
        }
        if (!type.startsWith("application/json")) {
            return "answered " + status + " with Content-Type '" + type + "', not the error body";
        }
        JsonNode error;
        try {
            error = JSON.readTree(response.body());
        } catch (IOException e) {
            return "answered " + status + " with a body that is not JSON: " + abbreviate(response.body());
        }
        if (error == null || !error.path("error").asBoolean(false) || !error.path("message").isTextual()
                || error.path("message").asText().isBlank() || !CODES.contains(error.path("code").asText())
                || !parses(error.path("timestamp").asText())) {
            return "answered " + status + " without the 2.11 error body: " + abbreviate(response.body());
        }
        if ((status == 429 || status == 503) && response.headers().firstValue("Retry-After").isEmpty()) {
            return "answered " + status + " without Retry-After";
        }
        return null;
    }

    private static boolean parses(String timestamp) {
        try {
            Instant.parse(timestamp);
            return true;
        } catch (RuntimeException e) {
            return false;
        }
    }

    private static String abbreviate(String text) {
        return text == null ? "(no body)" : text.length() > 300 ? text.substring(0, 300) + "..." : text;
    }
}
