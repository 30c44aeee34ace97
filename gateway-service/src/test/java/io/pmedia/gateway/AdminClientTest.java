package io.pmedia.gateway;

import static io.pmedia.gateway.ErrorAssertions.isError;
import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasKey;
import static org.hamcrest.Matchers.matchesPattern;
import static org.hamcrest.Matchers.not;
import static org.hamcrest.Matchers.nullValue;

import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import io.pmedia.gateway.Vendors.Vendor;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;

/** The operator onboarding API of contracts.md. */
@QuarkusTest
class AdminClientTest {

    @Test
    void onboardingShowsTheSecretsOnceAndStoresNone() {
        var created = given().header("Authorization", Vendors.ADMIN).contentType(ContentType.JSON)
                .body(Map.of("name", "Acme Media", "webhook-url", "https://hooks.example.com/video-push",
                        "allowed-ips", List.of("203.0.113.7", "10.0.0.0/8")))
                .post("/admin/clients")
                .then().statusCode(201)
                .body("client-id", matchesPattern("[0-9a-f-]{36}"))
                .body("client-secret", matchesPattern("pms_.{40,}"))
                .body("api-key", matchesPattern("pmk_.{40,}"))
                .body("webhook-secret", matchesPattern("whsec_[A-Za-z0-9+/=]{40,}"))
                .body("name", equalTo("Acme Media"))
                .body("webhook-url", equalTo("https://hooks.example.com/video-push"))
                .body("allowed-ips", equalTo(List.of("203.0.113.7", "10.0.0.0/8")))
                .extract().jsonPath();

        given().header("Authorization", Vendors.ADMIN).get("/admin/clients/" + created.getString("client-id"))
                .then().statusCode(200)
                .body("name", equalTo("Acme Media"))
                .body("$", not(hasKey("client-secret")))
                .body("$", not(hasKey("api-key")))
                .body("$", not(hasKey("webhook-secret")));
    }

    @Test
    void patchChangesOnlyWhatItNames() {
        Vendor vendor = Vendors.onboard(List.of("203.0.113.7"));
        given().header("Authorization", Vendors.ADMIN).contentType(ContentType.JSON)
                .body(Map.of("webhook-url", "https://hooks.example.com/v2"))
                .patch("/admin/clients/" + vendor.clientId())
                .then().statusCode(200)
                .body("webhook-url", equalTo("https://hooks.example.com/v2"))
                .body("allowed-ips", equalTo(List.of("203.0.113.7")));
        given().header("Authorization", Vendors.ADMIN).contentType(ContentType.JSON)
                .body("{\"webhook-url\": null, \"allowed-ips\": [\"192.0.2.0/24\"]}")
                .patch("/admin/clients/" + vendor.clientId())
                .then().statusCode(200)
                .body("webhook-url", nullValue())
                .body("allowed-ips", equalTo(List.of("192.0.2.0/24")));
        isError(given().header("Authorization", Vendors.ADMIN).contentType(ContentType.JSON)
                .body(Map.of("client-secret", "mine")).patch("/admin/clients/" + vendor.clientId()).then(), 400,
                "VALIDATION_ERROR");
    }

    @ParameterizedTest
    @ValueSource(strings = {"ftp://hooks.example.com/x", "not a url", "http://10.1.2.3/hook",
            "http://169.254.169.254/latest/meta-data", "http://127.0.0.1:9000/hook", "http://localhost/hook",
            "http://[::1]/hook", "https://user:pw@hooks.example.com/x", "http://192.168.0.10/"})
    void webhookUrlMustBePublicHttp(String url) {
        isError(given().header("Authorization", Vendors.ADMIN).contentType(ContentType.JSON)
                .body(Map.of("name", "Bad hook", "webhook-url", url)).post("/admin/clients").then(), 400,
                "VALIDATION_ERROR").body("message", containsString("webhook-url"));
    }

    @Test
    void invalidAllowedIpNamesTheEntry() {
        isError(given().header("Authorization", Vendors.ADMIN).contentType(ContentType.JSON)
                .body(Map.of("name", "X", "allowed-ips", List.of("10.0.0.1", "example.com")))
                .post("/admin/clients").then(), 400, "VALIDATION_ERROR")
                .body("message", containsString("allowed-ips[1]"));
        isError(given().header("Authorization", Vendors.ADMIN).contentType(ContentType.JSON)
                .body(Map.of("webhook-url", "https://hooks.example.com")).post("/admin/clients").then(), 400,
                "VALIDATION_ERROR").body("message", containsString("name"));
    }

    @Test
    void unknownOrDeletedClientIs404() {
        isError(given().header("Authorization", Vendors.ADMIN).get("/admin/clients/" + UUID.randomUUID()).then(),
                404, "NOT_FOUND");
        isError(given().header("Authorization", Vendors.ADMIN).get("/admin/clients/nope").then(), 404,
                "NOT_FOUND");
        Vendor vendor = Vendors.onboard();
        given().header("Authorization", Vendors.ADMIN).delete("/admin/clients/" + vendor.clientId())
                .then().statusCode(204);
        isError(given().header("Authorization", Vendors.ADMIN).get("/admin/clients/" + vendor.clientId()).then(),
                404, "NOT_FOUND");
        isError(given().header("Authorization", Vendors.ADMIN).delete("/admin/clients/" + vendor.clientId())
                .then(), 404, "NOT_FOUND");
    }

    @Test
    void everyAdminCallNeedsTheAdminToken() {
        Vendor vendor = Vendors.onboard();
        isError(given().contentType(ContentType.JSON).body(Map.of("name", "X")).post("/admin/clients").then(), 401,
                "UNAUTHORIZED");
        isError(given().header("Authorization", vendor.bearer()).get("/admin/clients/" + vendor.clientId()).then(),
                401, "UNAUTHORIZED");
        isError(given().header("Authorization", "Bearer test-admin-tokeN")
                .post("/admin/clients/" + vendor.clientId() + "/rotate-secret").then(), 401, "UNAUTHORIZED");
    }

    @Test
    void webhookSecretRotationKeepsThePreviousSecretForADay() {
        Vendor vendor = Vendors.onboard();
        String rotated = given().header("Authorization", Vendors.ADMIN)
                .post("/admin/clients/" + vendor.clientId() + "/rotate-webhook-secret")
                .then().statusCode(200).extract().path("webhook-secret");
        given().header("Authorization", "Bearer test-internal-token")
                .get("/internal/clients/" + vendor.clientId())
                .then().statusCode(200)
                .body("webhook-secrets[0].secret", equalTo(rotated))
                .body("webhook-secrets[0].expires-at", nullValue())
                .body("webhook-secrets[1].secret", equalTo(vendor.webhookSecret()))
                .body("webhook-secrets[1].expires-at", not(nullValue()));
        isError(given().header("Authorization", Vendors.ADMIN).get("/internal/clients/" + vendor.clientId())
                .then(), 403, "FORBIDDEN");
    }
}
