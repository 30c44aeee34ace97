package io.pmedia.testing;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;

import io.restassured.response.ValidatableResponse;

/** The 2.11 error body, asserted the same way in every service's tests: exactly its four fields, as JSON. */
public final class ErrorAssertions {

    private ErrorAssertions() {
    }

    /** Asserts the status and the error body; returns the response for further checks (headers, the message). */
    public static ValidatableResponse isError(ValidatableResponse response, int status, String code) {
        response.log().ifValidationFails().statusCode(status).contentType("application/json");
        Map<String, Object> body = response.extract().jsonPath().getMap("");
        assertThat(body).containsOnlyKeys("error", "code", "message", "timestamp");
        assertThat(body.get("error")).isEqualTo(true);
        assertThat(body.get("code")).isEqualTo(code);
        assertThat(body.get("message")).isNotNull().asString().isNotEmpty();
        assertThat(body.get("timestamp")).isNotNull().asString()
                .matches("\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(\\.\\d+)?Z");
        return response;
    }
}
