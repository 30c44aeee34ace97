package io.pmedia.gateway;

import static io.pmedia.gateway.ErrorAssertions.isError;
import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;

/** Every failure of every layer carries the 2.11 body: no framework page, no stack trace. */
@QuarkusTest
class ErrorBodyTest {

    @Test
    void unknownPathIs404WithTheErrorBody() {
        isError(given().get("/no/such/path").then(), 404, "NOT_FOUND")
                .body("message", containsString("/no/such/path"));
        isError(given().get("/").then(), 404, "NOT_FOUND");
    }

    @Test
    void wrongMethodIs405() {
        isError(given().get("/auth/token").then(), 405, "METHOD_NOT_ALLOWED")
                .body("message", containsString("GET"));
        isError(given().delete("/media/demo").then(), 405, "METHOD_NOT_ALLOWED").header("Allow", "POST");
        isError(given().put("/campaigns/c-1/schedule").then(), 405, "METHOD_NOT_ALLOWED")
                .header("Allow", "POST, GET, HEAD").body("message", containsString("PUT"));
        // the viewers' paths: each says what it takes (the page, not what was refused; a beacon, POST only)
        String share = "AAAAAAAAAAAAAAAAAAAAAAAA";
        isError(given().post("/v/" + share).then(), 405, "METHOD_NOT_ALLOWED").header("Allow", "GET, HEAD");
        isError(given().put("/v/" + share + "/video.mp4").then(), 405, "METHOD_NOT_ALLOWED")
                .header("Allow", "GET, HEAD");
        isError(given().get("/v/" + share + "/render").then(), 405, "METHOD_NOT_ALLOWED").header("Allow", "POST");
        isError(given().delete("/v/" + share + "/events").then(), 405, "METHOD_NOT_ALLOWED").header("Allow", "POST");
    }

    @Test
    void wrongContentTypeIs415() {
        isError(given().contentType(ContentType.TEXT).body("client_id=x").post("/auth/token").then(), 415,
                "UNSUPPORTED_MEDIA_TYPE").body("message", containsString("text/plain"));
        isError(given().contentType(ContentType.XML).body("<x/>").header("Authorization", "Bearer x")
                .post("/media/demo").then(), 415, "UNSUPPORTED_MEDIA_TYPE");
    }

    @Test
    void aContentTypeThatIsNoMediaTypeIs415() {
        for (String contentType : List.of("a/b/c;;;", "foo", "/", ";", "application/json;;;", "text/ plain")) {
            isError(given().header("Content-Type", contentType).body("{}".getBytes()).post("/auth/token").then(), 415,
                    "UNSUPPORTED_MEDIA_TYPE").body("message", containsString("is not a media type"));
            isError(given().header("Content-Type", contentType).header("Authorization", "Bearer x")
                    .body("{}".getBytes())
                    .post("/media/demo").then(), 415, "UNSUPPORTED_MEDIA_TYPE");
        }
        given().header("Content-Type", "application/json; charset=\"utf-8\"").body("{}".getBytes()).post("/auth/token")
                .then()
                .statusCode(400);
    }

    @Test
    void malformedJsonIs400() {
        isError(given().contentType(ContentType.JSON).body("{\"client_id\": ").post("/auth/token").then(), 400,
                "BAD_REQUEST").body("message", containsString("JSON"));
        isError(given().contentType(ContentType.JSON).body("[1,2]").post("/auth/token").then(), 400,
                "BAD_REQUEST");
    }

    @Test
    void wrongTypeNamesTheField() {
        isError(given().contentType(ContentType.JSON).body(Map.of("client_id", 42, "client_secret", true))
                .post("/auth/token").then(), 400, "BAD_REQUEST")
                .body("message", containsString("has the wrong type: expected a string"));
    }

    @Test
    void bodyOverTheLimitIs413() {
        String big = "{\"client_id\":\"" + "x".repeat(1_100_000) + "\"}";
        isError(given().contentType(ContentType.JSON).body(big).post("/auth/token").then(), 413,
                "PAYLOAD_TOO_LARGE");
    }

    @Test
    void adminApiWithoutTokenIs401() {
        isError(given().get("/admin/clients").then(), 401, "UNAUTHORIZED");
        isError(given().header("Authorization", "Bearer wrong").get("/admin/clients").then(), 401,
                "UNAUTHORIZED");
    }
}
