package io.pmedia.campaign;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

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
import io.pmedia.testing.Patience;
import io.pmedia.testing.TestTokens;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import io.restassured.response.ValidatableResponse;

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
        JsonPath scheduled = schedule(acme, "summer-sale", hoursFromNow(1), hoursFromNow(2)).statusCode(200)
                .extract().jsonPath();
        assertThat(scheduled.getString("campaign_id")).isEqualTo("summer-sale");
        assertThat(scheduled.getString("status")).isEqualTo("SCHEDULED");

        JsonPath notTheirs = read(globex, "summer-sale").statusCode(404).extract().jsonPath();
        assertThat(notTheirs.getString("code")).isEqualTo("NOT_FOUND");
        assertThat(notTheirs.getBoolean("error")).isTrue();

        schedule(globex, "summer-sale", hoursFromNow(3), hoursFromNow(4)).statusCode(200);
        assertThat(read(acme, "summer-sale").statusCode(200).extract().jsonPath().getString("start_time"))
                .isEqualTo(hoursFromNow(1).toString());
    }

    @Test
    void reschedulingMovesTheWindowAndItsStatus() {
        UUID client = UUID.randomUUID();
        assertThat(statusOf(schedule(client, "launch", hoursFromNow(1), hoursFromNow(2)))).isEqualTo("SCHEDULED");
        assertThat(statusOf(schedule(client, "launch", hoursFromNow(-1), hoursFromNow(5)).statusCode(200)))
                .isEqualTo("ACTIVE");
        JsonPath moved = read(client, "launch").statusCode(200).extract().jsonPath();
        assertThat(moved.getString("status")).isEqualTo("ACTIVE");
        assertThat(moved.getString("end_time")).isEqualTo(hoursFromNow(5).toString());
        String key = client + "/launch";
        Patience.await().untilAsserted(() -> assertThat(statuses(key))
                .containsExactly("SCHEDULED", "ACTIVE"));
    }

    @Test
    void aShortCampaignRunsItsWholeLifeOnItsOwn() {
        UUID client = UUID.randomUUID();
        Instant start = Instant.now().plusMillis(1500).truncatedTo(ChronoUnit.MILLIS);
        Instant end = start.plusMillis(1500);
        assertThat(statusOf(schedule(client, "flash", start, end).statusCode(200))).isEqualTo("SCHEDULED");

        Patience.await().pollInterval(Duration.ofMillis(100))
                .until(() -> "ACTIVE".equals(status(client, "flash")));
        assertThat(Instant.now()).isAfterOrEqualTo(start).isBefore(start.plusSeconds(2));
        Patience.await().pollInterval(Duration.ofMillis(100))
                .until(() -> "ENDED".equals(status(client, "flash")));
        assertThat(Instant.now()).isAfterOrEqualTo(end).isBefore(end.plusSeconds(2));

        String key = client + "/flash";
        Patience.await().untilAsserted(() -> assertThat(statuses(key))
                .containsExactly("SCHEDULED", "ACTIVE", "ENDED"));
        var ended = events.withKey(key).get(2).envelope();
        assertThat(ended.get("type").asText()).isEqualTo("io.pmedia.campaign.status.changed");
        assertThat(ended.get("specversion").asText()).isEqualTo("1.0");
        assertThat(ended.at("/data/previous-status").asText()).isEqualTo("ACTIVE");
        assertThat(ended.at("/data/client-id").asText()).isEqualTo(client.toString());
        assertThat(ended.at("/data/campaign_id").asText()).isEqualTo("flash");

        assertThat(schedule(client, "flash", hoursFromNow(1), hoursFromNow(2)).statusCode(409).extract().jsonPath()
                .getString("code")).isEqualTo("CONFLICT");
    }

    private List<String> statuses(String key) {
        return events.withKey(key).stream().map(event -> event.data().get("status").asText()).toList();
    }

    /** The campaign's status as {@code GET} reads it. */
    static String status(UUID client, String campaign) {
        return statusOf(read(client, campaign).statusCode(200));
    }

    static String statusOf(ValidatableResponse response) {
        return response.extract().jsonPath().getString("status");
    }

    static ValidatableResponse read(UUID client, String campaign) {
        return given().header("Authorization", TestTokens.bearer(client)).get("/campaigns/" + campaign + "/schedule")
                .then().log().ifValidationFails();
    }

    static ValidatableResponse schedule(UUID client, String campaign, Instant start, Instant end) {
        return given().header("Authorization", TestTokens.bearer(client)).contentType(ContentType.JSON)
                .body(Map.of("start_time", start.toString(), "end_time", end.toString()))
                .post("/campaigns/" + campaign + "/schedule").then().log().ifValidationFails();
    }

    static Instant hoursFromNow(int hours) {
        return Instant.now().plus(hours, ChronoUnit.HOURS).truncatedTo(ChronoUnit.HOURS);
    }
}
