package io.pmedia.gateway;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;

import io.pmedia.gateway.routing.RouteTable;
import io.quarkus.test.junit.QuarkusTest;

/**
 * The OpenAPI document is the contract: docs/openapi.yaml is exactly what the gateway serves, it passes an
 * independent linter (Redocly CLI, from build/node) with zero errors, and it agrees with what the gateway routes.
 */
@QuarkusTest
class OpenApiContractTest {

    static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
    static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
    static final Path EXPORTED = ROOT.resolve("docs/openapi.yaml");
    static final Path SERVED = Path.of("target/openapi-served.yaml").toAbsolutePath();

    String served;
    JsonNode document;

    /** Per test, not in a {@code @BeforeAll}: Quarkus points rest-assured at the test port only around tests. */
    @BeforeEach
    void fetch() throws IOException {
        served = given().accept("application/yaml").get("/q/openapi").then().statusCode(200).extract().asString();
        Files.writeString(SERVED, served);
        document = YAML.readTree(served);
    }

    @Test
    void docsOpenapiYamlIsWhatTheGatewayServes() throws IOException {
        assertThat(YAML.readTree(Files.readString(EXPORTED)))
                .as("docs/openapi.yaml differs from what the gateway serves; export it again with: cp "
                        + ROOT.relativize(SERVED) + " docs/openapi.yaml")
                .isEqualTo(document);
    }

    @Test
    void redoclyLintsItWithoutErrors() throws Exception {
        Path redocly = ROOT.resolve("build/node/node_modules/.bin/redocly");
        assertThat(redocly).as("Redocly CLI is installed by ./pmedia test (npm ci --prefix build/node)").exists();
        Process lint = new ProcessBuilder(redocly.toString(), "lint", SERVED.toString(), "--format=summary",
                "--config", ROOT.resolve("redocly.yaml").toString())
                .directory(ROOT.resolve("build/node").toFile()).redirectErrorStream(true).start();
        String output = new String(lint.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(lint.waitFor(120, TimeUnit.SECONDS)).isTrue();
        assertThat(lint.exitValue()).as(output).isZero();
        // Redocly's own notices (a Node.js deprecation banner on Node 20) are not findings: a finding is a
        // "warning <rule>: <count>" line of the summary, or the "N warnings" total.
        assertThat(output).contains("Your API description is valid")
                .doesNotContainPattern("(?m)^warning\\s")
                .doesNotContainPattern("\\d+ warnings?\\b");
    }

    @Test
    void everyOperationHasAnIdAndDocumentsItsErrorsWithTheErrorBody() {
        List<String> operationIds = new ArrayList<>();
        operations().forEach((where, operation) -> {
            assertThat(operation.path("operationId").asText()).as(where + " operationId").isNotBlank();
            operationIds.add(operation.path("operationId").asText());
            List<String> errors = new ArrayList<>();
            operation.path("responses").fieldNames().forEachRemaining(status -> {
                if (status.startsWith("4") || status.startsWith("5")) {
                    errors.add(status);
                    JsonNode response = resolve(operation.path("responses").path(status));
                    assertThat(response.at("/content/application~1json/schema/$ref").asText())
                            .as(where + " " + status).isEqualTo("#/components/schemas/ErrorResponse");
                }
            });
            assertThat(errors).as(where + " documents its error answers").isNotEmpty();
        });
        assertThat(operationIds).doesNotHaveDuplicates();
    }

    @Test
    void theTokenEndpointsNeedNoCredentialsAndDocumentTheirRefusals() {
        for (String where : List.of("/auth/token post", "/getToken get")) {
            JsonNode operation = operations().get(where);
            assertThat(operation.get("security")).as(where).isNotNull();
            assertThat(operation.get("security").isEmpty()).as(where + " security: []").isTrue();
            assertThat(operation.path("responses").has("400")).isTrue();
            assertThat(operation.path("responses").has("401")).isTrue();
            assertThat(operation.path("responses").has("429")).isTrue();
        }
        assertThat(operations().get("/getToken get").path("responses").has("403")).isTrue();
        assertThat(document.at("/components/schemas/Credentials/required").toString())
                .contains("client_id", "client_secret");
        operations().get("/getToken get").path("parameters")
                .forEach(parameter -> assertThat(parameter.path("required").asBoolean()).isTrue());
    }

    @Test
    void itIsOpenApi31WithServersAndNoNullableKeyword() {
        assertThat(document.path("openapi").asText()).startsWith("3.1");
        assertThat(document.path("servers")).isNotEmpty();
        assertThat(served).doesNotContain("nullable");
    }

    @Test
    void everyRouteTheGatewayForwardsIsDocumented() {
        Map<String, JsonNode> operations = operations();
        for (RouteTable.Route route : RouteTable.ROUTES) {
            String path = route.path().replaceAll(":([A-Za-z_]+)", "{$1}").replace("/*", "/{useCaseId}");
            assertThat(operations).as(route.method() + " " + route.path())
                    .containsKey(path + " " + route.method().name().toLowerCase(Locale.ROOT));
        }
    }

    private Map<String, JsonNode> operations() {
        Map<String, JsonNode> found = new java.util.LinkedHashMap<>();
        for (Iterator<Map.Entry<String, JsonNode>> paths = document.path("paths").fields(); paths.hasNext();) {
            Map.Entry<String, JsonNode> path = paths.next();
            for (String method : List.of("get", "post", "put", "patch", "delete")) {
                if (path.getValue().has(method)) {
                    found.put(path.getKey() + " " + method, path.getValue().get(method));
                }
            }
        }
        return found;
    }

    private JsonNode resolve(JsonNode node) {
        String ref = node.path("$ref").asText();
        return ref.isEmpty() ? node : document.at(ref.substring(1));
    }
}
