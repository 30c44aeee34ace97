package io.pmedia.engagement.service;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.UUID;

import jakarta.inject.Inject;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import io.pmedia.engagement.EngagementFixture;
import io.pmedia.engagement.config.EngagementConfig;
import io.pmedia.events.SharedVideo;
import io.pmedia.events.Topics;
import io.pmedia.testing.KafkaEvents;
import io.pmedia.testing.Patience;
import io.quarkus.test.junit.QuarkusTest;

/**
 * The bound on claims of renders on view that run at once (docs/sharing.md, "Render on first view"), through the
 * real database and broker: a claim holds a database connection across the store's write of the link's opening, so a
 * burst of first opens on a slow store took the whole pool and pages answered 503; beyond the bound an open answers
 * without claiming, and the link's next open claims.
 */
@QuarkusTest
class RenderClaimsTest extends EngagementFixture {

    @Inject
    RenderClaims claims;

    @Inject
    EngagementConfig config;

    private KafkaEvents renders;

    @BeforeAll
    void listenTo() {
        renders = listen(Topics.ENGAGEMENT_RENDERS);
    }

    @Test
    void anOpenBeyondTheClaimsInFlightAnswersWithoutClaimingAndTheLinksNextOpenClaims() throws Exception {
        String share = onView(UUID.randomUUID(), 3, SharedVideo.Render.ON_VIEW);
        Patience.await().until(() -> claims.inFlight().availablePermits() == config.claimsInFlight());
        int places = claims.inFlight().availablePermits();
        claims.inFlight().acquire(places); // every place held, as by claims waiting on a slow store
        try {
            String page = given().header("Accept", "text/html").header("User-Agent", BROWSER).get("/v/" + share)
                    .then().statusCode(200).extract().asString();
            assertThat(page).contains("data-state=\"preparing\"").doesNotContain("data-opening");
            given().header("User-Agent", BROWSER).get("/v/" + share + "/stream.m3u8").then().statusCode(200);
            given().header("User-Agent", BROWSER).get("/v/" + share + "/state").then().statusCode(200);
            assertThat(column(share, "render_requested_at")).as("no claim while every place is held").isNull();
        } finally {
            claims.inFlight().release(places);
        }
        // the player's next read of the stream claims, once
        given().header("User-Agent", BROWSER).get("/v/" + share + "/stream.m3u8").then().statusCode(200);
        assertThat(column(share, "render_requested_at")).isNotNull();
        assertThat(column(share, "render_attempts")).isEqualTo("1");
        Patience.await().untilAsserted(() -> assertThat(renders.withKey(share)).hasSize(1));
        Patience.await().untilAsserted(() -> assertThat(claims.inFlight().availablePermits())
                .as("every place given back").isEqualTo(config.claimsInFlight()));
    }
}
