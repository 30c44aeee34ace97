package io.pmedia.engagement.service;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.junit.jupiter.api.Test;

import io.pmedia.engagement.EngagementFixture;
import io.pmedia.events.SharedVideo;
import io.pmedia.testing.Patience;
import io.pmedia.testing.TestTokens;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;

/**
 * Time to first frame through the real broker and database: each page view's first frame counts once, after its
 * view, into its video's histogram; a template's and a campaign's p50 and p95 come from the sum of their videos'
 * histograms, split by source (the stream of a link still rendering, or the rendered MP4).
 */
@QuarkusTest
class FirstFrameTest extends EngagementFixture {

    /**
     * Eight page views over three videos of one template (a realtime request, and two rows of a campaign): stream
     * 120, 300, 480, 900, 1900 ms; MP4 200, 700, 5000 ms. By nearest rank the template's p50 is the fourth of eight
     * (480 ms, bucket 500) and its p95 the eighth (5000 ms, bucket 8000); the stream's p50 the third of five (480,
     * bucket 500), its p95 the fifth (1900, bucket 2000); the MP4's p50 the second of three (700, bucket 750).
     */
    @Test
    void aTemplatesPercentilesComeFromItsVideosHistogramsSummed() {
        UUID template = UUID.randomUUID();
        UUID request = UUID.randomUUID();
        String campaign = "ffa-" + UUID.randomUUID();
        String realtime = sharedOf(new SharedVideo(vendor, SharedVideo.Source.realtime, request, null, null,
                template, 1, "greeting", List.of(video(null))));
        UUID task = UUID.randomUUID();
        SharedVideo rows = new SharedVideo(vendor, SharedVideo.Source.batch, null, task, campaign, template, 1,
                "greeting", List.of(video(1), video(2)));
        String second = sharedOf(rows);
        String third = rows.videos().get(1).shareId();

        PageView once = firstFrame(realtime, "stream", 120);
        // The same page view's second first frame counts nothing: one per page view.
        once.send("first-frame", "ms", 9000, "source", "stream").then().statusCode(202);
        firstFrame(realtime, "stream", 300);
        firstFrame(realtime, "stream", 480);
        firstFrame(second, "stream", 900);
        firstFrame(second, "stream", 1900);
        firstFrame(second, "video", 200);
        firstFrame(second, "video", 700);
        firstFrame(third, "video", 5000);

        JsonPath report = Patience.await().until(() -> range("/analytics/templates/" + template),
                answer -> answer != null && answer.getInt("totals.first-frame.count") >= 8);
        assertThat(report.getInt("totals.first-frame.count")).isEqualTo(8);
        assertThat(report.getInt("totals.first-frame.p50-ms")).isEqualTo(500);
        assertThat(report.getInt("totals.first-frame.p95-ms")).isEqualTo(8000);
        assertThat(report.getInt("totals.first-frame.stream.count")).isEqualTo(5);
        assertThat(report.getInt("totals.first-frame.stream.p50-ms")).isEqualTo(500);
        assertThat(report.getInt("totals.first-frame.stream.p95-ms")).isEqualTo(2000);
        assertThat(report.<String, Integer>getMap("totals.first-frame.stream.histogram")).containsExactly(
                Map.entry("250", 1), Map.entry("500", 2), Map.entry("750", 0), Map.entry("1000", 1),
                Map.entry("1500", 0), Map.entry("2000", 1), Map.entry("3000", 0), Map.entry("4000", 0),
                Map.entry("8000", 0), Map.entry("600000", 0));
        assertThat(report.getInt("totals.first-frame.video.count")).isEqualTo(3);
        assertThat(report.getInt("totals.first-frame.video.p50-ms")).isEqualTo(750);
        assertThat(report.getInt("totals.first-frame.video.p95-ms")).isEqualTo(8000);
        assertThat(report.<String, Integer>getMap("totals.first-frame.video.histogram"))
                .containsEntry("250", 1).containsEntry("750", 1).containsEntry("8000", 1).containsEntry("500", 0);
        // Today's day carries the same figures.
        String today = LocalDate.now(ZoneOffset.UTC).toString();
        assertThat(report.getInt("days.find { it.day == '" + today + "' }.first-frames")).isEqualTo(8);
        assertThat(report.getInt("days.find { it.day == '" + today + "' }.first-frame-p50-ms")).isEqualTo(500);
        assertThat(report.getInt("days.find { it.day == '" + today + "' }.first-frame-p95-ms")).isEqualTo(8000);

        // The campaign is its two rows: stream 900, 1900; MP4 200, 700, 5000.
        JsonPath ofCampaign = range("/analytics/campaigns/" + campaign);
        assertThat(ofCampaign.getInt("totals.first-frame.count")).isEqualTo(5);
        assertThat(ofCampaign.getInt("totals.first-frame.p50-ms")).isEqualTo(1000);
        assertThat(ofCampaign.getInt("totals.first-frame.stream.count")).isEqualTo(2);
        assertThat(ofCampaign.getInt("totals.first-frame.video.count")).isEqualTo(3);
        String csv = given().auth().oauth2(TestTokens.client(vendor))
                .get("/analytics/campaigns/" + campaign + "/videos.csv").then().statusCode(200).extract().asString();
        assertThat(csv.lines().findFirst().orElseThrow())
                .endsWith(",first-frames-stream,first-frames-video,first-frame-p50-ms,first-frame-p95-ms");
        assertThat(csv.lines().filter(line -> line.startsWith(second + ","))).singleElement().asString()
                .endsWith(",2,2,750,2000");
        assertThat(csv.lines().filter(line -> line.startsWith(third + ","))).singleElement().asString()
                .endsWith(",0,1,8000,8000");

        // The realtime request's own report: its three stream first frames (the 9000 ms repeat not among them).
        JsonPath video = analytics(vendor, request);
        assertThat(video.getInt("totals.first-frame.count")).isEqualTo(3);
        assertThat(video.getInt("totals.first-frame.stream.p95-ms")).isEqualTo(500);
        assertThat(video.getInt("totals.first-frame.video.count")).isZero();
        assertThat(video.getString("totals.first-frame.video.p50-ms")).isNull();
    }

