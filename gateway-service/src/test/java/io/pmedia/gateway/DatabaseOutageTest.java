package io.pmedia.gateway;

import static io.pmedia.gateway.ErrorAssertions.isError;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;

import java.net.URL;
import java.time.Duration;
import java.util.Map;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.pmedia.gateway.Vendors.Vendor;
import io.pmedia.testing.DatabaseOutage;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.response.ValidatableResponse;

/**
 * PostgreSQL out of reach: callers get a fast 503 {@code SERVICE_UNAVAILABLE} with {@code Retry-After} and the error
 * body (never a 500, never a hang), readiness is DOWN, and both recover within seconds of the database's return.
 */
@QuarkusTest
class DatabaseOutageTest {

    @TestHTTPResource(value = "/health/ready", management = true)
    URL ready;

    @AfterEach
    void databaseIsBack() {
        DatabaseOutage.end();
        DatabaseOutage.awaitReady(ready, Duration.ofSeconds(10));
    }

    @Test
    void whileTheDatabaseIsStoppedTokenRequestsAreAFast503AndReadinessIsDown() {
        Vendor vendor = Vendors.onboard();
        DatabaseOutage.refuse();

        long started = System.nanoTime();
        isError(tokenRequest(vendor), 503, "SERVICE_UNAVAILABLE").header("Retry-After", "5");
        // A refused connection is answered at once, not after the 3 s pool wait a hang would cost (the margin is for a
        // busy CI machine, not for the code).
        assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofMillis(2500));
        given().get(ready).then().statusCode(503).body("status", equalTo("DOWN"));

        DatabaseOutage.end();

        DatabaseOutage.awaitReady(ready, Duration.ofSeconds(5));
        tokenRequest(vendor).statusCode(200);
    }

    @Test
    void aDatabaseThatNeverAnswersCostsARequestTheAcquireTimeoutAtMost() {
        Vendor vendor = Vendors.onboard();
        DatabaseOutage.hang();

        long started = System.nanoTime();
        isError(tokenRequest(vendor), 503, "SERVICE_UNAVAILABLE").header("Retry-After", "5");
        // pmedia.datasource.acquire-timeout=3s bounds the wait; the rest is margin for a busy machine.
        assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(5));
        given().get(ready).then().statusCode(503).body("status", equalTo("DOWN"));
    }

    private static ValidatableResponse tokenRequest(Vendor vendor) {
        return given().contentType(ContentType.JSON)
                .body(Map.of("client_id", vendor.clientId().toString(), "client_secret", vendor.secret()))
                .post("/auth/token").then();
    }
}
