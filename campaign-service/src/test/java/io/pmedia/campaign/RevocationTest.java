package io.pmedia.campaign;

import static io.pmedia.testing.ErrorAssertions.isError;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.pmedia.testing.GatewayStub;
import io.pmedia.testing.Patience;
import io.pmedia.testing.TestTokens;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.response.ValidatableResponse;

/**
 * A deleted client's tokens stop working here too, not only at the gateway (issue 9: a deleted client read its
 * campaign schedule straight from campaign-service): every request authenticated as a client asks the gateway's
 * registry whether the client still exists, at most once per client every 2 s.
 */
@QuarkusTest
class RevocationTest {

    @AfterEach
    void gatewayIsBack() {
        GatewayStub.up();
    }

    @Test
    void aDeletedClientsTokenIsRefusedWithinTheCacheTime() {
        UUID client = UUID.randomUUID();
        String token = TestTokens.bearer(client);
        schedule(token, "spring").statusCode(200);
        assertThat(read(token, "spring").statusCode(200).extract().jsonPath().getString("campaign_id"))
                .isEqualTo("spring");

        GatewayStub.delete(client);
        long deleted = System.nanoTime();

        Patience.await().pollInterval(Duration.ofMillis(100))
                .untilAsserted(() -> read(token, "spring").statusCode(401));
        assertThat(Duration.ofNanos(System.nanoTime() - deleted)).isLessThanOrEqualTo(Duration.ofMillis(2500));
        assertThat(isError(read(token, "spring"), 401, "UNAUTHORIZED").extract().jsonPath().getString("message"))
                .isEqualTo("invalid or expired bearer token");
        isError(schedule(token, "autumn"), 401, "UNAUTHORIZED");
        // Another client is not affected.
        read(TestTokens.bearer(UUID.randomUUID()), "spring").statusCode(404);
    }

    @Test
    void anActiveClientCostsTheGatewayOneCallPerCacheInterval() {
        UUID client = UUID.randomUUID();
        String token = TestTokens.bearer(client);
        schedule(token, "summer").statusCode(200);
        for (int i = 0; i < 20; i++) {
            read(token, "summer").statusCode(200);
        }
        // 21 requests within well under the 2 s the answer is kept (a slow machine may need a second interval).
        assertThat(GatewayStub.activeChecks(client)).isBetween(1, 2);
    }

    @Test
    void concurrentFirstRequestsOfAClientShareOneCall() throws Exception {
        UUID client = UUID.randomUUID();
        String token = TestTokens.bearer(client);
        ExecutorService pool = Executors.newFixedThreadPool(16);
        try {
            List<CompletableFuture<Integer>> reads = new ArrayList<>();
            for (int i = 0; i < 16; i++) {
                reads.add(CompletableFuture.supplyAsync(() -> read(token, "winter").extract().statusCode(), pool));
            }
            for (CompletableFuture<Integer> status : reads) {
                assertThat(status.get()).isEqualTo(404);
            }
        } finally {
            pool.shutdownNow();
        }
        assertThat(GatewayStub.activeChecks(client)).isEqualTo(1);
    }

    @Test
    void whileTheGatewayIsDownARecentlyConfirmedClientPassesAndAnUnknownOneGets503() {
        UUID known = UUID.randomUUID();
        String knownToken = TestTokens.bearer(known);
        schedule(knownToken, "black-friday").statusCode(200);

        GatewayStub.down();

        // Past the 2 s cache, within the 60 s a confirmed client is trusted while the gateway cannot answer.
        Patience.await().pollDelay(Duration.ofMillis(2100)).atMost(Duration.ofSeconds(5))
                .untilAsserted(() -> read(knownToken, "black-friday").statusCode(200));
        assertThat(GatewayStub.activeChecks(known)).isGreaterThanOrEqualTo(2);
        isError(read(TestTokens.bearer(UUID.randomUUID()), "black-friday"), 503, "SERVICE_UNAVAILABLE")
                .header("Retry-After", "5");
    }

    @Test
    void callsWithoutAClientTokenAreNotChecked() {
        isError(given().get("/campaigns/any/schedule").then(), 401, "UNAUTHORIZED");
        isError(given().header("Authorization", "Bearer " + TestTokens.operator()).get("/campaigns/any/schedule")
                .then(), 403, "FORBIDDEN");
    }

    private static ValidatableResponse schedule(String token, String campaign) {
        Instant start = Instant.now().plus(1, ChronoUnit.HOURS).truncatedTo(ChronoUnit.SECONDS);
        return given().header("Authorization", token).contentType(ContentType.JSON)
                .body(Map.of("start_time", start.toString(), "end_time", start.plus(1, ChronoUnit.HOURS).toString()))
                .post("/campaigns/" + campaign + "/schedule").then();
    }

    private static ValidatableResponse read(String token, String campaign) {
        return given().header("Authorization", token).get("/campaigns/" + campaign + "/schedule").then();
    }
}