    /**
     * Funnel order and what counts: a first frame before its page view's view, a bot's, one under Do Not Track and
     * one with a forged token count nothing; the page view that does everything right counts once.
     */
    @Test
    void aFirstFrameCountsOnlyAfterItsPageViewsViewAndOnlyWhenItsBeaconCounts() {
        UUID request = UUID.randomUUID();
        String share = shared(request);

        PageView early = open(share, Viewer.somebody());
        early.send("first-frame", "ms", 100, "source", "stream").then().statusCode(202);
        early.send("view").then().statusCode(202);
        PageView bot = open(share, new Viewer(Viewer.somebody().address(), "curl/8.5.0"));
        bot.send("view").then().statusCode(202);
        bot.send("first-frame", "ms", 100, "source", "stream").then().statusCode(202);
        PageView private_ = open(share, Viewer.somebody());
        private_.send("view").then().statusCode(202);
        given().header("User-Agent", BROWSER).header("DNT", "1")
                .header("X-Forwarded-For", private_.viewer().address()).contentType(ContentType.TEXT)
                .body("{\"type\":\"first-frame\",\"session\":\"" + private_.token().split("\\.")[0]
                        + "\",\"token\":\"" + private_.token() + "\",\"ms\":100,\"source\":\"stream\"}")
                .post("/v/" + share + "/events").then().statusCode(202);
        PageView forged = open(share, Viewer.somebody());
        forged.send("view").then().statusCode(202);
        forged.withToken("not-a-token").send("first-frame", "ms", 100, "source", "stream").then().statusCode(202);
        firstFrame(share, "video", 1200);

        JsonPath report = awaitReport(vendor, request, answer -> answer.getInt("totals.first-frame.count") >= 1
                && answer.getInt("totals.views") >= 4);
        assertThat(report.getInt("totals.views")).isEqualTo(4);
        assertThat(report.getInt("totals.first-frame.count")).isEqualTo(1);
        assertThat(report.getInt("totals.first-frame.stream.count")).isZero();
        assertThat(report.getInt("totals.first-frame.video.p50-ms")).isEqualTo(1500);
    }

    /** A page view of {@code share} by somebody new: its view, then its first frame. */
    private static PageView firstFrame(String share, String source, int ms) {
        PageView page = open(share, Viewer.somebody());
        page.send("view").then().statusCode(202);
        page.send("first-frame", "ms", ms, "source", source).then().statusCode(202);
        return page;
    }

    /** A video of a template, a batch row when {@code row} is set; its page plays. */
    private SharedVideo.Video video(Integer row) {
        String share = "Sh" + UUID.randomUUID().toString().replace("-", "");
        return new SharedVideo.Video(share, SharedVideo.State.ACTIVE, row, "u-" + row, "Hello", CTA, null,
                "media/" + vendor + "/" + share + "/video.mp4", null, null, 1280, 720, 10.0, Instant.now(),
                Instant.now().plus(1, ChronoUnit.DAYS));
    }

    /** The videos of {@code page} shared through Kafka, awaited until the first one's page answers; its share id. */
    private String sharedOf(SharedVideo page) {
        publish(page);
        String first = page.videos().get(0).shareId();
        String last = page.videos().get(page.videos().size() - 1).shareId();
        Patience.await().until(() -> given().get("/v/" + first).statusCode() == 200
                && given().get("/v/" + last).statusCode() == 200);
        return first;
    }

    /** A template's or campaign's report (null until it answers 200). */
    private JsonPath range(String path) {
        var answer = given().auth().oauth2(TestTokens.client(vendor)).get(path);
        return answer.statusCode() == 200 ? answer.jsonPath() : null;
    }
}
