package io.pmedia.gateway;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItems;

import java.net.URL;

import org.junit.jupiter.api.Test;

import io.pmedia.testing.TestKeys;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;

/**
 * Health and metrics are served on the management port only; the OpenAPI document and the JWKS on the public one,
 * where platform teams and vendors expect them.
 */
@QuarkusTest
class PlatformEndpointsTest {

    @TestHTTPResource(value = "/health", management = true)
    URL health;

    @TestHTTPResource(value = "/health/ready", management = true)
    URL ready;

    @TestHTTPResource(value = "/metrics", management = true)
    URL metrics;

    @Test
    void healthIsUpOnTheManagementPort() {
        given().get(health).then().statusCode(200).body("status", equalTo("UP"));
        given().get(ready).then().statusCode(200);
    }

    @Test
    void prometheusMetricsAreServedOnTheManagementPort() {
        given().get("/.well-known/jwks.json").then().statusCode(200);
        given().get(metrics).then().statusCode(200).body(containsString("http_server_requests"));
    }

    @Test
    void healthAndMetricsAreNotOnThePublicPort() {
        given().get("/q/health").then().statusCode(404).body("code", equalTo("NOT_FOUND"));
        given().get("/q/metrics").then().statusCode(404).body("code", equalTo("NOT_FOUND"));
    }

    @Test
    void jwksCarriesTheCurrentAndPreviousKeys() {
        given().get("/.well-known/jwks.json").then().statusCode(200)
                .body("keys.kid", hasItems(TestKeys.KEY_ID, TestKeys.PREVIOUS_KEY_ID))
                .body("keys[0].kty", equalTo("RSA"))
                .body("keys[0].alg", equalTo("RS256"));
    }

    @Test
    void openApiDescribesThePublicInterface() {
        given().accept("application/json").get("/q/openapi").then().statusCode(200)
                .body("paths.keySet()", hasItems("/auth/token", "/getToken", "/media/demo", "/video/demo",
                        "/status/{transactionId}", "/media/task/create", "/media/task/status/{taskId}",
                        "/media/task/cancel/{taskId}", "/vton/request", "/vton/status/{requestId}",
                        "/campaigns/{campaign_id}/schedule", "/admin/clients"))
                .body("paths.keySet()", org.hamcrest.Matchers.not(hasItems("/internal/clients/{clientId}")))
                .body("components.schemas.MediaRequest.properties.keySet()",
                        hasItems("client-request-id", "customer-id", "use-case-id", "user-id", "data",
                                "reference-record-id"))
                .body("components.schemas.ErrorResponse.properties.keySet()",
                        hasItems("error", "message", "code", "timestamp"));
    }
}
