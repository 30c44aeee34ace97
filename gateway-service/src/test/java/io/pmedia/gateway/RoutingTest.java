package io.pmedia.gateway;

import static io.pmedia.gateway.ErrorAssertions.isError;
import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;

import java.util.UUID;

import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;

/** The gateway forwards the interface's paths to their owners, as sent, and says 503 for an owner that is down. */
@QuarkusTest
class RoutingTest {

    @Test
    void pathQueryAndBodyArriveUnchanged() {
        String bearer = Vendors.onboard().bearer();
        String body = "{\"client-request-id\":\"a\",\"data\":{\"personalization_fields\":{\"name\":\"O'Brien: 100%\"}}}";
        given().header("Authorization", bearer).contentType(ContentType.JSON).body(body)
                .post("/media/demo?trace=1")
                .then().statusCode(200)
                .body("method", equalTo("POST"))
                .body("target", equalTo("/media/demo?trace=1"))
                .body("body", equalTo(body))
                .body("content-type", equalTo("application/json"))
                .body("forwarded-for", equalTo("127.0.0.1"));
        given().header("Authorization", bearer).get("/vton/status/abc-1").then().statusCode(200)
                .body("target", equalTo("/vton/status/abc-1"));
        given().header("Authorization", bearer).get("/webhooks/deliveries?limit=5").then().statusCode(200)
                .body("target", equalTo("/webhooks/deliveries?limit=5"));
        String template = UUID.randomUUID().toString();
        given().header("Authorization", bearer).get("/templates/" + template).then().statusCode(200)
                .body("target", equalTo("/templates/" + template));
    }

    @Test
    void serviceStatusAndHeadersComeBack() {
        String bearer = Vendors.onboard().bearer();
        given()
                .header("Authorization", bearer).get("/vton/status/teapot")
                .then().statusCode(418).header("Retry-After", "7");
        // a GET resource takes HEAD: forwarded as HEAD, its status and headers come back without a body
        given().header("Authorization", bearer).head("/vton/status/teapot")
                .then().statusCode(418).header("Retry-After", "7").header("Content-Type", "application/json")
                .body(equalTo(""));
        given().head("/vton/status/abc-1").then().statusCode(401);
    }

    @Test
    void downServiceIs503() {
        String bearer = Vendors.onboard().bearer();
        isError(given().header("Authorization", bearer).get("/media/task/status/" + UUID.randomUUID()).then(), 503,
                "SERVICE_UNAVAILABLE").body("message", containsString("batch")).header("Retry-After", "5");
        isError(given().header("Authorization", bearer).contentType(ContentType.JSON)
                .body("{\"client-id\":\"x\"}").post("/media/task/create").then(), 503, "SERVICE_UNAVAILABLE");
    }

    @Test
    void invalidTaskIdIs400BeforeAnyForwarding() {
        String bearer = Vendors.onboard().bearer();
        isError(given().header("Authorization", bearer).post("/media/task/cancel/not-a-uuid").then(), 400,
                "VALIDATION_ERROR").body("message", containsString("not-a-uuid"));
        isError(given().header("Authorization", bearer).get("/media/task/status/123").then(), 400,
                "VALIDATION_ERROR");
    }

    @Test
    void malformedJsonIs400AndAuthenticationComesFirst() {
        String bearer = Vendors.onboard().bearer();
        isError(given().header("Authorization", bearer).contentType(ContentType.JSON).body("{\"a\":")
                .post("/media/demo").then(), 400, "BAD_REQUEST").body("message", containsString("malformed JSON"));
        isError(given().contentType(ContentType.JSON).body("{\"a\":").post("/media/demo").then(), 401,
                "UNAUTHORIZED");
    }

    @Test
    void adminTemplateCallsAreForwardedWithAnOperatorToken() throws Exception {
        String forwarded = given().header("Authorization", Vendors.ADMIN).get("/admin/templates")
                .then().statusCode(200).body("target", equalTo("/admin/templates"))
                .extract().path("authorization");
        var claims = TokenEndpointTest.part(forwarded.substring(7), 1);
        org.assertj.core.api.Assertions.assertThat(claims.get("groups").toString()).contains("operator");
        isError(given().header("Authorization", Vendors.onboard().bearer()).get("/admin/templates").then(), 401,
                "UNAUTHORIZED");
    }
}
