package io.pmedia.media;

import static io.pmedia.media.MediaApi.body;
import static io.pmedia.media.MediaApi.request;
import static io.pmedia.testing.ErrorAssertions.isError;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import java.net.URL;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.pmedia.testing.DatabaseOutage;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;

/** PostgreSQL stopped: {@code POST /media/demo} is a fast 503 with Retry-After, readiness DOWN, both back after. */
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
    void whileTheDatabaseIsStoppedRequestsAreAFast503AndReadinessIsDown() {
        UUID client = UUID.randomUUID();
        request(client, body("o-0", "no-such-case", Map.of())).statusCode(200);
        DatabaseOutage.refuse();

        long started = System.nanoTime();
        isError(request(client, body("o-1", "no-such-case", Map.of())), 503, "SERVICE_UNAVAILABLE")
                .header("Retry-After", "5");
        // A refused connection is answered at once, not after the 3 s pool wait a hang would cost (the margin is for a
        // busy CI machine, not for the code).
        assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofMillis(2500));
        assertThat(given().get(ready).then().statusCode(503)
                .extract().jsonPath().getString("status")).isEqualTo("DOWN");

        DatabaseOutage.end();

        DatabaseOutage.awaitReady(ready, Duration.ofSeconds(5));
        assertThat(request(client, body("o-1", "no-such-case", Map.of())).statusCode(200)
                .extract().jsonPath().getString("status")).isEqualTo("FAILURE");
    }
}
