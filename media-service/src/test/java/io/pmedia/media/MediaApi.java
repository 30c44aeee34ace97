package io.pmedia.media;

import static io.restassured.RestAssured.given;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;

import io.pmedia.testing.Patience;
import io.pmedia.testing.TestTokens;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import io.restassured.response.ValidatableResponse;

/** How the tests talk to media-service, as the gateway would forward a vendor's calls. */
final class MediaApi {

    static final String TINY = """
            {"use-case-id": "tiny", "name": "Tiny",
             "canvas": {"width": 320, "height": 180, "fps": 25, "background": "#102030"},
             "fields": [{"name": "name", "required": true, "max-length": 40}, {"name": "offer", "default": "a gift"}],
             "assets": {"images": [{"name": "photo"}]},
             "segments": [
               {"id": "hello", "duration": 1.0, "layers": [
                 {"id": "headline", "type": "text", "text": "Hello {{name}}", "size": 24, "fade": 0.2}]},
               {"id": "outro", "duration": 1.0, "layers": [
                 {"id": "photo", "type": "image", "asset": 0, "x": 10, "y": 10, "width": 80, "height": 80},
                 {"id": "offer", "type": "text", "text": "{{offer}}", "size": 20}]}
             ]}""";

    private MediaApi() {
    }

    static ValidatableResponse registerTemplate(String json) {
        return given().header("Authorization", "Bearer " + TestTokens.operator()).contentType(ContentType.JSON)
                .body(json).post("/admin/templates").then().log().ifValidationFails();
    }

    static ValidatableResponse request(UUID client, Map<String, Object> body) {
        return given().header("Authorization", TestTokens.bearer(client)).contentType(ContentType.JSON).body(body)
                .post("/media/demo").then().log().ifValidationFails();
    }

    static Map<String, Object> body(String clientRequestId, String useCaseId, Map<String, Object> data) {
        return Map.of("client-request-id", clientRequestId, "customer-id", "cust-1", "use-case-id", useCaseId,
                "user-id", "user-1", "data", data);
    }

    static ValidatableResponse status(UUID client, String id) {
        return given().header("Authorization", TestTokens.bearer(client)).get("/status/" + id).then().log()
                .ifValidationFails();
    }

    /** Waits until the request leaves PROCESSING and returns its status body. */
    static JsonPath awaitFinal(UUID client, String id) {
        JsonPath[] last = new JsonPath[1];
        Patience.await().pollInterval(Duration.ofMillis(200)).until(() -> {
            last[0] = status(client, id).statusCode(200).extract().jsonPath();
            return !"PROCESSING".equals(last[0].getString("status"));
        });
        return last[0];
    }

    /** Sends a realtime request that must be accepted, waits until it leaves PROCESSING and returns its status. */
    static JsonPath rendered(UUID client, Map<String, Object> body) {
        return awaitFinal(client, request(client, body).statusCode(200).extract().path("service-request-id"));
    }

    static Path download(String url, Path dir, String name) throws Exception {
        byte[] bytes = given().urlEncodingEnabled(false).get(url).then().statusCode(200).extract().asByteArray();
        Path file = dir.resolve(name);
        Files.write(file, bytes);
        return file;
    }
}
