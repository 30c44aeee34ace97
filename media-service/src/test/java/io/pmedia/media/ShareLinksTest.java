package io.pmedia.media;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.util.Map;
import java.util.UUID;

import jakarta.inject.Inject;

import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import io.pmedia.storage.ObjectStore;
import io.pmedia.testing.KafkaEvents;
import io.pmedia.testing.Patience;
import io.pmedia.testing.PostgresTestResource.TestDatabase;
import io.pmedia.testing.TestTokens;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;

/**
 * Share links of realtime requests (issue 21) over the real database, broker, store and workers: minted when a
 * request ends SUCCESS (in its status and its events, with the page its fields fill), revoked by its owner only, and
 * expired by the retention sweep, which deletes the video's objects.
 */
@QuarkusTest
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ShareLinksTest {

    static final String SHARED = """
            {"use-case-id": "shared-tiny", "name": "Your offer",
             "canvas": {"width": 320, "height": 180, "fps": 25, "background": "#102030"},
             "fields": [{"name": "name", "required": true, "max-length": 40}, {"name": "code", "default": "WELCOME"}],
             "segments": [{"id": "hello", "duration": 1.0, "layers": [
                 {"id": "headline", "type": "text", "text": "Hello {{name}}", "size": 24}]}],
             "cta": {"label": "Shop, {{name}}", "url": "https://shop.example/o?code={{code}}&n={{name}}"},
             "branding": {"color": "#2a9d8f"},
             "retention-days": 30}""";

    @ConfigProperty(name = "kafka.bootstrap.servers")
    String bootstrap;

    @Inject
    ObjectStore store;

    private KafkaEvents statusEvents;

    @BeforeAll
    void setUp() {
        statusEvents = KafkaEvents.of(bootstrap, "pmedia.media.status");
    }

    /** Registration is idempotent; RestAssured is only pointed at the application per test. */
    @BeforeEach
    void template() {
        MediaApi.registerTemplate(SHARED).statusCode(org.hamcrest.Matchers.oneOf(200, 201));
    }

    @AfterAll
    void tearDown() {
        statusEvents.close();
    }

    @Test
    void aVideoThatIsReadyHasADurableLinkAndItsPage() {
        UUID client = UUID.randomUUID();
        String id = MediaApi.request(client, MediaApi.body("share-1", "shared-tiny",
                Map.of("personalization_fields", Map.of("name", "Ada Lovelace")))).statusCode(200).extract()
                .path("service-request-id");
        JsonPath status = MediaApi.awaitFinal(client, id);

        assertThat(status.getString("status")).isEqualTo("SUCCESS");
        String shareUrl = status.getString("share-url");
        assertThat(shareUrl).matches("http://127\\.0\\.0\\.1:8080/v/[A-Za-z0-9_-]{24}");
        String shareId = shareUrl.substring(shareUrl.lastIndexOf('/') + 1);

        var shared = Patience.await().until(() -> statusEvents.withKey(id).stream()
                .filter(event -> "io.pmedia.video.shared".equals(event.envelope().path("type").asText())).toList(),
                events -> !events.isEmpty()).get(0).data();
        var video = shared.path("videos").get(0);
        assertThat(video.path("share-id").asText()).isEqualTo(shareId);
        assertThat(video.path("state").asText()).isEqualTo("ACTIVE");
        assertThat(video.path("title").asText()).isEqualTo("Your offer");
        assertThat(video.path("cta").path("label").asText()).isEqualTo("Shop, Ada Lovelace");
        assertThat(video.path("cta").path("url").asText())
                .isEqualTo("https://shop.example/o?code=WELCOME&n=Ada%20Lovelace");
        assertThat(video.path("branding").path("color").asText()).isEqualTo("#2a9d8f");
        assertThat(video.path("video-key").asText()).startsWith("media/" + client + "/" + id + "/");
        assertThat(statusEvents.withKey(id)).anySatisfy(event -> assertThat(event.data().path("share-id").asText())
                .isEqualTo(shareId));
    }

    @Test
    void onlyTheOwnerRevokesALinkAndItStaysRevoked() {
        UUID client = UUID.randomUUID();
        MediaApi.rendered(client, MediaApi.body("share-2", "shared-tiny",
                Map.of("personalization_fields", Map.of("name", "Grace"))));
        String id = lastRequestId(client, "share-2");

        given().header("Authorization", TestTokens.bearer(UUID.randomUUID())).delete("/media/" + id + "/share")
                .then().statusCode(404);
        given().header("Authorization", TestTokens.bearer(client)).delete("/media/" + id + "/share").then()
                .statusCode(204);
        given().header("Authorization", TestTokens.bearer(client)).delete("/media/" + id + "/share").then()
                .statusCode(204);
        given().header("Authorization", TestTokens.bearer(client)).delete("/media/not-a-request/share").then()
                .statusCode(404);

        assertThat(MediaApi.status(client, id).statusCode(200).extract().jsonPath().getString("share-url")).isNull();
        Patience.await().until(() -> statusEvents.withKey(id).stream()
                .anyMatch(event -> "REVOKED".equals(event.data().path("videos").path(0).path("state").asText())));

        // The request's timeline (GET /media/requests/{id}/events): accepted, its job, the end, its link and revocation.
        var timeline = given().header("Authorization", TestTokens.bearer(client))
                .get("/media/requests/" + id + "/events").then().statusCode(200).extract().jsonPath();
        assertThat(timeline.getString("service-request-id")).isEqualTo(id);
        assertThat(timeline.getList("items.kind")).containsExactly("status", "render-job", "share", "status",
                "share");
        assertThat(timeline.getList("items.status")).containsExactly("PROCESSING", null, "ACTIVE", "SUCCESS",
                "REVOKED");
        assertThat(timeline.getString("items[4].message")).isEqualTo("share link revoked by its owner");
        assertThat(timeline.getString("items[0].at")).matches("\\d{4}-\\d\\d-\\d\\dT[0-9:.]+Z");
        // Another vendor's request reads as missing, like its status.
        given().header("Authorization", TestTokens.bearer(UUID.randomUUID())).get("/media/requests/" + id + "/events")
                .then().statusCode(404).body("code", org.hamcrest.Matchers.equalTo("NOT_FOUND"));
        given().header("Authorization", TestTokens.bearer(client)).get("/media/requests/nope/events").then()
                .statusCode(404);
    }

    @Test
    void aVideoPastItsRetentionLosesItsObjectsAndItsLink() throws Exception {
        UUID client = UUID.randomUUID();
        MediaApi.rendered(client, MediaApi.body("share-3", "shared-tiny",
                Map.of("personalization_fields", Map.of("name", "Lin"))));
        String id = lastRequestId(client, "share-3");
        String prefix = "media/" + client + "/" + id + "/";
        assertThat(store.list(prefix)).isNotEmpty();

        try (Connection db = TestDatabase.fromEnvironment().connect("pmedia_media_test");
                PreparedStatement past = db.prepareStatement(
                        "UPDATE media_request SET expires_at = now() - interval '1 minute' WHERE id = ?")) {
            past.setObject(1, UUID.fromString(id));
            assertThat(past.executeUpdate()).isEqualTo(1);
        }

        Patience.await().until(() -> store.list(prefix).isEmpty());
        Patience.await().until(() -> statusEvents.withKey(id).stream()
                .anyMatch(event -> "EXPIRED".equals(event.data().path("videos").path(0).path("state").asText())));
        assertThat(MediaApi.status(client, id).statusCode(200).extract().jsonPath().getString("share-url")).isNull();
        given().header("Authorization", TestTokens.bearer(client)).delete("/media/" + id + "/share").then()
                .statusCode(404);
    }

    private String lastRequestId(UUID client, String clientRequestId) {
        return MediaApi.request(client, MediaApi.body(clientRequestId, "shared-tiny", Map.of("personalization_fields",
                Map.of("name", clientRequestId.equals("share-2") ? "Grace" : "Lin")))).statusCode(200).extract()
                .path("service-request-id");
    }
}
