package io.pmedia.gateway;

import static io.pmedia.gateway.ErrorAssertions.isError;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.junit.jupiter.api.Test;

import io.pmedia.gateway.Vendors.Vendor;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import io.restassured.response.ValidatableResponse;

/**
 * The registry keeps a vendor's webhook endpoint in one place (URL, event types, secrets): the vendor's self-service
 * (through the notifier's internal calls) and the operator's PATCH change the same row, under the same address policy.
 */
@QuarkusTest
class WebhookEndpointRegistryTest {

    private static final String INTERNAL = "Bearer test-internal-token";

    private static ValidatableResponse replace(UUID client, Object body) {
        return given().header("Authorization", INTERNAL).contentType(ContentType.JSON).body(body)
                .put("/internal/clients/" + client + "/webhook").then().log().ifValidationFails();
    }

    private static JsonPath registration(UUID client) {
        return given().header("Authorization", INTERNAL).get("/internal/clients/" + client).then().statusCode(200)
                .extract().jsonPath();
    }

    @Test
    void aClientSubscribesToTheVideoPushUntilItChoosesOtherEvents() {
        Vendor vendor = Vendors.onboard();
        assertThat(registration(vendor.clientId()).getList("event-types")).containsExactly("video.push");

        JsonPath replaced = replace(vendor.clientId(), Map.of("url", "https://hooks.example.com/pmedia",
                "event-types", List.of("batch.task.ended", "tryon.request.ended", "batch.task.ended")))
                .statusCode(200).extract().jsonPath();
        assertThat(replaced.getString("webhook-url")).isEqualTo("https://hooks.example.com/pmedia");
        assertThat(replaced.getList("event-types")).containsExactly("batch.task.ended", "tryon.request.ended");
        assertThat(registration(vendor.clientId()).getList("event-types"))
                .containsExactly("batch.task.ended", "tryon.request.ended");
        JsonPath view = given().header("Authorization", Vendors.ADMIN).get("/admin/clients/" + vendor.clientId())
                .then().statusCode(200).extract().jsonPath();
        assertThat(view.getString("webhook-url")).isEqualTo("https://hooks.example.com/pmedia");
        assertThat(view.getList("webhook-event-types")).containsExactly("batch.task.ended", "tryon.request.ended");

        // no event-types: the default again; a null url: no endpoint
        Map<String, Object> none = new HashMap<>();
        none.put("url", null);
        JsonPath cleared = replace(vendor.clientId(), none).statusCode(200).extract().jsonPath();
        assertThat(cleared.getString("webhook-url")).isNull();
        assertThat(cleared.getList("event-types")).containsExactly("video.push");

        // the operator's PATCH changes the same subscription
        given().header("Authorization", Vendors.ADMIN).contentType(ContentType.JSON)
                .body(Map.of("webhook-event-types", List.of("tryon.request.ended")))
                .patch("/admin/clients/" + vendor.clientId()).then().statusCode(200);
        assertThat(registration(vendor.clientId()).getList("event-types")).containsExactly("tryon.request.ended");
    }

    @Test
    void theUrlPassesTheOnboardingAddressPolicyAndEventTypesAreAClosedSet() {
        Vendor vendor = Vendors.onboard();
        for (String refused : List.of("http://169.254.169.254/latest/meta-data", "ftp://hooks.example.com/",
                "https://user:pw@hooks.example.com/", "http://10.0.0.8/hook")) {
            String message = isError(replace(vendor.clientId(), Map.of("url", refused)), 400, "VALIDATION_ERROR")
                    .extract().path("message");
            assertThat(message).as(refused).startsWith("field 'url'");
        }
        String message = isError(replace(vendor.clientId(), Map.of("url", "https://hooks.example.com/",
                "event-types", List.of("video.push", "render.done"))), 400, "VALIDATION_ERROR")
                .extract().path("message");
        assertThat(message).contains("'event-types[1]'").contains("video.push, batch.task.ended, tryon.request.ended");
        assertThat(registration(vendor.clientId()).getString("webhook-url")).isNull();
        isError(replace(UUID.randomUUID(), Map.of("url", "https://hooks.example.com/")), 404, "NOT_FOUND");
        isError(given().header("Authorization", vendor.bearer()).contentType(ContentType.JSON)
                .body(Map.of("url", "https://hooks.example.com/")).put("/internal/clients/" + vendor.clientId()
                        + "/webhook")
                .then(), 401, "UNAUTHORIZED");
    }

    @Test
    void aRotatedSecretSignsBesideThePreviousOneFor24Hours() {
        Vendor vendor = Vendors.onboard();
        String before = registration(vendor.clientId()).getString("webhook-secrets[0].secret");
        JsonPath rotated = given().header("Authorization", INTERNAL)
                .post("/internal/clients/" + vendor.clientId() + "/rotate-webhook-secret").then().statusCode(200)
                .extract().jsonPath();
        assertThat(rotated.getString("webhook-secret")).startsWith("whsec_").isNotEqualTo(before);
        Instant until = Instant.parse(rotated.getString("previous-valid-until"));
        assertThat(Duration.between(Instant.now(), until)).isBetween(Duration.ofHours(23), Duration.ofHours(24));
        JsonPath after = registration(vendor.clientId());
        assertThat(after.getString("webhook-secrets[0].secret")).isEqualTo(rotated.getString("webhook-secret"));
        assertThat(after.getString("webhook-secrets[0].expires-at")).isNull();
        assertThat(after.getString("webhook-secrets[1].secret")).isEqualTo(before);
        assertThat(Instant.parse(after.getString("webhook-secrets[1].expires-at"))).isEqualTo(until);
    }
}
