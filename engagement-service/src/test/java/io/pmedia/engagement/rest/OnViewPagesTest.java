package io.pmedia.engagement.rest;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.endsWith;
import static org.hamcrest.Matchers.equalTo;

import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.stream.IntStream;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import io.pmedia.engagement.EngagementFixture;
import io.pmedia.events.SharedVideo;
import io.pmedia.events.Topics;
import io.pmedia.testing.KafkaEvents;
import io.pmedia.testing.Patience;
import io.quarkus.test.junit.QuarkusTest;

/**
 * Share links rendered on first view (docs/sharing.md), through the real broker and database: the first open of a
 * link without a video asks for its render once, however many opens come at the same moment; the page says "being
 * prepared", its media answer without breaking an email, and a failed render shows the error and a retry.
 */
@QuarkusTest
class OnViewPagesTest extends EngagementFixture {

    private KafkaEvents renders;

    @BeforeAll
    void listenTo() {
        renders = listen(Topics.ENGAGEMENT_RENDERS);
    }

    @Test
    void fiftyOpensAtOnceAskForOneRenderAndThePagePlaysWhenTheVideoComes() throws Exception {
        UUID task = UUID.randomUUID();
        String share = onView(task, 7, SharedVideo.Render.ON_VIEW);

        ExecutorService pool = Executors.newFixedThreadPool(16);
        try {
            List<CompletableFuture<Integer>> opens = IntStream.range(0, 50)
                    .mapToObj(i -> CompletableFuture.supplyAsync(() -> given().header("Accept", "text/html")
                            .header("User-Agent", BROWSER)
                            .get("/v/" + share + (i % 5 == 0 ? "/video.mp4" : "")).statusCode(), pool))
                    .toList();
            assertThat(opens.stream().map(CompletableFuture::join)).containsOnly(200);
        } finally {
            pool.shutdown();
        }
        Patience.await().untilAsserted(() -> assertThat(renders.withKey(share)).isNotEmpty());
        assertThat(attempts(share)).as("fifty opens, one claim").isEqualTo("1");
        assertThat(renders.withKey(share)).hasSize(1);
        var request = renders.withKey(share).get(0).data();
        assertThat(request.path("source").asText()).isEqualTo("batch");
        assertThat(request.path("task-id").asText()).isEqualTo(task.toString());
        assertThat(request.path("row").asInt()).isEqualTo(7);
        assertThat(request.path("attempt").asInt()).isEqualTo(1);
        assertThat(request.path("client-id").asText()).isEqualTo(vendor.toString());

        String page = given().header("Accept", "text/html").get("/v/" + share).then().statusCode(200).extract()
                .asString();
        assertThat(page).contains("data-state=\"preparing\"").contains("This video is being prepared")
                .contains("hidden>Try again");
        given().get("/v/" + share + "/state").then().statusCode(200).header("Cache-Control", "no-store")
                .body("state", equalTo("preparing"));
        given().get("/v/" + share + "/video.mp4").then().statusCode(200).header("Cache-Control", "no-store")
                .body("state", equalTo("preparing"));
        // An email's images: a bounded wait, then the "being prepared" picture, never cached, never an error.
        for (String image : List.of("poster.jpg", "email.gif")) {
            given().redirects().follow(false).get("/v/" + share + "/" + image).then().statusCode(302)
                    .header("Location", endsWith("/v/static/preparing.jpg")).header("Cache-Control", "no-store");
        }
        given().get("/v/static/preparing.jpg").then().statusCode(200).contentType(containsString("image/jpeg"));

        publish(rowPage(task, share, 7, "batch/" + vendor + "/" + task + "/7/video.mp4", null));
        Patience.await().untilAsserted(() -> given().get("/v/" + share + "/state").then()
                .body("state", equalTo("ready")));
        Patience.await().untilAsserted(() -> given().redirects().follow(false).get("/v/" + share + "/video.mp4")
                .then().statusCode(302).header("Location", containsString("X-Amz-Signature")));
        assertThat(renders.withKey(share)).as("a rendered video asks for nothing").hasSize(1);
    }

    @Test
    void aFailedRenderShowsTheErrorAndARetryAsksAgainWhileAttemptsLast() throws Exception {
        UUID task = UUID.randomUUID();
        String share = onView(task, 3, SharedVideo.Render.FAILED);

        String page = given().header("Accept", "text/html").get("/v/" + share).then().statusCode(200).extract()
                .asString();
        assertThat(page).contains("data-state=\"failed\"").contains("could not be prepared")
                .contains("data-retry>Try again");
        assertThat(attempts(share)).as("opening a failed link asks for nothing").isEqualTo("0");

        for (int claim = 1; claim <= 3; claim++) {
            given().post("/v/" + share + "/render").then().statusCode(200).body("state", equalTo("preparing"));
            // The page polls at once: it sees the retry, not the failure its link was cached with a moment ago.
            given().get("/v/" + share + "/state").then().statusCode(200).body("state", equalTo("preparing"));
            int claims = claim;
            Patience.await().untilAsserted(() -> assertThat(renders.withKey(share)).hasSize(claims));
            assertThat(renders.withKey(share).get(claim - 1).data().path("attempt").asInt()).isEqualTo(claim);
            // Asked again while the render runs: nothing more.
            given().post("/v/" + share + "/render").then().statusCode(200).body("state", equalTo("preparing"));
            publish(rowPage(task, share, 3, null, SharedVideo.Render.FAILED));
            Patience.await().untilAsserted(() -> given().get("/v/" + share + "/state").then()
                    .body("state", equalTo("failed")));
        }
        given().post("/v/" + share + "/render").then().statusCode(200).body("state", equalTo("failed"));
        assertThat(renders.withKey(share)).as("three claims at most").hasSize(3);
        assertThat(attempts(share)).isEqualTo("3");

        given().post("/v/" + "Sh" + UUID.randomUUID().toString().replace("-", "") + "/render").then()
                .statusCode(404);
    }

    private static String attempts(String share) {
        return column(share, "render_attempts");
    }
}
