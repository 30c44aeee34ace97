package io.pmedia.media;

import static io.pmedia.media.MediaApi.body;
import static io.pmedia.media.MediaApi.request;
import static io.pmedia.testing.ErrorAssertions.isError;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.junit.jupiter.api.Test;

import io.pmedia.testing.TestTokens;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import io.restassured.response.ValidatableResponse;

/**
 * GET /media/requests: a vendor's own requests, newest first in a stable order, a page at a time through an opaque
 * cursor, filtered by status, use case and creation time; never another vendor's.
 */
@QuarkusTest
class RequestListTest {

    private static ValidatableResponse list(UUID client, String query) {
        return given().header("Authorization", TestTokens.bearer(client)).urlEncodingEnabled(false)
                .get("/media/requests" + query).then().log().ifValidationFails();
    }

    /** Every page of a query, following next-cursor; the service-request-ids in the order shown. */
    private static List<String> all(UUID client, String filters, int limit) {
        List<String> ids = new ArrayList<>();
        String cursor = null;
        do {
            JsonPath page = list(client, "?limit=" + limit + filters + (cursor == null ? "" : "&cursor=" + cursor))
                    .statusCode(200).extract().jsonPath();
            assertThat(page.getList("items")).hasSizeLessThanOrEqualTo(limit);
            ids.addAll(page.getList("items.service-request-id"));
            cursor = page.getString("next-cursor");
        } while (cursor != null);
        return ids;
    }

    private static String accepted(UUID client, String clientRequestId, String useCase) {
        return request(client, body(clientRequestId, useCase, Map.of("personalization_fields", Map.of("name", "Ada"))))
                .statusCode(200).extract().path("service-request-id");
    }

    @Test
    void aVendorPagesThroughItsOwnRequestsNewestFirstAndFiltersThem() {
        MediaApi.registerTemplate(MediaApi.TINY);
        UUID vendor = UUID.randomUUID();
        UUID other = UUID.randomUUID();
        Instant before = Instant.now();
        // three requests that fail at acceptance (no such template) around two that render
        List<String> made = new ArrayList<>();
        made.add(accepted(vendor, "a", "no-such-template"));
        made.add(accepted(vendor, "b", "tiny"));
        made.add(accepted(vendor, "c", "no-such-template"));
        made.add(accepted(vendor, "d", "tiny"));
        made.add(accepted(vendor, "e", "no-such-template"));
        String othersRequest = accepted(other, "a", "no-such-template");
        MediaApi.awaitFinal(vendor, made.get(1));
        MediaApi.awaitFinal(vendor, made.get(3));

        List<String> newestFirst = List.of(made.get(4), made.get(3), made.get(2), made.get(1), made.get(0));
        assertThat(all(vendor, "", 2)).containsExactlyElementsOf(newestFirst);
        assertThat(all(vendor, "", 100)).containsExactlyElementsOf(newestFirst);
        assertThat(all(vendor, "&status=FAILURE", 2)).containsExactly(made.get(4), made.get(2), made.get(0));
        assertThat(all(vendor, "&status=success", 1)).containsExactly(made.get(3), made.get(1));
        assertThat(all(vendor, "&use-case-id=tiny", 20)).containsExactly(made.get(3), made.get(1));
        assertThat(all(vendor, "&from=" + before, 20)).hasSize(5);
        assertThat(all(vendor, "&to=" + before, 20)).isEmpty();
        assertThat(all(other, "", 20)).containsExactly(othersRequest);

        JsonPath rendered = list(vendor, "?use-case-id=tiny&limit=1").statusCode(200).extract().jsonPath();
        assertThat(rendered.getString("items[0].status")).isEqualTo("SUCCESS");
        assertThat(rendered.getString("items[0].client-request-id")).isEqualTo("d");
        assertThat(rendered.getString("items[0].video-url")).startsWith("http");
        assertThat(rendered.getString("items[0].image-url")).startsWith("http");
        assertThat(rendered.getString("items[0].template-id")).isNotNull();
        assertThat(rendered.getInt("items[0].template-version")).isPositive();
        assertThat(rendered.getDouble("items[0].render-seconds")).isPositive();
        assertThat(rendered.getDouble("items[0].duration-seconds")).isEqualTo(2.0);
        assertThat(Instant.parse(rendered.getString("items[0].ended-at")))
                .isAfter(Instant.parse(rendered.getString("items[0].created-at")));
        JsonPath failed = list(vendor, "?status=FAILURE&limit=1").statusCode(200).extract().jsonPath();
        assertThat(failed.getString("items[0].message")).contains("no-such-template");
        assertThat(failed.getString("items[0].video-url")).isNull();
        assertThat(failed.getString("items[0].render-seconds")).isNull();
        assertThat(failed.getMap("items[0]")).containsKey("ended-at");

        // the other vendor following the vendor's cursor still sees only its own requests
        String cursor = list(vendor, "?limit=1").statusCode(200).extract().path("next-cursor");
        assertThat(list(other, "?cursor=" + cursor).statusCode(200).extract().jsonPath()
                .getList("items.service-request-id")).doesNotContainAnyElementsOf(made);
        MediaApi.status(other, made.get(1)).statusCode(404);
    }

    @Test
    void aWrongParameterIs400NamingIt() {
        UUID vendor = UUID.randomUUID();
        for (var wrong : Map.of("?limit=0", "'limit'", "?limit=101", "'limit'", "?limit=x", "'limit'",
                "?cursor=nonsense", "'cursor'", "?status=DONE", "'status'", "?from=yesterday", "'from'",
                "?to=2026-13-01", "'to'", "?from=2026-11-02&to=2026-11-01", "'from'").entrySet()) {
            assertThat(isError(list(vendor, wrong.getKey()), 400, "VALIDATION_ERROR").extract().jsonPath()
                    .getString("message")).as(wrong.getKey()).contains(wrong.getValue());
        }
        // a cursor of a list keyed by something other than a uuid was never this list's
        String foreign = java.util.Base64.getUrlEncoder().withoutPadding()
                .encodeToString("1764230400000000:my-campaign".getBytes());
        isError(list(vendor, "?cursor=" + foreign), 400, "VALIDATION_ERROR");
        JsonPath empty = list(vendor, "").statusCode(200).extract().jsonPath();
        assertThat(empty.getList("items")).isEmpty();
        assertThat(empty.getMap("")).containsEntry("next-cursor", null);
    }
}
