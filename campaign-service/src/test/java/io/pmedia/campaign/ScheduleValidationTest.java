package io.pmedia.campaign;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Map;
import java.util.UUID;

import org.junit.jupiter.api.Test;

import io.pmedia.testing.TestTokens;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.response.ValidatableResponse;

/** Every rule of a schedule, each with a 400 that names the field. */
@QuarkusTest
class ScheduleValidationTest {

    private final String bearer = TestTokens.bearer(UUID.randomUUID());

    private ValidatableResponse post(Object body) {
        return given().header("Authorization", bearer).contentType(ContentType.JSON).body(body)
                .post("/campaigns/summer-sale/schedule").then().log().ifValidationFails();
    }

    private static ValidatableResponse validationError(ValidatableResponse response, String field) {
        return response.statusCode(400).body("error", equalTo(true)).body("code", equalTo("VALIDATION_ERROR"))
                .body("message", containsString(field));
    }

    @Test
    void bothTimesAreRequired() {
        validationError(post(Map.of("end_time", future(2))), "start_time");
        validationError(post(Map.of("start_time", future(1))), "end_time");
        validationError(post(Map.of()), "start_time");
    }

    @Test
    void timesMustBeRfc3339WithAnOffset() {
        validationError(post(Map.of("start_time", "next monday", "end_time", future(2))), "start_time");
        validationError(post(Map.of("start_time", future(1), "end_time", "2099-13-40T00:00:00Z")), "end_time");
        validationError(post(Map.of("start_time", "2099-01-01T10:00:00", "end_time", future(2))), "start_time")
                .body("message", containsString("offset"));
        validationError(post(Map.of("start_time", future(1), "end_time", "2099-01-01")), "end_time");
    }

    @Test
    void offsetsOtherThanUtcAreUnderstood() {
        given().header("Authorization", bearer).contentType(ContentType.JSON)
                .body(Map.of("start_time", "2099-01-01T10:00:00+05:30", "end_time", "2099-01-01t12:00:00z"))
                .post("/campaigns/offsets/schedule")
                .then().statusCode(200).body("status", equalTo("SCHEDULED"));
        given().header("Authorization", bearer).get("/campaigns/offsets/schedule")
                .then().statusCode(200).body("start_time", equalTo("2099-01-01T04:30:00Z"));
    }

    @Test
    void endMustFollowStartAndLieInTheFuture() {
        validationError(post(Map.of("start_time", future(2), "end_time", future(1))), "end_time");
        validationError(post(Map.of("start_time", future(1), "end_time", future(1))), "end_time");
        validationError(post(Map.of("start_time", past(2), "end_time", past(1))), "end_time")
                .body("message", containsString("future"));
    }

    @Test
    void malformedJsonAndWrongTypesAreBadRequests() {
        given().header("Authorization", bearer).contentType(ContentType.JSON).body("{\"start_time\":")
                .post("/campaigns/x/schedule").then().statusCode(400).body("code", equalTo("BAD_REQUEST"));
        post(Map.of("start_time", 1700000000, "end_time", future(1))).statusCode(400)
                .body("code", equalTo("BAD_REQUEST")).body("message", containsString("start_time"));
    }

    @Test
    void aTokenIsRequired() {
        given().contentType(ContentType.JSON).body(Map.of("start_time", future(1), "end_time", future(2)))
                .post("/campaigns/x/schedule").then().statusCode(401).body("code", equalTo("UNAUTHORIZED"));
        given().header("Authorization", "Bearer " + TestTokens.operator()).get("/campaigns/x/schedule")
                .then().statusCode(403).body("code", equalTo("FORBIDDEN"));
    }

    static String future(int hours) {
        return Instant.now().plus(hours, ChronoUnit.HOURS).truncatedTo(ChronoUnit.SECONDS).toString();
    }

    static String past(int hours) {
        return Instant.now().minus(hours, ChronoUnit.HOURS).truncatedTo(ChronoUnit.SECONDS).toString();
    }
}
