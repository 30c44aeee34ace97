package io.pmedia.campaign;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Map;
import java.util.UUID;

import org.junit.jupiter.api.Test;

import io.pmedia.testing.TestTokens;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import io.restassured.response.ValidatableResponse;

/** Every rule of a schedule, each with a 400 that names the field. */
@QuarkusTest
class ScheduleValidationTest {

    private final String bearer = TestTokens.bearer(UUID.randomUUID());

    private ValidatableResponse post(Object body) {
        return given().header("Authorization", bearer).contentType(ContentType.JSON).body(body)
                .post("/campaigns/summer-sale/schedule").then().log().ifValidationFails();
    }

    /** Asserts a 400 VALIDATION_ERROR whose message names {@code field}; returns the message. */
    private static String validationError(ValidatableResponse response, String field) {
        JsonPath body = response.statusCode(400).extract().jsonPath();
        assertThat(body.getBoolean("error")).isTrue();
        assertThat(body.getString("code")).isEqualTo("VALIDATION_ERROR");
        assertThat(body.getString("message")).contains(field);
        return body.getString("message");
    }

    private static JsonPath badRequest(ValidatableResponse response) {
        JsonPath body = response.statusCode(400).extract().jsonPath();
        assertThat(body.getString("code")).isEqualTo("BAD_REQUEST");
        return body;
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
        assertThat(validationError(post(Map.of("start_time", "2099-01-01T10:00:00", "end_time", future(2))),
                "start_time")).contains("offset");
        validationError(post(Map.of("start_time", future(1), "end_time", "2099-01-01")), "end_time");
    }

    @Test
    void offsetsOtherThanUtcAreUnderstood() {
        String status = given().header("Authorization", bearer).contentType(ContentType.JSON)
                .body(Map.of("start_time", "2099-01-01T10:00:00+05:30", "end_time", "2099-01-01t12:00:00z"))
                .post("/campaigns/offsets/schedule")
                .then().statusCode(200).extract().jsonPath().getString("status");
        assertThat(status).isEqualTo("SCHEDULED");
        String start = given().header("Authorization", bearer).get("/campaigns/offsets/schedule")
                .then().statusCode(200).extract().jsonPath().getString("start_time");
        assertThat(start).isEqualTo("2099-01-01T04:30:00Z");
    }

    @Test
    void timesAreJudgedAsTheyAreStoredAndExpandedYearsAreRefused() {
        // a tenth of a microsecond apart: one time once stored (microseconds); was the database's check, a 500
        assertThat(validationError(post(Map.of("start_time", "2031-01-01T00:00:00.0000001Z", "end_time",
                "2031-01-01T00:00:00.0000002Z")), "end_time")).contains("after");
        // years PostgreSQL cannot hold (+999999 was stored as a time before the start) or RFC 3339 cannot write
        for (String year : new String[]{"+999999-01-01T00:00:00Z", "+102030-01-01T00:00:00Z", "-004000-01-01T00:00:00Z",
                "0000-01-01T00:00:00Z"}) {
            assertThat(validationError(post(Map.of("start_time", future(1), "end_time", year)), "end_time"))
                    .as(year).contains("0001 to 9999");
        }
        String end = given().header("Authorization", bearer).contentType(ContentType.JSON)
                .body(Map.of("start_time", "2031-01-01T00:00:00Z", "end_time", "2031-01-01T23:59:59.999999999Z"))
                .post("/campaigns/nanos/schedule").then().statusCode(200).extract().path("campaign_id");
        assertThat(given().header("Authorization", bearer).get("/campaigns/" + end + "/schedule").then()
                .statusCode(200).extract().jsonPath().getString("end_time")).isEqualTo("2031-01-01T23:59:59.999999Z");
    }

    @Test
    void endMustFollowStartAndLieInTheFuture() {
        validationError(post(Map.of("start_time", future(2), "end_time", future(1))), "end_time");
        validationError(post(Map.of("start_time", future(1), "end_time", future(1))), "end_time");
        assertThat(validationError(post(Map.of("start_time", past(2), "end_time", past(1))), "end_time"))
                .contains("future");
    }

    @Test
    void malformedJsonAndWrongTypesAreBadRequests() {
        badRequest(given().header("Authorization", bearer).contentType(ContentType.JSON).body("{\"start_time\":")
                .post("/campaigns/x/schedule").then());
        assertThat(badRequest(post(Map.of("start_time", 1700000000, "end_time", future(1)))).getString("message"))
                .contains("start_time");
    }

    @Test
    void aTokenIsRequired() {
        String anonymous = given().contentType(ContentType.JSON)
                .body(Map.of("start_time", future(1), "end_time", future(2)))
                .post("/campaigns/x/schedule").then().statusCode(401).extract().jsonPath().getString("code");
        assertThat(anonymous).isEqualTo("UNAUTHORIZED");
        String operator = given().header("Authorization", "Bearer " + TestTokens.operator())
                .get("/campaigns/x/schedule").then().statusCode(403).extract().jsonPath().getString("code");
        assertThat(operator).isEqualTo("FORBIDDEN");
    }

    static String future(int hours) {
        return Instant.now().plus(hours, ChronoUnit.HOURS).truncatedTo(ChronoUnit.SECONDS).toString();
    }

    static String past(int hours) {
        return Instant.now().minus(hours, ChronoUnit.HOURS).truncatedTo(ChronoUnit.SECONDS).toString();
    }
}
