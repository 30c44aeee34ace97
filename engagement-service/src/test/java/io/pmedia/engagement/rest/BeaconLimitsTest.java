package io.pmedia.engagement.rest;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.UUID;

import org.junit.jupiter.api.Test;

import io.pmedia.engagement.EngagementFixture;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;

/**
 * The beacon route's budget: a flood from one address on one page meets 429 with the error body and Retry-After,
 * and leaves other pages (and other addresses) alone; what was accepted before the limit still counts once.
 */
@QuarkusTest
class BeaconLimitsTest extends EngagementFixture {

    @Test
    void aFloodOfBeaconsFromOneAddressIsLimitedAndLeavesOtherPagesAlone() {
        UUID request = UUID.randomUUID();
        String flooded = shared(request);
        String quiet = shared(UUID.randomUUID());
        Viewer flooder = Viewer.somebody();
        PageView view = open(flooded, flooder);

        int limited = 0;
        for (int i = 0; i < 60; i++) {
            var answer = view.send("view");
            assertThat(answer.statusCode()).isIn(202, 429);
            if (answer.statusCode() == 429) {
                limited++;
                assertThat(answer.header("Retry-After")).isNotBlank();
                assertThat(answer.jsonPath().getString("code")).isEqualTo("RATE_LIMITED");
            }
        }

        assertThat(limited).as("beacons refused over the budget").isGreaterThan(0);
        open(quiet, flooder).send("view").then().statusCode(202);
        open(flooded, Viewer.somebody()).send("view").then().statusCode(202);
        given().get("/v/" + quiet).then().statusCode(200);
        // Sixty view beacons of one page view, and another viewer's: two views.
        JsonPath report = awaitReport(vendor, request, answer -> answer.getInt("totals.views") >= 2);
        assertThat(report.getInt("totals.views")).isEqualTo(2);
    }
}
