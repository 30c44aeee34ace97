package io.pmedia.client;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;

import io.pmedia.client.Operations.Credential;

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

    @Test
    void onlyRequestsThatAreSafeTwiceAreIdempotent() {
        assertThat(Operations.idempotent("POST", "/media/demo")).isTrue();
        assertThat(Operations.idempotent("POST", "/templates/abc/preview")).isTrue();
        assertThat(Operations.idempotent("GET", "/media/task/status/abc")).isTrue();
        assertThat(Operations.idempotent("POST", "/media/task/create")).isFalse();
        assertThat(Operations.idempotent("POST", "/media/task/cancel/abc")).isFalse();
        assertThat(Operations.idempotent("POST", "/vton/request")).isFalse();
        assertThat(Operations.idempotent("PATCH", "/admin/clients/abc")).isFalse();
    }
}
