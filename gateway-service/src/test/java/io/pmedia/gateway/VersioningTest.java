package io.pmedia.gateway;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Map;

import org.junit.jupiter.api.Test;

import io.pmedia.gateway.Vendors.Vendor;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.response.Response;

/** The earlier generation announces its deprecation on every answer; the current one does not. */
@QuarkusTest
class VersioningTest {

    static void announces(Response response, String successor) {
        assertThat(response.header("Deprecation")).matches("@\\d+");
        assertThat(ZonedDateTime.parse(response.header("Sunset"), DateTimeFormatter.RFC_1123_DATE_TIME).toInstant())
                .isAfter(java.time.Instant.ofEpochSecond(Long.parseLong(response.header("Deprecation").substring(1))));
        assertThat(response.header("Link")).isEqualTo("<" + successor + ">; rel=\"successor-version\"");
    }

    @Test
    void getTokenAnnouncesAuthTokenAsItsSuccessorOnSuccessAndFailure() {
        Vendor vendor = Vendors.onboard(java.util.List.of("127.0.0.1"));
        Response ok = given().queryParam("clientId", vendor.clientId().toString())
                .queryParam("clientSecret", vendor.secret()).get("/getToken");
        assertThat(ok.statusCode()).isEqualTo(200);
        announces(ok, "/auth/token");
        Response refused = given().queryParam("clientId", vendor.clientId().toString())
                .queryParam("clientSecret", "wrong").get("/getToken");
        assertThat(refused.statusCode()).isEqualTo(401);
        announces(refused, "/auth/token");
    }

    @Test
    void videoDemoAnnouncesMediaDemoAsItsSuccessor() {
        Vendor vendor = Vendors.onboard();
        Response forwarded = given().header("Authorization", vendor.bearer()).header("x-api-key", vendor.apiKey())
                .contentType(ContentType.JSON).body(Map.of("client-request-id", "a")).post("/video/demo");
        assertThat(forwarded.statusCode()).isEqualTo(200);
        announces(forwarded, "/media/demo");
        announces(given().contentType(ContentType.JSON).body("{}").post("/video/demo"), "/media/demo");
    }

    @Test
    void theCurrentGenerationCarriesNoDeprecation() {
        Vendor vendor = Vendors.onboard();
        Response token = given().contentType(ContentType.JSON)
                .body(Map.of("client_id", vendor.clientId().toString(), "client_secret", vendor.secret()))
                .post("/auth/token");
        assertThat(token.header("Deprecation")).isNull();
        Response media = given().header("Authorization", vendor.bearer()).contentType(ContentType.JSON).body("{}")
                .post("/media/demo");
        assertThat(media.header("Deprecation")).isNull();
        assertThat(media.header("Sunset")).isNull();
    }

    /** The same gateway after the sunset date. */
    @QuarkusTest
    @io.quarkus.test.junit.TestProfile(AfterTheSunset.Profile.class)
    static class AfterTheSunset {

        public static class Profile implements io.quarkus.test.junit.QuarkusTestProfile {
            @Override
            public Map<String, String> getConfigOverrides() {
                return Map.of("pmedia.gateway.deprecation.since", "2020-01-01T00:00:00Z",
                        "pmedia.gateway.deprecation.sunset", "2021-01-01T00:00:00Z");
            }
        }

        @Test
        void aRetiredPathIs410NamingItsSuccessor() {
            Vendor vendor = Vendors.onboard(java.util.List.of("127.0.0.1"));
            ErrorAssertions.isError(given().queryParam("clientId", vendor.clientId().toString())
                    .queryParam("clientSecret", vendor.secret()).get("/getToken").then(), 410, "GONE")
                    .body("message", org.hamcrest.Matchers.containsString("/auth/token"))
                    .header("Link", "</auth/token>; rel=\"successor-version\"");
        }
    }
}
