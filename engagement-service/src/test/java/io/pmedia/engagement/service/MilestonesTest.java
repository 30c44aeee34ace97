package io.pmedia.engagement.service;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.UUID;
import java.util.stream.LongStream;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import io.pmedia.engagement.EngagementFixture;
import io.pmedia.events.EngagementMilestone;
import io.pmedia.events.Topics;
import io.pmedia.testing.KafkaEvents;
import io.pmedia.testing.Patience;
import io.quarkus.test.junit.QuarkusTest;

/**
 * Milestones for the vendor's webhooks: the first view, the first completion and each visit's click, each carrying
 * the counters the video had when it was counted; at most ten {@code cta.clicked} per video and hour.
 */
@QuarkusTest
class MilestonesTest extends EngagementFixture {

    private KafkaEvents milestones;

    @BeforeAll
    void listenTo() {
        milestones = listen(Topics.ENGAGEMENT_STATUS);
    }

    @Test
    void aVideoReachesItsMilestonesWithTheCountersOfTheirMoment() {
        String share = shared(UUID.randomUUID());
        PageView first = open(share, Viewer.somebody());
        first.send("view").then().statusCode(202);
        first.send("play", "seconds", 0).then().statusCode(202);
        first.send("complete", "seconds", 9.6).then().statusCode(202);
        first.send("cta-click").then().statusCode(202);
        PageView second = open(share, Viewer.somebody());
        second.send("view").then().statusCode(202);
        second.send("cta-click").then().statusCode(202);
        second.send("cta-click").then().statusCode(202);

        List<KafkaEvents.Event> reached = Patience.await()
                .until(() -> milestones.withKey(share), events -> events.size() >= 4);
        assertThat(reached).extracting(event -> event.data().path("event-type").asText() + " views "
                + event.data().path("views").asLong() + " completions " + event.data().path("completions").asLong()
                + " clicks " + event.data().path("cta-clicks").asLong())
                .containsExactlyInAnyOrder(
                        EngagementMilestone.VIEWED + " views 1 completions 0 clicks 0",
                        EngagementMilestone.COMPLETED + " views 1 completions 1 clicks 0",
                        EngagementMilestone.CTA_CLICKED + " views 1 completions 1 clicks 1",
                        EngagementMilestone.CTA_CLICKED + " views 2 completions 1 clicks 2");
    }

    @Test
    void clickWebhooksAreCappedPerVideoAndHourWhileEveryClickCounts() {
        UUID request = UUID.randomUUID();
        String share = shared(request);
        Instant hour = Instant.now().truncatedTo(ChronoUnit.HOURS);

        for (int i = 0; i < 12; i++) {
            PageView page = open(share, Viewer.somebody());
            page.send("view").then().statusCode(202);
            page.send("cta-click").then().statusCode(202);
        }

        awaitReport(vendor, request, report -> report.getInt("totals.cta-clicks") >= 12);
        // A completion after every click: the outbox sends in order, so once its milestone is out, so is every
        // click's that was written.
        PageView last = open(share, Viewer.somebody());
        last.send("view").then().statusCode(202);
        last.send("play", "seconds", 0).then().statusCode(202);
        last.send("complete", "seconds", 9.6).then().statusCode(202);
        Patience.await().until(() -> milestones.withKey(share).stream()
                .anyMatch(event -> EngagementMilestone.COMPLETED.equals(event.data().path("event-type").asText())));
        List<Long> pushed = clicks(share);
        if (Instant.now().truncatedTo(ChronoUnit.HOURS).equals(hour)) {
            assertThat(pushed).containsExactlyInAnyOrderElementsOf(LongStream.rangeClosed(1, 10).boxed().toList());
        } else {
            assertThat(pushed).as("the clock hour turned during the test").hasSizeBetween(10, 12);
        }
    }

    private List<Long> clicks(String share) {
        return milestones.withKey(share).stream()
                .filter(event -> EngagementMilestone.CTA_CLICKED.equals(event.data().path("event-type").asText()))
                .map(event -> event.data().path("cta-clicks").asLong()).toList();
    }
}
