package io.pmedia.notifier;

import static io.restassured.RestAssured.given;

import java.util.List;
import java.util.Map;
import java.util.UUID;

import io.pmedia.testing.GatewayStub;
import io.pmedia.testing.TestTokens;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import io.restassured.response.ValidatableResponse;

/** The vendor tooling endpoints, called as a given client. */
public final class Api {

    private Api() {
    }

    /** Registers the client with {@code url} and {@code secret} and subscribes its endpoint to {@code types}. */
    public static void subscribe(UUID clientId, String url, String secret, List<String> types) {
        GatewayStub.register(clientId, url, GatewayStub.Secret.current(secret));
        given().header("Authorization", TestTokens.bearer(clientId)).contentType(ContentType.JSON)
                .body(Map.of("url", url, "event-types", types)).put("/webhooks/endpoint").then().statusCode(200);
    }

    public static ValidatableResponse deliveries(UUID clientId, String query) {
        return given().header("Authorization", TestTokens.bearer(clientId))
                .when().get("/webhooks/deliveries" + (query == null || query.isEmpty() ? "" : "?" + query))
                .then();
    }

    /** The client's delivery of a source event as the API shows it, or null while there is none. */
    @SuppressWarnings("unchecked")
    public static Map<String, Object> delivery(UUID clientId, UUID eventId) {
        JsonPath page = deliveries(clientId, "limit=100").statusCode(200).extract().jsonPath();
        for (Map<String, Object> delivery : page.<Map<String, Object>>getList("items")) {
            if (eventId.toString().equals(delivery.get("event-id"))) {
                return delivery;
            }
        }
        return null;
    }

    /** The status of the client's delivery of a source event, or null while there is none. */
    public static String status(UUID clientId, UUID eventId) {
        Map<String, Object> delivery = delivery(clientId, eventId);
        return delivery == null ? null : (String) delivery.get("status");
    }

    /** The attempts of the client's delivery of a source event. */
    @SuppressWarnings("unchecked")
    public static List<Map<String, Object>> attempts(UUID clientId, UUID eventId) {
        Map<String, Object> delivery = delivery(clientId, eventId);
        return delivery == null ? List.of() : (List<Map<String, Object>>) delivery.get("attempts");
    }

    public static ValidatableResponse replay(UUID clientId, String webhookId) {
        return given().header("Authorization", TestTokens.bearer(clientId))
                .when().post("/webhooks/deliveries/" + webhookId + "/replay")
                .then();
    }

    public static ValidatableResponse test(UUID clientId) {
        return given().header("Authorization", TestTokens.bearer(clientId))
                .when().post("/webhooks/test")
                .then();
    }
}
