package io.pmedia.campaign;

import static io.pmedia.campaign.ScheduleLifecycleTest.hoursFromNow;
import static io.pmedia.campaign.ScheduleLifecycleTest.read;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.Test;

import io.pmedia.testing.KafkaEvents;
import io.pmedia.testing.Patience;
import io.pmedia.testing.TestTokens;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import io.restassured.response.ValidatableResponse;

/**
 * A campaign's {@code render} (docs/campaigns.md, "Render"): how its batch tasks that do not say are rendered. Stored,
 * answered, read back, listed, carried by every status event of the campaign on the real broker, changed by a
 * reschedule, and nothing but {@code now} or {@code on-view}.
 */
@QuarkusTest
class ScheduleRenderTest {

    @ConfigProperty(name = "kafka.bootstrap.servers")
    String bootstrap;

    @Test
    void aScheduleWithoutRenderRendersNow() {
        UUID client = UUID.randomUUID();
        JsonPath answer = schedule(client, "plain", hoursFromNow(1), hoursFromNow(2), null).statusCode(200)
                .extract().jsonPath();
        assertThat(answer.getString("status")).isEqualTo("SCHEDULED");
        assertThat(answer.getString("render")).isEqualTo("now");
        assertThat(read(client, "plain").statusCode(200).extract().jsonPath().getString("render")).isEqualTo("now");
        try (KafkaEvents events = events()) {
            Patience.await().untilAsserted(() -> assertThat(field(events, client + "/plain", "render"))
                    .containsExactly("now"));
        }
    }

    @Test
    void onViewIsStoredAnsweredListedAndInEveryEventOfTheCampaignsLife() {
        UUID client = UUID.randomUUID();
        Instant start = Instant.now().plusSeconds(3).truncatedTo(ChronoUnit.MILLIS);
        Instant end = start.plusSeconds(1);
        JsonPath answer = schedule(client, "links", start, end, "on-view").statusCode(200).extract().jsonPath();
        assertThat(answer.getString("campaign_id")).isEqualTo("links");
        assertThat(answer.getString("status")).isEqualTo("SCHEDULED");
        assertThat(answer.getString("render")).isEqualTo("on-view");

        JsonPath stored = read(client, "links").statusCode(200).extract().jsonPath();
        assertThat(stored.getString("render")).isEqualTo("on-view");
        JsonPath listed = given().header("Authorization", TestTokens.bearer(client)).get("/campaigns").then()
                .statusCode(200).extract().jsonPath();
        assertThat(listed.getString("items[0].campaign_id")).isEqualTo("links");
        assertThat(listed.getString("items[0].render")).isEqualTo("on-view");

        // The transitions fired later by the scheduler carry the stored render too.
        String key = client + "/links";
        try (KafkaEvents events = events()) {
            Patience.await().pollInterval(Duration.ofMillis(100)).untilAsserted(() -> assertThat(
                    field(events, key, "status")).containsExactly("SCHEDULED", "ACTIVE", "ENDED"));
            assertThat(field(events, key, "render")).containsExactly("on-view", "on-view", "on-view");
        }
    }

    @Test
    void reschedulingChangesTheRenderWithItsEvent() {
        UUID client = UUID.randomUUID();
        String key = client + "/switch";
        schedule(client, "switch", hoursFromNow(1), hoursFromNow(2), "on-view").statusCode(200);
        assertThat(schedule(client, "switch", hoursFromNow(1), hoursFromNow(2), "now").statusCode(200).extract()
                .jsonPath().getString("render")).isEqualTo("now");
        assertThat(read(client, "switch").statusCode(200).extract().jsonPath().getString("render")).isEqualTo("now");
        // The request is the whole schedule: a reschedule that does not name render renders now.
        schedule(client, "switch", hoursFromNow(1), hoursFromNow(2), "on-view").statusCode(200);
        schedule(client, "switch", hoursFromNow(1), hoursFromNow(3), null).statusCode(200);
        assertThat(read(client, "switch").statusCode(200).extract().jsonPath().getString("render")).isEqualTo("now");

        try (KafkaEvents events = events()) {
            Patience.await().untilAsserted(() -> assertThat(field(events, key, "render"))
                    .containsExactly("on-view", "now", "on-view", "now"));
            assertThat(field(events, key, "previous-status").get(1)).as("only the render changed: the status stays")
                    .isEqualTo("SCHEDULED");
        }
    }

    @Test
    void renderIsNowOrOnViewAndNothingElse() {
        UUID client = UUID.randomUUID();
        for (String wrong : List.of("later", "ON-VIEW", "", " now")) {
            JsonPath refused = schedule(client, "strict", hoursFromNow(1), hoursFromNow(2), wrong).statusCode(400)
                    .extract().jsonPath();
            assertThat(refused.getBoolean("error")).isTrue();
            assertThat(refused.getString("code")).isEqualTo("VALIDATION_ERROR");
            assertThat(refused.getString("message"))
                    .isEqualTo("field 'render' must be one of [now, on-view], got '" + wrong + "'");
        }
        JsonPath number = schedule(client, "strict", hoursFromNow(1), hoursFromNow(2), 42).statusCode(400)
                .extract().jsonPath();
        assertThat(number.getString("message")).isEqualTo("field 'render' has the wrong type: expected a string");
        read(client, "strict").statusCode(404);
    }

    /** The campaign status events, from the topic's beginning. */
    private KafkaEvents events() {
        return KafkaEvents.of(bootstrap, "pmedia.campaign.status");
    }

    /** {@code field} of each event of the campaign {@code key}, in order. */
    private static List<String> field(KafkaEvents events, String key, String field) {
        return events.withKey(key).stream().map(event -> event.data().get(field).asText()).toList();
    }

    static ValidatableResponse schedule(UUID client, String campaign, Instant start, Instant end, Object render) {
        Map<String, Object> body = new HashMap<>(Map.of("start_time", start.toString(), "end_time", end.toString()));
        if (render != null) {
            body.put("render", render);
        }
        return given().header("Authorization", TestTokens.bearer(client)).contentType(ContentType.JSON).body(body)
                .post("/campaigns/" + campaign + "/schedule").then().log().ifValidationFails();
    }
}
