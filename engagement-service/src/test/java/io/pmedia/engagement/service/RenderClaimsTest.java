package io.pmedia.engagement.service;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.UUID;

import jakarta.inject.Inject;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.pmedia.engagement.EngagementFixture;
import io.pmedia.engagement.HeldStore;
import io.pmedia.engagement.config.EngagementConfig;
import io.pmedia.events.SharedVideo;
import io.pmedia.events.Topics;
import io.pmedia.storage.VendorNamespace;
import io.pmedia.testing.KafkaEvents;
import io.pmedia.testing.Patience;
import io.quarkus.test.junit.QuarkusTest;

/**
 * The bound on claims of renders on view that run at once (docs/sharing.md, "Render on first view"), through the
 * real database and broker: a claim holds a database connection across the store's write of the link's opening, so a
 * burst of first opens on a slow store took the whole pool and pages answered 503; beyond the bound an open answers
 * without claiming, and the link's next open claims. And the store's steps of a claim (the read of the template's
 * opening, the write of the link's playlist) are given up after their budget: the page answers without the opening,
 * the claim is made all the same, and the miss is counted.
 */
@QuarkusTest
class RenderClaimsTest extends EngagementFixture {

    @Inject
    RenderClaims claims;

    @Inject
    EngagementConfig config;

    @Inject
    HeldStore store;

    @Inject
    MeterRegistry registry;

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

    @Test
    void aReadOfTheOpeningSlowerThanItsBudgetLeavesThePageWithoutItAndTheClaimIsMadeAllTheSame() throws Exception {
        String share = onView(UUID.randomUUID(), 4, kept(UUID.randomUUID()));
        double late = late("read");
        try (AutoCloseable held = store.hold(key -> key.endsWith("/opening.m3u8"))) {
            String page = given().header("Accept", "text/html").header("User-Agent", BROWSER).get("/v/" + share)
                    .then().statusCode(200).extract().asString();
            assertThat(page).contains("data-state=\"preparing\"").doesNotContain("data-opening");
            assertThat(late("read") - late).as("the late read counted").isEqualTo(1);
        }
        assertThat(column(share, "render_requested_at")).as("claimed all the same").isNotNull();
        Patience.await().untilAsserted(() -> assertThat(renders.withKey(share)).hasSize(1));
    }

    @Test
    void aWriteOfTheLinksPlaylistSlowerThanItsBudgetLeavesThePageWithoutTheOpeningAndTheClaimIsMade()
            throws Exception {
        UUID task = UUID.randomUUID();
        String share = onView(task, 5, kept(UUID.randomUUID()));
        double late = late("write");
        try (AutoCloseable held = store.hold(key -> key.equals(streamKey(task, 5)))) {
            String page = given().header("Accept", "text/html").header("User-Agent", BROWSER).get("/v/" + share)
                    .then().statusCode(200).extract().asString();
            assertThat(page).contains("data-state=\"preparing\"").doesNotContain("data-opening");
            assertThat(late("write") - late).as("the late write counted").isEqualTo(1);
        }
        assertThat(column(share, "render_requested_at")).as("claimed all the same").isNotNull();
        Patience.await().untilAsserted(() -> assertThat(renders.withKey(share)).hasSize(1));
    }

    /** {@code template}, version 1 of it having an opening in the store (its links' pages would play it at once). */
    private UUID kept(UUID template) {
        store.put(VendorNamespace.templateOpening(vendor, template, 1), ("#EXTM3U\n#EXTINF:1.000000,\ncache/" + vendor
                + "/" + template + "/1/opening-0a1b/stream-00000.ts\n").getBytes(StandardCharsets.UTF_8),
                StreamOpenings.PLAYLIST_TYPE);
        return template;
    }

    /** How many of the claims' store steps {@code step} were given up after their budget, so far. */
    private double late(String step) {
        Counter counter = registry.find("pmedia.engagement.render.openings.late").tag("step", step).counter();
        return counter == null ? 0 : counter.count();
    }
}
