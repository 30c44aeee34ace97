package io.pmedia.gateway;

import static org.hamcrest.Matchers.emptyOrNullString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.matchesPattern;
import static org.hamcrest.Matchers.not;

import io.restassured.response.ValidatableResponse;

/** The 2.11 error body, asserted the same way everywhere. */
public final class ErrorAssertions {

    private ErrorAssertions() {
    }

    public static ValidatableResponse isError(ValidatableResponse response, int status, String code) {
        return response.log().ifValidationFails().statusCode(status)
                .contentType("application/json")
                .body("error", equalTo(true))
                .body("code", equalTo(code))
                .body("message", not(emptyOrNullString()))
                .body("timestamp", matchesPattern("\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(\\.\\d+)?Z"))
                .body("size()", equalTo(4));
    }
}
