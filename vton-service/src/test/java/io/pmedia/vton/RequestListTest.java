package io.pmedia.vton;

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
 * GET /vton/requests: a vendor's own try-on requests, newest first, a page at a time, filtered by status, use case and
 * creation time; never another vendor's.
 */
@QuarkusTest
class RequestListTest {

    private static ValidatableResponse list(UUID client, String query) {
        return given().header("Authorization", TestTokens.bearer(client)).urlEncodingEnabled(false)
                .get("/vton/requests" + query).then().log().ifValidationFails();
    }

    private static List<String> all(UUID client, String filters, int limit) {
        List<String> ids = new ArrayList<>();
        String cursor = null;
        do {
            JsonPath page = list(client, "?limit=" + limit + filters + (cursor == null ? "" : "&cursor=" + cursor))
                    .statusCode(200).extract().jsonPath();
            ids.addAll(page.getList("items.request-id"));
            cursor = page.getString("next-cursor");
        } while (cursor != null);
        return ids;
    }

    private static String finished(UUID client, String model) {
        return VtonApi.finished(client, VtonApi.body(client, model, "\"" + WebDoubles.base() + "/img/shirt.png\"", ""))
                .extract().path("request-id");
    }

    @Test
    void aVendorPagesThroughItsOwnTryOnsAndFiltersThem() {
        UUID vendor = UUID.randomUUID();
        UUID other = UUID.randomUUID();
        Instant before = Instant.now();
        String good = WebDoubles.base() + "/img/model.png";
        String first = finished(vendor, good);
        String failed = finished(vendor, WebDoubles.base() + "/img/missing.png");
        String last = finished(vendor, good);
        String others = finished(other, good);

        assertThat(all(vendor, "", 1)).containsExactly(last, failed, first);
        assertThat(all(vendor, "", 20)).containsExactly(last, failed, first);
        assertThat(all(vendor, "&status=SUCCESS", 1)).containsExactly(last, first);
        assertThat(all(vendor, "&status=failure", 5)).containsExactly(failed);
        assertThat(all(vendor, "&usecase-id=fitting-room", 5)).hasSize(3);
        assertThat(all(vendor, "&usecase-id=elsewhere", 5)).isEmpty();
        assertThat(all(vendor, "&from=" + before, 5)).hasSize(3);
        assertThat(all(vendor, "&to=" + before, 5)).isEmpty();
        assertThat(all(other, "", 5)).containsExactly(others);

        JsonPath page = list(vendor, "?limit=3").statusCode(200).extract().jsonPath();
        assertThat(page.getString("items[0].generated-output")).startsWith("http");
        assertThat(page.getString("items[0].model-image")).isEqualTo(good);
        assertThat(page.getList("items[0].garment-image")).containsExactly(WebDoubles.base() + "/img/shirt.png");
        assertThat(page.getString("items[0].category")).isEqualTo("auto");
        assertThat(page.getString("items[0].ended-at")).isNotNull();
        assertThat(page.getString("items[1].status")).isEqualTo("FAILURE");
        assertThat(page.getString("items[1].generated-output")).isNull();
        assertThat(page.getString("items[1].message")).contains("404");

        String cursor = list(vendor, "?limit=1").statusCode(200).extract().path("next-cursor");
        assertThat(list(other, "?cursor=" + cursor).statusCode(200).extract().jsonPath().getList("items.request-id"))
                .doesNotContain(first, failed);
        VtonApi.status(other, last).statusCode(404);
    }

    @Test
    void aWrongParameterIs400NamingIt() {
        UUID vendor = UUID.randomUUID();
        for (var wrong : Map.of("?limit=-5", "'limit'", "?cursor=abc", "'cursor'", "?status=DONE", "'status'",
                "?from=2026-11-27T08:00", "'from'").entrySet()) {
            assertThat(isError(list(vendor, wrong.getKey()), 400, "VALIDATION_ERROR").extract().jsonPath()
                    .getString("message")).contains(wrong.getValue());
        }
        assertThat(list(vendor, "").statusCode(200).extract().jsonPath().getList("items")).isEmpty();
    }
}
