package io.pmedia.engagement.service;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.UUID;

import org.junit.jupiter.api.Test;

import io.pmedia.engagement.EngagementFixture;
import io.pmedia.events.SharedVideo;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;

/**
 * A page view's steps count in funnel order and once each: no play without its view, no progress or completion
 * without its play, no click without its view, and no click at all on a page without a call to action.
 */
@QuarkusTest
class FunnelTest extends EngagementFixture {

    @Test
    void aPageViewCountsEachStepOnce() {
        UUID request = UUID.randomUUID();
        String share = shared(request);
        PageView page = open(share, Viewer.somebody());

        for (int twice = 0; twice < 2; twice++) {
            page.send("view").then().statusCode(202);
            page.send("play", "seconds", 0).then().statusCode(202);
            for (int percent : new int[]{25, 50, 75}) {
                page.send("progress", "percent", percent, "seconds", percent / 10.0).then().statusCode(202);
            }
            page.send("complete", "seconds", 9.6).then().statusCode(202);
            page.send("cta-click", "seconds", 9.6).then().statusCode(202);
        }

        JsonPath report = awaitReport(vendor, request, answer -> answer.getInt("totals.completions") >= 1
                && answer.getInt("totals.cta-clicks") >= 1);
        assertThat(report.getInt("totals.views")).isEqualTo(1);
        assertThat(report.getInt("totals.unique-viewers")).isEqualTo(1);
        assertThat(report.getInt("totals.plays")).isEqualTo(1);
        assertThat(report.getInt("totals.completions")).isEqualTo(1);
        assertThat(report.getInt("totals.cta-clicks")).isEqualTo(1);
        assertThat(report.getMap("funnel")).containsEntry("0", 1).containsEntry("25", 1).containsEntry("50", 1)
                .containsEntry("75", 1).containsEntry("100", 1);
        assertThat(report.getDouble("totals.completion-rate")).isEqualTo(1.0);
        assertThat(report.getDouble("totals.average-percent-watched")).isEqualTo(100.0);
        // The furthest seconds of the page view (9.6), as the report gives them (whole seconds today).
        assertThat(report.getDouble("totals.seconds-watched")).isBetween(9.0, 9.6);
    }

    @Test
    void stepsOutOfOrderCountNothing() {
        UUID request = UUID.randomUUID();
        String share = shared(request);
        // Before its view: a play, a completion, a click. After its view, a completion without a play.
        PageView first = open(share, Viewer.somebody());
        first.send("play", "seconds", 3).then().statusCode(202);
        first.send("progress", "percent", 25, "seconds", 3).then().statusCode(202);
        first.send("complete", "seconds", 9.6).then().statusCode(202);
        first.send("cta-click").then().statusCode(202);
        first.send("view").then().statusCode(202);
        first.send("complete", "seconds", 9.6).then().statusCode(202);
        // Another page view's view makes a later step of this one count: only its own view does.
        PageView second = open(share, Viewer.somebody());
        second.send("play", "seconds", 1).then().statusCode(202);
        second.send("view").then().statusCode(202);

        JsonPath report = awaitReport(vendor, request, answer -> answer.getInt("totals.views") >= 2);
        assertThat(report.getInt("totals.views")).isEqualTo(2);
        assertThat(report.getInt("totals.plays")).isZero();
        assertThat(report.getInt("totals.completions")).isZero();
        assertThat(report.getInt("totals.cta-clicks")).isZero();
        assertThat(report.getDouble("totals.seconds-watched")).isZero();
        assertThat(report.getMap("funnel")).containsEntry("0", 2).containsEntry("25", 0).containsEntry("100", 0);
    }

    @Test
    void aClickOnAPageWithoutACallToActionCountsNothing() {
        UUID request = UUID.randomUUID();
        String share = shared(vendor, request, "Plain", null, Instant.now().plus(1, ChronoUnit.DAYS),
                SharedVideo.State.ACTIVE);
        PageView page = open(share, Viewer.somebody());

        page.send("view").then().statusCode(202);
        page.send("cta-click").then().statusCode(202);
        page.send("play", "seconds", 0).then().statusCode(202);

        JsonPath report = awaitReport(vendor, request, answer -> answer.getInt("totals.plays") >= 1);
        assertThat(report.getInt("totals.views")).isEqualTo(1);
        assertThat(report.getInt("totals.cta-clicks")).isZero();
    }
}
