package io.pmedia.media;

import static io.pmedia.media.MediaApi.awaitFinal;
import static io.pmedia.media.MediaApi.body;
import static io.pmedia.media.MediaApi.request;
import static io.pmedia.media.MediaApi.status;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import io.pmedia.testing.KafkaEvents;
import io.pmedia.testing.Patience;
import io.pmedia.testing.TestTokens;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;

/** Idempotency, the FAILURE acceptances, input errors and ownership. */
@QuarkusTest
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class RequestRulesTest {

    @ConfigProperty(name = "kafka.bootstrap.servers")
    String bootstrap;

    @BeforeEach
    void template() {
        MediaApi.registerTemplate(MediaApi.TINY);
    }

    @Test
    void sameRequestTwiceIsOneRequestAndOneRender() {
        UUID client = UUID.randomUUID();
        Map<String, Object> body = body("idem-1", "tiny", Map.of("personalization_fields", Map.of("name", "Cy")));
        String first = request(client, body).statusCode(200).extract().path("service-request-id");
        JsonPath json = request(client, body).statusCode(200).extract().jsonPath();
        assertThat(json.<Object>get("service-request-id")).isEqualTo(first);
        assertThat(json.getString("status")).isEqualTo("SUCCESS");
        assertThat(json.getString("message")).isEqualTo("request accepted");
        assertThat(awaitFinal(client, first).getString("status")).isEqualTo("SUCCESS");
        assertThat(request(client, body).statusCode(200)
                .extract().jsonPath().<Object>get("service-request-id")).isEqualTo(first);

        try (KafkaEvents jobs = KafkaEvents.of(bootstrap, "pmedia.render.jobs")) {
            Patience.await().until(() -> !jobs.withKey(first).isEmpty());
            String marker = request(client, body("idem-marker", "tiny", Map.of("personalization_fields",
                    Map.of("name", "Z")))).extract().path("service-request-id");
            Patience.await().until(() -> !jobs.withKey(marker).isEmpty());
            assertThat(jobs.withKey(first)).hasSize(1);
        }
    }

    @Test
    void fieldsTheTemplateDoesNotUseAreIgnoredAndNamedAndNumbersRenderAsText() {
        UUID client = UUID.randomUUID();
        Map<String, Object> fields = new HashMap<>();
        fields.put("name", 42);
        fields.put("first_name", "Ada");
        fields.put("vip", true);
        fields.put("nothing", null);
        JsonPath json = request(client, body("lenient-1", "tiny", Map.of("personalization_fields", fields)))
                .statusCode(200).extract().jsonPath();
        assertThat(json.getString("status")).isEqualTo("SUCCESS");
        assertThat(json.getString("message")).startsWith("request accepted; ignored fields: ")
                .contains("first_name").contains("vip").doesNotContain("nothing").doesNotContain("name,");
        assertThat(awaitFinal(client, json.getString("service-request-id")).getString("status"))
                .isEqualTo("SUCCESS");
    }

    @Test
    void theSameRequestSentConcurrentlyIsStillOneRequest() throws Exception {
        UUID client = UUID.randomUUID();
        Map<String, Object> body = body("race-1", "tiny", Map.of("personalization_fields", Map.of("name", "Ra")));
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<Future<String>> answers = new ArrayList<>();
            for (int i = 0; i < 4; i++) {
                answers.add(pool.submit(() -> {
                    JsonPath accepted = request(client, body).statusCode(200).extract().jsonPath();
                    assertThat(accepted.getString("status")).isEqualTo("SUCCESS");
                    return accepted.getString("service-request-id");
                }));
            }
            Set<String> ids = new HashSet<>();
            for (Future<String> answer : answers) {
                ids.add(answer.get(30, TimeUnit.SECONDS));
            }
            assertThat(ids).hasSize(1);
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void sameIdWithAnotherBodyIsAConflict() {
        UUID client = UUID.randomUUID();
        request(client, body("idem-2", "tiny", Map.of("personalization_fields", Map.of("name", "Cy"))))
                .statusCode(200);
        JsonPath json = request(client, body("idem-2", "tiny", Map.of("personalization_fields", Map.of("name", "Di"))))
                .statusCode(409).extract().jsonPath();
        assertThat(json.getString("code")).isEqualTo("CONFLICT");
        assertThat(json.getBoolean("error")).isTrue();
        assertThat(json.getString("message")).contains("idem-2");
        assertThat(request(UUID.randomUUID(),
                body("idem-2", "tiny", Map.of("personalization_fields", Map.of("name", "Di"))))
                .statusCode(200)
                .extract().jsonPath().getString("status")).isEqualTo("SUCCESS");
    }

    @Test
    void requestsThatCannotBeServedAreAcceptedAsFailuresWithTheReason() {
        UUID client = UUID.randomUUID();
        assertFailure(client, body("f-1", "no-such-case", Map.of()), "unknown use-case-id 'no-such-case'");
        assertFailure(client, body("f-2", "tiny", Map.of("personalization_fields", Map.of("offer", "x"))),
                "personalization field 'name' is required by use case 'tiny'");
        assertFailure(client, body("f-3", "tiny", Map.of("personalization_fields", Map.of("name", "Cy"),
                "global_assets", Map.of("images", List.of("ftp://example.com/a.png")))),
                "global_assets.images[0] is not an http(s) URL or an s3:// object path");
        assertFailure(client, body("f-5", "tiny", Map.of("personalization_fields", Map.of("name", "Cy"),
                "global_assets", Map.of("images", List.of("http://127.0.0.1:99999/a.png")))),
                "global_assets.images[0] cannot be fetched: 'http://127.0.0.1:99999/a.png' has no valid port");
        assertFailure(client, body("f-4", "tiny", Map.of("personalization_fields", Map.of("name", "Cy"),
                "frame_segments", List.of(Map.of("segment_id", "middle")))), "no segment 'middle'");

    }

    private static void assertFailure(UUID client, Map<String, Object> body, String reason) {
        JsonPath json = request(client, body).statusCode(200).extract().jsonPath();
        assertThat(json.getString("status")).isEqualTo("FAILURE");
        assertThat(json.getString("message")).contains(reason);
        String id = json.getString("service-request-id");
        JsonPath json2 = status(client, id).statusCode(200).extract().jsonPath();
        assertThat(json2.getString("status")).isEqualTo("FAILURE");
        assertThat(json2.getString("message")).contains(reason);
        assertThat(json2.<Object>get("video-url")).isNull();
    }

    @Test
    void malformedOrMistypedInputIsABadRequest() {
        UUID client = UUID.randomUUID();
        assertThat(
                given().header("Authorization", TestTokens.bearer(client)).contentType(ContentType.JSON).body("{\"a\":")
                        .post("/media/demo").then().statusCode(400)
                        .extract().jsonPath().getString("code"))
                .isEqualTo("BAD_REQUEST");
        Map<String, Object> wrongType = new HashMap<>(body("t-1", "tiny", Map.of()));
        wrongType.put("user-id", 42);
        JsonPath json = request(client, wrongType).statusCode(400).extract().jsonPath();
        assertThat(json.getString("code")).isEqualTo("BAD_REQUEST");
        assertThat(json.getString("message")).contains("user-id");
        Map<String, Object> missing = new HashMap<>(body("t-2", "tiny", Map.of()));
        missing.remove("customer-id");
        JsonPath json2 = request(client, missing).statusCode(400).extract().jsonPath();
        assertThat(json2.getString("code")).isEqualTo("VALIDATION_ERROR");
        assertThat(json2.getString("message")).isEqualTo("field 'customer-id' is required");
        assertThat(request(client, body("t-3", "tiny", Map.of("global_assets", "not-an-object"))).statusCode(400)
                .extract().jsonPath().getString("message")).contains("global_assets");
        JsonPath json3 = request(client,
                body("t-4", "tiny", Map.of("personalization_fields", Map.of("name", Map.of("x", 1)))))
                .statusCode(400).extract().jsonPath();
        assertThat(json3.getString("code")).isEqualTo("BAD_REQUEST");
        assertThat(json3.getString("message"))
                .isEqualTo("field 'data.personalization_fields.name' must be a string, a number "
                        + "or a boolean");
        // JSON allows 1e400, a double holds no such number: it was a 500
        String huge = "{\"client-request-id\": \"t-6\", \"customer-id\": \"c\", \"use-case-id\": \"tiny\","
                + " \"user-id\": \"u\", \"data\": {\"personalization_fields\": {\"name\": \"Ada\","
                + " \"zzz\": -1e400}}}";
        JsonPath json5 = given().header("Authorization", TestTokens.bearer(client)).contentType(ContentType.JSON)
                .body(huge).post("/media/demo").then().statusCode(400).extract().jsonPath();
        assertThat(json5.getString("code")).isEqualTo("VALIDATION_ERROR");
        assertThat(json5.getString("message")).contains("'data.personalization_fields.zzz' is a number beyond");
        JsonPath json4 = request(client, body("t-5", "tiny", Map.of("global_assets", Map.of("images", List.of(7)))))
                .statusCode(400).extract().jsonPath();
        assertThat(json4.getString("code")).isEqualTo("BAD_REQUEST");
        assertThat(json4.getString("message")).contains("images");
    }

    @Test
    void aBodyNamingAnotherClientIsForbidden() {
        UUID client = UUID.randomUUID();
        Map<String, Object> other = new HashMap<>(body("cid-1", "tiny", Map.of("personalization_fields",
                Map.of("name", "Ada"))));
        other.put("client-id", UUID.randomUUID().toString());
        JsonPath refused = request(client, other).statusCode(403).extract().jsonPath();
        assertThat(refused.getString("code")).isEqualTo("FORBIDDEN");
        assertThat(refused.getString("message")).contains("client-id");
        Map<String, Object> own = new HashMap<>(other);
        own.put("client-id", client.toString().toUpperCase(java.util.Locale.ROOT));
        assertThat(request(client, own).statusCode(200).extract().jsonPath().getString("status"))
                .isEqualTo("SUCCESS");
    }

    @Test
    void anotherClientsRequestDoesNotExist() {
        UUID owner = UUID.randomUUID();
        String id = request(owner, body("own-1", "tiny", Map.of("personalization_fields", Map.of("name", "Cy"))))
                .statusCode(200).extract().path("service-request-id");
        JsonPath mine = status(owner, id).statusCode(200).extract().jsonPath();
        assertThat(mine.getString("status")).isIn("PROCESSING", "SUCCESS");
        assertThat(status(UUID.randomUUID(), id).statusCode(404)
                .extract().jsonPath().getString("code")).isEqualTo("NOT_FOUND");
        assertThat(status(owner, UUID.randomUUID().toString()).statusCode(404)
                .extract().jsonPath().getString("code")).isEqualTo("NOT_FOUND");
        assertThat(status(owner, "not-a-uuid").statusCode(404)
                .extract().jsonPath().getString("code")).isEqualTo("NOT_FOUND");
    }

    @Test
    void whileProcessingTheUrlsAreNull() {
        UUID client = UUID.randomUUID();
        String id = request(client, body("p-1", "tiny", Map.of("personalization_fields", Map.of("name", "Cy"))))
                .statusCode(200).extract().path("service-request-id");
        JsonPath first = status(client, id).statusCode(200).extract().jsonPath();
        if ("PROCESSING".equals(first.getString("status"))) {
            assertThat(first.getMap("$")).containsEntry("video-url", null).containsEntry("image-url", null)
                    .containsKey("message");
        }
    }

    @Test
    void aTokenOfAVendorIsRequired() {
        assertThat(given().contentType(ContentType.JSON).body(body("x", "tiny", Map.of())).post("/media/demo")
                .then().statusCode(401)
                .extract().jsonPath().getString("code")).isEqualTo("UNAUTHORIZED");
        given().header("Authorization", "Bearer " + TestTokens.operator()).get("/status/x")
                .then().statusCode(403);
    }
}
