package io.pmedia.gateway;

import static io.restassured.RestAssured.given;

import java.util.List;
import java.util.Map;
import java.util.UUID;

import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;

/** Onboards vendors through the operator API and gets their tokens, as a vendor would. */
public final class Vendors {

    public static final String ADMIN = "Bearer test-admin-token";

    /** A vendor's credentials as onboarding returned them. */
    public record Vendor(UUID clientId, String secret, String apiKey, String webhookSecret) {

        public String token() {
            return given().contentType(ContentType.JSON)
                    .body(Map.of("client_id", clientId.toString(), "client_secret", secret))
                    .post("/auth/token")
                    .then().statusCode(200)
                    .extract().path("access_token");
        }

        public String bearer() {
            return "Bearer " + token();
        }
    }

    private Vendors() {
    }

    public static Vendor onboard(List<String> allowedIps) {
        JsonPath created = given().header("Authorization", ADMIN).contentType(ContentType.JSON)
                .body(Map.of("name", "Vendor " + UUID.randomUUID(), "allowed-ips", allowedIps))
                .post("/admin/clients")
                .then().statusCode(201)
                .extract().jsonPath();
        return new Vendor(UUID.fromString(created.getString("client-id")), created.getString("client-secret"),
                created.getString("api-key"), created.getString("webhook-secret"));
    }

    public static Vendor onboard() {
        return onboard(List.of());
    }
}
