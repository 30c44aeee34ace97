package io.pmedia.campaign;

import static io.pmedia.campaign.ScheduleLifecycleTest.hoursFromNow;
import static io.pmedia.campaign.ScheduleLifecycleTest.read;
import static io.pmedia.campaign.ScheduleLifecycleTest.schedule;
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
 * GET /campaigns: a vendor's own campaigns with their windows and status, newest first, a page at a time, filtered by
 * status and creation time; never another vendor's, though two vendors may name a campaign alike.
 */
@QuarkusTest
class CampaignListTest {

    private static ValidatableResponse list(UUID client, String query) {
        return given().header("Authorization", TestTokens.bearer(client)).urlEncodingEnabled(false)
                .get("/campaigns" + query).then().log().ifValidationFails();
    }

    private static List<String> all(UUID client, String filters, int limit) {
        List<String> ids = new ArrayList<>();
        String cursor = null;
        do {
            JsonPath page = list(client, "?limit=" + limit + filters + (cursor == null ? "" : "&cursor=" + cursor))
                    .statusCode(200).extract().jsonPath();
            ids.addAll(page.getList("items.campaign_id"));
            cursor = page.getString("next-cursor");
        } while (cursor != null);
        return ids;
    }

    @Test
    void aVendorPagesThroughItsOwnCampaignsAndFiltersThem() {
        UUID vendor = UUID.randomUUID();
        UUID other = UUID.randomUUID();
        Instant before = Instant.now();
        schedule(vendor, "spring", hoursFromNow(1), hoursFromNow(2)).statusCode(200);
        schedule(vendor, "summer", hoursFromNow(-1), hoursFromNow(3)).statusCode(200);
        schedule(vendor, "autumn", hoursFromNow(5), hoursFromNow(6)).statusCode(200);
        schedule(other, "spring", hoursFromNow(1), hoursFromNow(2)).statusCode(200);
        // rescheduling keeps a campaign's place: it was made first
        schedule(vendor, "spring", hoursFromNow(2), hoursFromNow(4)).statusCode(200);

        assertThat(all(vendor, "", 1)).containsExactly("autumn", "summer", "spring");
        assertThat(all(vendor, "", 100)).containsExactly("autumn", "summer", "spring");
        assertThat(all(vendor, "&status=SCHEDULED", 1)).containsExactly("autumn", "spring");
        assertThat(all(vendor, "&status=active", 5)).containsExactly("summer");
        assertThat(all(vendor, "&status=ENDED", 5)).isEmpty();
        assertThat(all(vendor, "&from=" + before, 5)).hasSize(3);
        assertThat(all(vendor, "&to=" + before, 5)).isEmpty();
        assertThat(all(other, "", 5)).containsExactly("spring");

        JsonPath page = list(vendor, "?status=SCHEDULED&limit=2").statusCode(200).extract().jsonPath();
        assertThat(page.getString("items[1].campaign_id")).isEqualTo("spring");
        assertThat(page.getString("items[1].start_time")).isEqualTo(hoursFromNow(2).toString());
        assertThat(page.getString("items[1].end_time")).isEqualTo(hoursFromNow(4).toString());
        assertThat(page.getString("items[1].created_at")).isNotNull();
        assertThat(page.getString("items[1].start_time"))
                .isEqualTo(read(vendor, "spring").statusCode(200).extract().path("start_time"));

        String cursor = list(vendor, "?limit=1").statusCode(200).extract().path("next-cursor");
        assertThat(list(other, "?cursor=" + cursor).statusCode(200).extract().jsonPath().getList("items.campaign_id"))
                .doesNotContain("summer", "autumn");
        read(other, "autumn").statusCode(404);
    }

    @Test
    void aWrongParameterIs400NamingIt() {
        UUID vendor = UUID.randomUUID();
        for (var wrong : Map.of("?limit=101", "'limit'", "?cursor=abc", "'cursor'", "?status=LIVE", "'status'",
                "?to=tomorrow", "'to'").entrySet()) {
            assertThat(isError(list(vendor, wrong.getKey()), 400, "VALIDATION_ERROR").extract().jsonPath()
                    .getString("message")).contains(wrong.getValue());
        }
        assertThat(list(vendor, "").statusCode(200).extract().jsonPath().getList("items")).isEmpty();
    }
}
