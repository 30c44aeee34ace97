package io.pmedia.engagement.service;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.UUID;

import org.junit.jupiter.api.Test;

import io.pmedia.engagement.EngagementFixture;
import io.pmedia.events.CloudEvent;
import io.pmedia.events.ViewerEvent;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;

/**
 * The rollup: each event once, page views from one address within the repeat window one view and one viewer (the
 * rest shown as repeat views, whatever the user agent says), bots apart, privacy signals obeyed.
 */
@QuarkusTest
class RollupTest extends EngagementFixture {

    @Test
    void anEventDeliveredTwiceIsCountedOnce() {
        UUID request = UUID.randomUUID();
        String share = shared(request);
        ViewerEvent view = new ViewerEvent(share, vendor, request, null, null, null, ViewerEvent.Kind.view,
                "session-twice-1", "visitor-1", null, null, false, Instant.now());
        CloudEvent envelope = CODEC.envelope("/test", view);
        send(view, envelope);
        send(view, envelope);
        publish(new ViewerEvent(share, vendor, request, null, null, null, ViewerEvent.Kind.view, "session-twice-2",
                "visitor-2", null, null, false, Instant.now()));

        JsonPath report = awaitReport(vendor, request, answer -> answer.getInt("totals.views") >= 2);
        assertThat(report.getInt("totals.views")).isEqualTo(2);
    }

    /**
     * Twelve page loads from one address (as many as its beacon budget lets through at once), with a new user agent
     * each: one view, one viewer, one play, eleven repeats.
     */
    @Test
    void pageViewsFromOneAddressWithinTheWindowAreOneViewAndOneViewer() {
        UUID request = UUID.randomUUID();
        String share = shared(request);
        String address = Viewer.somebody().address();

        for (int i = 0; i < 12; i++) {
            PageView page = open(share, new Viewer(address, BROWSER.replace("156.0", "156." + i)));
            page.send("view").then().statusCode(202);
            page.send("play", "seconds", 0).then().statusCode(202);
        }
        open(share, Viewer.somebody()).send("view").then().statusCode(202);

        JsonPath report = awaitReport(vendor, request, answer -> answer.getInt("totals.repeat-views") >= 11
                && answer.getInt("totals.views") >= 2);
        assertThat(report.getInt("totals.views")).isEqualTo(2);
        assertThat(report.getInt("totals.unique-viewers")).isEqualTo(2);
        assertThat(report.getInt("totals.repeat-views")).isEqualTo(11);
        assertThat(report.getInt("totals.plays")).isEqualTo(1);
    }

    /** The window is the visit's: a view past it is a view again, of the same viewer that day. */
    @Test
    void aViewPastTheRepeatWindowCountsAgain() {
        UUID request = UUID.randomUUID();
        String share = shared(request);
        Instant start = LocalDate.now(ZoneOffset.UTC).atStartOfDay(ZoneOffset.UTC).toInstant().plusSeconds(60);
        for (long minutes : new long[]{0, 10, 29, 31, 45}) {
            publish(new ViewerEvent(share, vendor, request, null, null, null, ViewerEvent.Kind.view,
                    "window-" + minutes + "-" + UUID.randomUUID(), "one-visitor", null, null, false,
                    start.plus(minutes, ChronoUnit.MINUTES)));
        }

        JsonPath report = awaitReport(vendor, request, answer -> answer.getInt("totals.views")
                + answer.getInt("totals.repeat-views") >= 5);
        assertThat(report.getInt("totals.views")).as("at 0 and 31 minutes").isEqualTo(2);
        assertThat(report.getInt("totals.repeat-views")).as("at 10, 29 and 45 minutes").isEqualTo(3);
        assertThat(report.getInt("totals.unique-viewers")).isEqualTo(1);
    }

    @Test
    void botsAreCountedApartAndPrivacySignalsRecordNothing() {
        UUID request = UUID.randomUUID();
        String share = shared(request);

        given().header("User-Agent", "Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)")
                .get("/v/" + share).then().statusCode(200);
        for (String signal : new String[]{"DNT", "Sec-GPC"}) {
            PageView page = open(share, Viewer.somebody());
            given().header("User-Agent", BROWSER).header(signal, "1").header("X-Forwarded-For",
                    page.viewer().address()).contentType(ContentType.TEXT)
                    .body("{\"type\":\"view\",\"session\":\"privacy-session\",\"token\":\"" + page.token() + "\"}")
                    .post("/v/" + share + "/events").then().statusCode(202);
        }
        open(share, Viewer.somebody()).send("view").then().statusCode(202);

        JsonPath report = awaitReport(vendor, request, answer -> answer.getInt("totals.bot-views") >= 1
                && answer.getInt("totals.views") >= 1);
        assertThat(report.getInt("totals.views")).isEqualTo(1);
        assertThat(report.getInt("totals.bot-views")).isEqualTo(1);
    }
}
