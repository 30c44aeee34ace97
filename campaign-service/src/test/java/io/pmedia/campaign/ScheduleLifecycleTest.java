package io.pmedia.campaign;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import io.pmedia.testing.KafkaEvents;
import io.pmedia.testing.TestTokens;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;

/** A schedule's life: scoping, rescheduling, and transitions that fire on time with one event each. */
@QuarkusTest
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ScheduleLifecycleTest {

    @ConfigProperty(name = "kafka.bootstrap.servers")
    String bootstrap;

    private KafkaEvents events;

    @BeforeAll
    void listen() {
        events = KafkaEvents.of(bootstrap, "pmedia.campaign.status");
    }

    @AfterAll
    void stopListening() {
        events.close();
    }

    @Test
    void campaignsAreScopedToTheirClient() {
        UUID acme = UUID.randomUUID();
        UUID globex = UUID.randomUUID();
        schedule(acme, "summer-sale", hoursFromNow(1), hoursFromNow(2)).statusCode(200)
                .body("campaign_id", equalTo("summer-sale")).body("status", equalTo("SCHEDULED"));
        given().header("Authorization", TestTokens.bearer(globex)).get("/campaigns/summer-sale/schedule")
                .then().statusCode(404).body("code", equalTo("NOT_FOUND")).body("error", equalTo(true));
        schedule(globex, "summer-sale", hoursFromNow(3), hoursFromNow(4)).statusCode(200);
        given().header("Authorization", TestTokens.bearer(acme)).get("/campaigns/summer-sale/schedule")
                .then().statusCode(200).body("start_time", equalTo(hoursFromNow(1).toString()));
    }

    @Test
    void reschedulingMovesTheWindowAndItsStatus() {
        UUID client = UUID.randomUUID();
        schedule(client, "launch", hoursFromNow(1), hoursFromNow(2)).body("status", equalTo("SCHEDULED"));
        schedule(client, "launch", hoursFromNow(-1), hoursFromNow(5)).statusCode(200)
                .body("status", equalTo("ACTIVE"));
        given().header("Authorization", TestTokens.bearer(client)).get("/campaigns/launch/schedule")
                .then().statusCode(200).body("status", equalTo("ACTIVE"))
                .body("end_time", equalTo(hoursFromNow(5).toString()));
        String key = client + "/launch";
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(statuses(key))
                .containsExactly("SCHEDULED", "ACTIVE"));
    }

    @Test
    void aShortCampaignRunsItsWholeLifeOnItsOwn() {
        UUID client = UUID.randomUUID();
        Instant start = Instant.now().plusMillis(1500).truncatedTo(ChronoUnit.MILLIS);
        Instant end = start.plusMillis(1500);
        schedule(client, "flash", start, end).statusCode(200).body("status", equalTo("SCHEDULED"));

        await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(100))
                .until(() -> "ACTIVE".equals(status(client, "flash")));
        assertThat(Instant.now()).isAfterOrEqualTo(start).isBefore(start.plusSeconds(2));
        await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(100))
                .until(() -> "ENDED".equals(status(client, "flash")));
        assertThat(Instant.now()).isAfterOrEqualTo(end).isBefore(end.plusSeconds(2));

        String key = client + "/flash";
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(statuses(key))
                .containsExactly("SCHEDULED", "ACTIVE", "ENDED"));
        var ended = events.withKey(key).get(2).envelope();
        assertThat(ended.get("type").asText()).isEqualTo("io.pmedia.campaign.status.changed");
        assertThat(ended.get("specversion").asText()).isEqualTo("1.0");
        assertThat(ended.at("/data/previous-status").asText()).isEqualTo("ACTIVE");
        assertThat(ended.at("/data/client-id").asText()).isEqualTo(client.toString());
        assertThat(ended.at("/data/campaign_id").asText()).isEqualTo("flash");

        schedule(client, "flash", hoursFromNow(1), hoursFromNow(2)).statusCode(409)
                .body("code", equalTo("CONFLICT"));
    }

    private List<String> statuses(String key) {
        return events.withKey(key).stream().map(event -> event.data().get("status").asText()).toList();
    }

    static String status(UUID client, String campaign) {
        return given().header("Authorization", TestTokens.bearer(client)).get("/campaigns/" + campaign + "/schedule")
                .then().statusCode(200).extract().path("status");
    }

    static io.restassured.response.ValidatableResponse schedule(UUID client, String campaign, Instant start,
            Instant end) {
        return given().header("Authorization", TestTokens.bearer(client)).contentType(ContentType.JSON)
                .body(Map.of("start_time", start.toString(), "end_time", end.toString()))
                .post("/campaigns/" + campaign + "/schedule").then().log().ifValidationFails();
    }

    static Instant hoursFromNow(int hours) {
        return Instant.now().plus(hours, ChronoUnit.HOURS).truncatedTo(ChronoUnit.HOURS);
    }
}
