package io.pmedia.notifier;

import static io.pmedia.testing.ErrorAssertions.isError;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.Test;

import io.pmedia.testing.GatewayStub;
import io.pmedia.testing.GatewayStub.Secret;
import io.pmedia.testing.Patience;
import io.pmedia.testing.TestTokens;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import io.restassured.response.ValidatableResponse;

/**
 * GET /usage: counters kept as the work happens, from the platform's events (each counted once, however often it is
 * delivered) and the webhook attempts; a vendor reads its own, the operator every vendor's.
 */
@QuarkusTest
class UsageTest {

    @ConfigProperty(name = "kafka.bootstrap.servers")
    String bootstrap;

    static ValidatableResponse usage(UUID client, String query) {
        return given().header("Authorization", TestTokens.bearer(client)).get("/usage" + query).then().log()
                .ifValidationFails();
    }

    static ValidatableResponse all(String query) {
        return given().header("Authorization", "Bearer " + TestTokens.operator()).get("/admin/usage" + query).then()
                .log().ifValidationFails();
    }

    @Test
    void theCountsMatchTheWorkDoneAndARedeliveredEventCountsOnce() {
        UUID vendor = UUID.randomUUID();
        UUID other = UUID.randomUUID();
        String today = LocalDate.now(ZoneOffset.UTC).toString();
        try (EndedEvents events = new EndedEvents(bootstrap);
                StatusEvents statuses = new StatusEvents(bootstrap);
                TestReceiver receiver = TestReceiver.accepting()) {
            GatewayStub.register(vendor, receiver.url(), Secret.current(Secrets.newSecret()));
            // two realtime requests end (one twice over), three renders run (one failed), one of them twice over
            StatusEvents.Event success = StatusEvents.success(vendor);
            statuses.send(success).send(success).send(StatusEvents.status(vendor, "FAILURE"));
            statuses.send(StatusEvents.status(vendor, "PROCESSING"));
            events.render("pmedia.render.results", vendor, true, 10.0, 1500, 2_000_000);
            events.again("pmedia.render.results", "again", events.last());
            events.render("pmedia.batch.render-results", vendor, true, 4.5, 500, 1_000_000);
            events.render("pmedia.batch.render-results", vendor, false, 0, 250, 0);
            // a batch task ends (its second final event is the same end), a try-on succeeds, another fails
            UUID task = UUID.randomUUID();
            events.batch(vendor, task, "IN PROGRESS", null, 3, 2, "2 of 3 rows answered");
            events.batch(vendor, task, "COMPLETED", "s3://b/batch/x/output.csv", 3, 3, "3 of 3 rows rendered");
            events.batch(vendor, task, "COMPLETED", "s3://b/batch/x/output.csv", 3, 3, "3 of 3 rows rendered");
            events.tryOn(vendor, UUID.randomUUID(), "SUCCESS", "https://s/x.png", null);
            events.tryOn(vendor, UUID.randomUUID(), "FAILURE", null, "no image");
            // another vendor's render
            events.render("pmedia.render.results", other, true, 7.0, 700, 300);

            Patience.await().untilAsserted(() -> {
                JsonPath totals = usage(vendor, "").statusCode(200).extract().jsonPath();
                assertThat(totals.getInt("totals.try-ons.failed")).isEqualTo(1);
                assertThat(totals.getInt("totals.webhook-deliveries.delivered")).isEqualTo(1);
                assertThat(totals.getInt("totals.renders.failed")).isEqualTo(1);
                // the other vendor's render is the last event sent, on its own partition: counted by then too
                assertThat(usage(other, "").statusCode(200).extract().jsonPath().getInt("totals.renders.succeeded"))
                        .isEqualTo(1);
            });
            JsonPath json = usage(vendor, "?from=" + today + "&granularity=day").statusCode(200).extract().jsonPath();
            assertThat(json.getString("client-id")).isEqualTo(vendor.toString());
            assertThat(json.getString("granularity")).isEqualTo("day");
            assertThat(json.getMap("totals.requests")).isEqualTo(Map.of("succeeded", 1, "failed", 1));
            assertThat(json.getMap("totals.renders")).isEqualTo(Map.of("succeeded", 2, "failed", 1));
            assertThat(json.getDouble("totals.video-seconds")).isEqualTo(14.5);
            assertThat(json.getDouble("totals.render-seconds")).isEqualTo(2.25);
            assertThat(json.getLong("totals.storage-bytes")).isEqualTo(3_000_000L);
            assertThat(json.getMap("totals.batch-tasks")).isEqualTo(Map.of("completed", 1, "failed", 0));
            assertThat(json.getInt("totals.batch-rows")).isEqualTo(3);
            assertThat(json.getMap("totals.try-ons")).isEqualTo(Map.of("succeeded", 1, "failed", 1));
            assertThat(json.getMap("totals.webhook-deliveries"))
                    .isEqualTo(Map.of("attempts", 1, "delivered", 1, "failed", 0));
            assertThat(json.getList("periods")).hasSize(1);
            assertThat(json.getString("periods[0].start")).isEqualTo(today);
            assertThat(json.getInt("periods[0].renders.succeeded")).isEqualTo(2);

            JsonPath others = usage(other, "").statusCode(200).extract().jsonPath();
            assertThat(others.getMap("totals.renders")).isEqualTo(Map.of("succeeded", 1, "failed", 0));
            assertThat(others.getInt("totals.requests.succeeded")).isZero();

            JsonPath operator = all("?from=" + today).statusCode(200).extract().jsonPath();
            assertThat(operator.getList("items.client-id")).contains(vendor.toString(), other.toString());
            assertThat(all("?client-id=" + other).statusCode(200).extract().jsonPath()
                    .getList("items.totals.renders.succeeded")).containsExactly(1);
        }
    }

    @Test
    void aRangeIsZeroFilledPerPeriodAndWrongParametersAreNamed() {
        UUID vendor = UUID.randomUUID();
        JsonPath days = usage(vendor, "?from=2026-01-30&to=2026-02-02").statusCode(200).extract().jsonPath();
        assertThat(days.getList("periods.start")).containsExactly("2026-01-30", "2026-01-31", "2026-02-01");
        assertThat(days.getInt("periods[0].requests.succeeded")).isZero();
        JsonPath months = usage(vendor, "?from=2026-01-15&to=2026-03-01&granularity=month").statusCode(200).extract()
                .jsonPath();
        assertThat(months.getList("periods.start")).containsExactly("2026-01-01", "2026-02-01");
        for (var wrong : Map.of("?from=yesterday", "'from'", "?to=2026-02-31", "'to'", "?granularity=week",
                "'granularity'", "?from=2026-02-01&to=2026-01-01", "'from'", "?from=2020-01-01&to=2026-01-01",
                "at most").entrySet()) {
            assertThat(isError(usage(vendor, wrong.getKey()), 400, "VALIDATION_ERROR").extract().jsonPath()
                    .getString("message")).as(wrong.getKey()).contains(wrong.getValue());
        }
        isError(given().header("Authorization", TestTokens.bearer(vendor)).get("/admin/usage").then(), 403,
                "FORBIDDEN");
        isError(given().get("/usage").then(), 401, "UNAUTHORIZED");
        assertThat(List.of(usage(vendor, "").statusCode(200).extract().jsonPath().getString("from")))
                .containsExactly(LocalDate.now(ZoneOffset.UTC).withDayOfMonth(1).toString());
    }
}
