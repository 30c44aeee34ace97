package io.pmedia.system;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import io.restassured.response.Response;

/**
 * What an outside review found through the gateway (issue 20), each kept found: every one of these answered 500, an
 * empty body, a silently ignored key, a refused spelling or a detail of the platform's network before the fix.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class HardeningTest {

    private Stack.Vendor vendor;
    private Stack.Vendor other;

    @BeforeAll
    void onboard() {
        vendor = Stack.onboard("hardening");
        other = Stack.onboard("hardening other");
    }

    @AfterAll
    void offboard() {
        Stack.delete(vendor);
        Stack.delete(other);
    }

    @ParameterizedTest(name = "NUL in {1} of {0}")
    @CsvSource({
            "/media/demo, client-request-id",
            "/media/demo, customer-id",
            "/vton/request, user-id",
            "/vton/request, usecase-id",
            "/admin/clients, name"})
    void aNulInAStringFieldIsAValidationErrorNamingTheField(String path, String field) {
        Map<String, Object> body = switch (path) {
            case "/media/demo" -> new HashMap<>(Map.of("client-request-id", "nul-" + UUID.randomUUID(),
                    "customer-id", "c", "use-case-id", Stack.env().get("PMEDIA_DEMO_USE_CASE_ID"), "user-id", "u",
                    "data", Map.of("personalization_fields", Map.of("name", "Asha"))));
            case "/vton/request" -> new HashMap<>(Map.of("user-id", "u", "client-id", vendor.id().toString(),
                    "usecase-id", "uc", "model-image", "https://example.com/m.png",
                    "garment-image", List.of("https://example.com/g.png")));
            default -> new HashMap<>(Map.of("name", "nul"));
        };
        body.put(field, "a\u0000b");
        var call = path.startsWith("/admin/")
                ? Stack.admin().contentType(ContentType.JSON).body(body)
                : vendor.json(body);

        call.post(path).then().statusCode(400)
                .body("code", org.hamcrest.Matchers.equalTo("VALIDATION_ERROR"))
                .body("message", org.hamcrest.Matchers.containsString("'" + field + "'"))
                .body("message", org.hamcrest.Matchers.containsString("U+0000"));
    }

    @Test
    void aLoneSurrogateIsRefusedNamingTheField() {
        String body = "{\"client-request-id\":\"a\\ud800b\",\"customer-id\":\"c\",\"use-case-id\":\"x\","
                + "\"user-id\":\"u\"}";
        vendor.call().contentType(ContentType.JSON).body(body).post("/media/demo").then().statusCode(400)
                .body("code", org.hamcrest.Matchers.equalTo("VALIDATION_ERROR"))
                .body("message", org.hamcrest.Matchers.containsString("'client-request-id'"));
    }

    @Test
    void concurrentIdenticalSchedulesOfOneCampaignAllSucceedOnOneSchedule() throws Exception {
        String campaign = "race-" + UUID.randomUUID();
        Map<String, String> window = Map.of("start_time", "2030-01-01T00:00:00Z", "end_time", "2030-01-02T00:00:00Z");

        List<Response> answers = all(8, () -> vendor.json(window).post("/campaigns/" + campaign + "/schedule"));

        assertThat(answers).extracting(Response::statusCode).containsOnly(200);
        vendor.call().get("/campaigns/" + campaign + "/schedule").then().statusCode(200)
                .body("start_time", org.hamcrest.Matchers.equalTo("2030-01-01T00:00:00Z"));
    }

    @Test
    void concurrentIdenticalTemplatesAreOneVersion() throws Exception {
        String useCase = "race-" + UUID.randomUUID().toString().substring(0, 8);
        Map<String, Object> definition = Map.of("use-case-id", useCase, "name", "Race",
                "canvas", Map.of("width", 320, "height", 240, "fps", 25, "background", "#112233"),
                "segments", List.of(Map.of("id", "one", "duration", 1, "background", Map.of("color", "#112233"))));

        List<Response> answers = all(8, () -> vendor.json(definition).post("/templates"));

        assertThat(answers).extracting(Response::statusCode).containsOnly(200, 201);
        assertThat(answers).filteredOn(answer -> answer.statusCode() == 201).hasSize(1);
        assertThat(answers).extracting(answer -> answer.jsonPath().getString("template-id")).containsOnly(
                answers.get(0).jsonPath().getString("template-id"));
        assertThat(answers).extracting(answer -> answer.jsonPath().getInt("version")).containsOnly(1);
    }

    @ParameterizedTest(name = "a header block of {0} bytes")
    @ValueSource(ints = {70_000, 200_000, 1_000_000})
    void headersOverTheLimitAnswer431WithTheErrorBody(int size) throws Exception {
        HttpResponse<String> answer = HttpClient.newHttpClient().send(HttpRequest
                .newBuilder(URI.create(Stack.gateway() + "/templates"))
                .header("Authorization", "Bearer " + vendor.token())
                .header("X-Big", "a".repeat(size)).GET().build(), HttpResponse.BodyHandlers.ofString());

        assertThat(answer.statusCode()).isEqualTo(431);
        assertThat(answer.headers().firstValue("Content-Type")).hasValueSatisfying(
                type -> assertThat(type).startsWith("application/json"));
        assertThat(JsonPath.from(answer.body()).getString("message")).contains("request headers are too large");
    }

    /** The JDK's HTTP client asks plain-HTTP servers for an h2c upgrade; a bodyless POST with it answered 500. */
    @Test
    void anH2cUpgradeOfABodylessPostIsServedAsHttp11() throws Exception {
        HttpResponse<String> answer = HttpClient.newBuilder().version(HttpClient.Version.HTTP_2).build()
                .send(HttpRequest.newBuilder(URI.create(Stack.gateway() + "/admin/clients/" + UUID.randomUUID()
                        + "/rotate-api-key")).header("Authorization", "Bearer " + Stack.adminToken())
                        .POST(HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString());

        assertThat(answer.statusCode()).as(answer.body()).isEqualTo(404);
        assertThat(JsonPath.from(answer.body()).getString("code")).isEqualTo("NOT_FOUND");
    }

    @Test
    void onboardingRefusesAnUnknownKeyAsPatchDoes() {
        Stack.admin().contentType(ContentType.JSON)
                .body(Map.of("name", "typo vendor", "webhook_url", "https://example.com/hook"))
                .post("/admin/clients").then().statusCode(400)
                .body("code", org.hamcrest.Matchers.equalTo("VALIDATION_ERROR"))
                .body("message", org.hamcrest.Matchers.containsString("'webhook_url'"));
    }

    @Test
    void aRealtimeAssetMayBeTheVendorsOwnObjectAsAnS3Path() {
        String image = Stack.upload(vendor, "photo.png", Stack.png("orange", 64, 64));

        JsonPath own = Stack.finalStatus(vendor, Stack.render(vendor, Map.of("global_assets",
                Map.of("images", List.of(image)), "personalization_fields", Map.of("name", "Own"))));
        JsonPath foreign = Stack.finalStatus(other, Stack.render(other, Map.of("global_assets",
                Map.of("images", List.of(image)), "personalization_fields", Map.of("name", "Foreign"))));

        assertThat(own.getString("status")).as(own.getString("message")).isEqualTo("SUCCESS");
        assertThat(foreign.getString("status")).isEqualTo("FAILURE");
        assertThat(foreign.getString("message")).contains("could not be fetched: not found");
    }

    @Test
    void aTryOnModelImageMayBeTheVendorsOwnObjectAsAnS3Path() {
        String model = Stack.upload(vendor, "model.png", Stack.png("gray", 96, 160));
        String garment = Stack.upload(vendor, "garment.png", Stack.png("red", 48, 48));

        String id = vendor.json(Map.of("user-id", "u-1", "client-id", vendor.id().toString(), "usecase-id", "uc",
                "model-image", model, "garment-image", List.of(garment))).post("/vton/request").then()
                .statusCode(200).extract().path("request-id");

        JsonPath status = Stack.finalTryOn(vendor, id);
        assertThat(status.getString("status")).as(status.getString("message")).isEqualTo("SUCCESS");
    }

    @Test
    void aFetchFailureSaysWhatFailedWithoutWhatThePlatformFoundThere() {
        // Nothing listens on port 1 (refused); the gateway's management port answers metrics (openmetrics text).
        JsonPath refused = Stack.finalStatus(vendor, Stack.render(vendor, Map.of("global_assets",
                Map.of("images", List.of("http://127.0.0.2:1/x.png")), "personalization_fields",
                Map.of("name", "Refused"))));
        JsonPath metrics = Stack.finalStatus(vendor, Stack.render(vendor, Map.of("global_assets",
                Map.of("images", List.of("http://127.0.0.1:9180/q/metrics")), "personalization_fields",
                Map.of("name", "Metrics"))));

        assertThat(refused.getString("status")).isEqualTo("FAILURE");
        assertThat(refused.getString("message")).contains("could not reach '127.0.0.2'")
                .doesNotContainIgnoringCase("refused");
        assertThat(metrics.getString("status")).isEqualTo("FAILURE");
        assertThat(metrics.getString("message")).doesNotContain("openmetrics").doesNotContain("text/plain");
    }

    private static List<Response> all(int count, Callable<Response> call) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(count);
        try {
            List<Future<Response>> started = new ArrayList<>();
            for (int i = 0; i < count; i++) {
                started.add(pool.submit(call));
            }
            List<Response> answers = new ArrayList<>();
            for (Future<Response> answer : started) {
                answers.add(answer.get());
            }
            return answers;
        } finally {
            pool.shutdownNow();
        }
    }
}
