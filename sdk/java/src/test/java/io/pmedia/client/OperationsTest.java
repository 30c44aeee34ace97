package io.pmedia.client;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;

import io.pmedia.client.Operations.Credential;
import io.pmedia.client.invoker.ContractOperations;
import io.pmedia.client.model.AccessToken;

/**
 * The credentials table of {@link Operations} is read from the contract: for every operation of docs/openapi.yaml,
 * the SDK sends what its security requirements ask for (the generated Java client applies none by itself).
 */
class OperationsTest {

    @Test
    void everyOperationGetsTheCredentialsItsSecurityRequirementsName() throws IOException {
        JsonNode document = new ObjectMapper(new YAMLFactory())
                .readTree(Path.of("../../docs/openapi.yaml").toFile());
        List<String> checked = new ArrayList<>();
        document.path("paths").fields().forEachRemaining(path -> path.getValue().fields().forEachRemaining(op -> {
            if (!op.getValue().isObject() || !op.getValue().has("responses")) {
                return;
            }
            JsonNode security = op.getValue().has("security")
                    ? op.getValue().get("security")
                    : document.get("security");
            Set<Set<String>> alternatives = new java.util.HashSet<>();
            security.forEach(requirement -> {
                Set<String> schemes = new TreeSet<>();
                requirement.fieldNames().forEachRemaining(schemes::add);
                alternatives.add(schemes);
            });
            String concrete = path.getKey().replaceAll("\\{[^}]+}", "x1");
            assertThat(Operations.credential(concrete)).as(op.getKey() + " " + path.getKey())
                    .isEqualTo(expected(alternatives));
            checked.add(path.getKey());
        }));
        assertThat(checked).contains("/auth/token", "/video/demo", "/status/{transactionId}", "/admin/clients");
    }

    private static Credential expected(Set<Set<String>> alternatives) {
        if (alternatives.isEmpty() || alternatives.contains(Set.of())) {
            return Credential.NONE;
        }
        Map<Set<Set<String>>, Credential> known = Map.of(
                Set.of(Set.of("bearer")), Credential.BEARER,
                Set.of(Set.of("adminToken")), Credential.ADMIN,
                Set.of(new TreeSet<>(List.of("apiKey", "bearer"))), Credential.BEARER_AND_API_KEY,
                Set.of(Set.of("apiKey"), Set.of("bearer"), new TreeSet<>(List.of("apiKey", "bearer"))),
                Credential.API_KEY_OR_BEARER);
        assertThat(known).as("a combination of security schemes the SDK does not know yet: " + alternatives)
                .containsKey(alternatives);
        return known.get(alternatives);
    }

    /** Every operation of the document, read on its own: "METHOD /path" and whether it is marked idempotent. */
    private static Map<String, Boolean> documentOperations() throws IOException {
        JsonNode document = new ObjectMapper(new YAMLFactory()).readTree(Path.of("../../docs/openapi.yaml").toFile());
        Map<String, Boolean> operations = new TreeMap<>();
        document.path("paths").fields().forEachRemaining(path -> path.getValue().fields().forEachRemaining(op -> {
            if (op.getValue().isObject() && op.getValue().has("responses")) {
                operations.put(op.getKey().toUpperCase(Locale.ROOT) + " " + path.getKey(),
                        op.getValue().path("x-pmedia-idempotent").asBoolean(false));
            }
        }));
        return operations;
    }

    @Test
    void theGeneratedTableHoldsEveryOperationOfTheDocumentWithItsMark() throws IOException {
        Map<String, Boolean> generated = new TreeMap<>();
        ContractOperations.ALL.forEach(op -> generated.put(op.method + " " + op.path, op.markedIdempotent));
        Map<String, Boolean> document = documentOperations();
        assertThat(document).hasSizeGreaterThan(60);
        assertThat(generated).isEqualTo(document);
        assertThat(document.entrySet().stream().filter(Map.Entry::getValue).map(Map.Entry::getKey)).as(
                "the operations the retries were written for").containsExactlyInAnyOrder("POST /auth/token",
                        "POST /media/demo", "POST /video/demo", "POST /media/task/uploads",
                        "POST /templates/{templateId}/preview");
    }

    @Test
    void everyOperationMarkedIdempotentIsRetriedAfterA503AndNoOtherPostOrPatchIs() throws Exception {
        // The first of each request is a 503 (Retry-After: 0), the next one a 200 (the token comes from no request).
        Map<String, AtomicInteger> sent = new ConcurrentHashMap<>();
        try (FakeApi api = new FakeApi(request -> {
            int times = sent.computeIfAbsent(request.method + " " + request.path, key -> new AtomicInteger())
                    .incrementAndGet();
            return times == 1
                    ? FakeApi.error(503, "SERVICE_UNAVAILABLE", "busy", Map.of("Retry-After", "0"))
                    : FakeApi.json(200, "{}");
        })) {
            PmediaHttpClient http = new PmediaHttpClient(HttpClient.newHttpClient(), URI.create(api.url()),
                    new TokenCache(() -> new AccessToken().accessToken("t").expiresIn(3600), Clock.systemUTC()),
                    "key", "admin", RetryPolicy.defaults());
            List<String> wrong = new ArrayList<>();
            Map<String, Boolean> mutating = new TreeMap<>(documentOperations());
            mutating.keySet().removeIf(op -> !op.startsWith("POST ") && !op.startsWith("PATCH "));
            assertThat(mutating).containsValues(true, false);
            for (Map.Entry<String, Boolean> op : mutating.entrySet()) {
                String method = op.getKey().substring(0, op.getKey().indexOf(' '));
                String path = op.getKey().substring(method.length() + 1).replaceAll("\\{[^}]+}", "x-1");
                HttpResponse<String> answer = http.send(HttpRequest.newBuilder(URI.create(api.url() + path))
                        .method(method, HttpRequest.BodyPublishers.ofString("{}")).build(),
                        HttpResponse.BodyHandlers.ofString());
                int times = sent.getOrDefault(method + " " + path, new AtomicInteger()).get();
                List<Integer> expected = op.getValue() ? List.of(200, 2) : List.of(503, 1);
                if (!List.of(answer.statusCode(), times).equals(expected)) {
                    wrong.add(op.getKey() + " (marked " + op.getValue() + "): answered " + answer.statusCode()
                            + ", sent " + times + " times");
                }
            }
            assertThat(wrong).isEmpty();
        }
    }

    @Test
    void onlyRequestsThatAreSafeTwiceAreIdempotent() {
        assertThat(Operations.idempotent("POST", "/media/demo")).isTrue();
        assertThat(Operations.idempotent("POST", "/templates/abc/preview")).isTrue();
        assertThat(Operations.idempotent("POST", "/templates/abc/preview/x")).isFalse();
        assertThat(Operations.idempotent("POST", "/auth/token")).isTrue();
        assertThat(Operations.idempotent("GET", "/media/task/status/abc")).isTrue();
        assertThat(Operations.idempotent("POST", "/media/task/create")).isFalse();
        assertThat(Operations.idempotent("POST", "/media/task/cancel/abc")).isFalse();
        assertThat(Operations.idempotent("POST", "/vton/request")).isFalse();
        assertThat(Operations.idempotent("PATCH", "/admin/clients/abc")).isFalse();
    }
}
