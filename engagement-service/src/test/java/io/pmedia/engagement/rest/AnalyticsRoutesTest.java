package io.pmedia.engagement.rest;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.UUID;

import org.junit.jupiter.api.Test;

import io.pmedia.engagement.EngagementFixture;
import io.pmedia.events.SharedVideo;
import io.pmedia.testing.Patience;
import io.pmedia.testing.TestTokens;
import io.quarkus.test.junit.QuarkusTest;

/** The analytics API: a campaign's and a template's reports and the CSV export, the caller's own only. */
@QuarkusTest
class AnalyticsRoutesTest extends EngagementFixture {

    @Test
    void aCampaignsReportIsItsVendorsAndAnotherVendorsIsNotFound() {
        UUID request = UUID.randomUUID();
        UUID template = UUID.randomUUID();
        String share = publish(new SharedVideo(vendor, SharedVideo.Source.batch, null, UUID.randomUUID(),
                "spring-" + request, template, 1, "greeting", List.of(new SharedVideo.Video("Sh" + request.toString()
                        .replace("-", ""), SharedVideo.State.ACTIVE, 1, "u-1", "Title", null, null,
                        "batch/" + vendor + "/t/1/video.mp4", null, null, 1280, 720, 10.0, Instant.now(),
                        Instant.now().plus(1, ChronoUnit.DAYS)))))
                .videos().get(0).shareId();
        Patience.await().until(() -> given().get("/v/" + share).statusCode() == 200);
        open(share, Viewer.somebody()).send("view").then().statusCode(202);

        Patience.await().untilAsserted(() -> given().auth().oauth2(TestTokens.client(vendor))
                .get("/analytics/campaigns/spring-" + request).then().statusCode(200)
                .body("totals.views", equalTo(1)).body("totals.repeat-views", equalTo(0))
                .body("days.size()", equalTo(1)));
        given().auth().oauth2(TestTokens.client(vendor)).get("/analytics/templates/" + template).then()
                .statusCode(200).body("template-id", equalTo(template.toString()));
        String csv = given().auth().oauth2(TestTokens.client(vendor))
                .get("/analytics/campaigns/spring-" + request + "/videos.csv").then().statusCode(200)
                .contentType(containsString("text/csv")).extract().asString();
        assertThat(csv.lines().toList()).hasSize(2);
        assertThat(csv.lines().toList().get(1)).startsWith(share + ",").contains("/v/" + share);

        given().auth().oauth2(TestTokens.client(other)).get("/analytics/campaigns/spring-" + request).then()
                .statusCode(404).body("code", equalTo("NOT_FOUND"));
        given().auth().oauth2(TestTokens.client(other)).get("/analytics/templates/" + template).then()
                .statusCode(404);
        given().auth().oauth2(TestTokens.client(other)).get("/analytics/campaigns/spring-" + request + "/videos.csv")
                .then().statusCode(404);
        given().auth().oauth2(TestTokens.client(other)).get("/analytics/videos/" + UUID.randomUUID()).then()
                .statusCode(404);
        given().get("/analytics/campaigns/spring-" + request).then().statusCode(401);
    }
}
