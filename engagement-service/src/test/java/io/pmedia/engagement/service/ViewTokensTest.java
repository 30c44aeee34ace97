package io.pmedia.engagement.service;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.UUID;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import io.pmedia.engagement.EngagementFixture;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;

/**
 * View tokens: a beacon counts only with the token its page was served with (signed, bound to the share id and the
 * page view, short-lived) and only from the page itself; every other beacon is answered 202, as a recorded one, and
 * counts nothing.
 */
@QuarkusTest
class ViewTokensTest extends EngagementFixture {

    @Inject
    ViewTokens tokens;

    @Test
    void aBeaconWithoutAValidTokenIsAnswered202AndCountsNothing() {
        UUID request = UUID.randomUUID();
        String share = shared(request);
        String neighbour = shared(UUID.randomUUID());
        Viewer viewer = Viewer.somebody();
        PageView page = open(share, viewer);
        String token = page.token();
        String[] parts = token.split("\\.");
        String flipped = parts[0] + "." + parts[1] + "." + (parts[2].charAt(0) == 'A' ? 'B' : 'A')
                + parts[2].substring(1);
        String later = parts[0] + "." + Long.toString(Long.parseLong(parts[1], 36) + 1, 36) + "." + parts[2];

        for (String forged : new String[]{"", "not-a-token", flipped, later, open(neighbour, viewer).token()}) {
            for (int i = 0; i < 3; i++) {
                page.withToken(forged).send("view").then().statusCode(202);
            }
        }
        beacon(share, viewer, Map.of("type", "view", "session", "no-token-at-all")).then().statusCode(202);
        page.send("view").then().statusCode(202);

        JsonPath report = awaitReport(vendor, request, answer -> answer.getInt("totals.views") >= 1);
        assertThat(report.getInt("totals.views")).isEqualTo(1);
        assertThat(report.getInt("totals.repeat-views")).isZero();
    }

    @Test
    void aTokenIsWorthOnePageOfOneShareForItsLifetime() {
        String share = shared(UUID.randomUUID());
        String token = tokens.issue(share).await().atMost(WAIT);
        Instant now = Instant.now();

        assertThat(tokens.check(share, token, now).await().atMost(WAIT).isValid()).isTrue();
        assertThat(tokens.check(share, token, now).await().atMost(WAIT).pageView()).isEqualTo(token.split("\\.")[0]);
        assertThat(tokens.check(share, token, now.plus(Duration.ofHours(4))).await().atMost(WAIT).refusal())
                .isEqualTo("expired");
        assertThat(tokens.check(share, token, now.minus(Duration.ofMinutes(5))).await().atMost(WAIT).refusal())
                .as("issued in the future").isEqualTo("malformed");
        assertThat(tokens.check("Sh" + UUID.randomUUID().toString().replace("-", ""), token, now)
                .await().atMost(WAIT).refusal()).isEqualTo("signature");
        assertThat(tokens.check(share, null, now).await().atMost(WAIT).refusal()).isEqualTo("missing");
    }

    @Test
    void aBeaconFromAnotherSiteCountsNothing() {
        UUID request = UUID.randomUUID();
        String share = shared(request);
        PageView elsewhere = open(share, Viewer.somebody());
        PageView here = open(share, Viewer.somebody());

        for (String site : new String[]{"cross-site", "same-site"}) {
            given().header("Sec-Fetch-Site", site).header("User-Agent", BROWSER)
                    .header("X-Forwarded-For", elsewhere.viewer().address())
                    .contentType("text/plain").body("{\"type\":\"view\",\"session\":\"elsewhere1\",\"token\":\""
                            + elsewhere.token() + "\"}")
                    .post("/v/" + share + "/events").then().statusCode(202);
        }
        given().header("Sec-Fetch-Site", "same-origin").header("User-Agent", BROWSER)
                .header("X-Forwarded-For", here.viewer().address())
                .contentType("text/plain").body("{\"type\":\"view\",\"session\":\"here12345\",\"token\":\""
                        + here.token() + "\"}")
                .post("/v/" + share + "/events").then().statusCode(202);

        JsonPath report = awaitReport(vendor, request, answer -> answer.getInt("totals.views") >= 1);
        assertThat(report.getInt("totals.views")).isEqualTo(1);
    }
}
