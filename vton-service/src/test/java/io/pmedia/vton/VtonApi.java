package io.pmedia.vton;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.UUID;

import io.pmedia.testing.Patience;
import io.pmedia.testing.TestTokens;
import io.restassured.response.ValidatableResponse;

/** Calls of the try-on API the tests share. */
final class VtonApi {

    private VtonApi() {
    }

    static String body(UUID client, String model, String garments, String extra) {
        return """
                {"user-id": "+15551234567", "client-id": "%s", "usecase-id": "fitting-room", "model-image": "%s",
                 "garment-image": [%s]%s}""".formatted(client, model, garments, extra);
    }

    static ValidatableResponse create(UUID client, String body) {
        return given().header("Authorization", TestTokens.bearer(client)).contentType("application/json").body(body)
                .post("/vton/request").then();
    }

    static ValidatableResponse status(UUID client, String requestId) {
        return given().header("Authorization", TestTokens.bearer(client)).get("/vton/status/" + requestId).then();
    }

    /** Creates a request and waits until it has left PROCESSING; returns its final status. */
    static ValidatableResponse finished(UUID client, String body) {
        String id = create(client, body).statusCode(200).extract().path("request-id");
        Patience.await()
                .untilAsserted(() -> assertThat(status(client, id).statusCode(200).extract().jsonPath()
                        .getString("status")).isNotEqualTo("PROCESSING"));
        return status(client, id);
    }
}
