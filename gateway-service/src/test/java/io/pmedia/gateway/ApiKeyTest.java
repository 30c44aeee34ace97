package io.pmedia.gateway;

import static io.pmedia.gateway.ErrorAssertions.isError;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;

import java.util.UUID;

import org.junit.jupiter.api.Test;

import io.pmedia.gateway.Vendors.Vendor;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;

/** Interface 4.4, 4.5 and 5.4: where the API key is needed, allowed, and must match the token. */
@QuarkusTest
class ApiKeyTest {

    private static final String EARLIER_FORM = "{\"client-request-id\":\"r-1\",\"use-case-id\":\"greeting\"}";

    @Test
    void earlierGenerationNeedsKeyAndTokenOfTheSameClient() {
        Vendor vendor = Vendors.onboard();
        Vendor other = Vendors.onboard();
        String token = vendor.token();

        given().header("x-api-key", vendor.apiKey()).header("Authorization", "Bearer " + token)
                .contentType(ContentType.JSON).body(EARLIER_FORM).post("/video/demo")
                .then().statusCode(200).body("target", equalTo("/video/demo")).body("body", equalTo(EARLIER_FORM));

        isError(given().header("Authorization", "Bearer " + token).contentType(ContentType.JSON).body(EARLIER_FORM)
                .post("/video/demo").then(), 401, "UNAUTHORIZED");
        isError(given().header("x-api-key", vendor.apiKey()).contentType(ContentType.JSON).body(EARLIER_FORM)
                .post("/video/demo").then(), 401, "UNAUTHORIZED");
        isError(given().header("x-api-key", other.apiKey()).header("Authorization", "Bearer " + token)
                .contentType(ContentType.JSON).body(EARLIER_FORM).post("/video/demo").then(), 401,
                "UNAUTHORIZED");
        isError(given().header("x-api-key", "pmk_forged").header("Authorization", "Bearer " + token)
                .contentType(ContentType.JSON).body(EARLIER_FORM).post("/video/demo").then(), 401,
                "UNAUTHORIZED");
    }

    @Test
    void statusTakesTheKeyAloneAndForwardsAMintedTokenOfThatClient() throws Exception {
        Vendor vendor = Vendors.onboard();
        String transaction = UUID.randomUUID().toString();
        String forwarded = given().header("x-api-key", vendor.apiKey()).get("/status/" + transaction)
                .then().statusCode(200).body("target", equalTo("/status/" + transaction))
                .extract().path("authorization");
        String minted = forwarded.substring("Bearer ".length());
        var claims = TokenEndpointTest.part(minted, 1);
        assertThat(claims.get("sub").asText()).isEqualTo(vendor.clientId().toString());
        assertThat(claims.get("exp").asLong() - claims.get("iat").asLong()).isLessThanOrEqualTo(300);
    }

    @Test
    void statusTakesTheTokenAloneOrBothOfTheSameClient() {
        Vendor vendor = Vendors.onboard();
        Vendor other = Vendors.onboard();
        String token = vendor.token();
        given().header("Authorization", "Bearer " + token).get("/status/abc")
                .then().statusCode(200).body("authorization", equalTo("Bearer " + token));
        given().header("Authorization", "Bearer " + token).header("x-api-key", vendor.apiKey()).get("/status/abc")
                .then().statusCode(200);
        isError(given().header("Authorization", "Bearer " + token).header("x-api-key", other.apiKey())
                .get("/status/abc").then(), 401, "UNAUTHORIZED");
        isError(given().get("/status/abc").then(), 401, "UNAUTHORIZED");
        isError(given().header("x-api-key", "pmk_unknown").get("/status/abc").then(), 401, "UNAUTHORIZED");
    }

    @Test
    void rotatedApiKeyReplacesTheOldOne() {
        Vendor vendor = Vendors.onboard();
        String rotated = given().header("Authorization", Vendors.ADMIN)
                .post("/admin/clients/" + vendor.clientId() + "/rotate-api-key")
                .then().statusCode(200).extract().path("api-key");
        isError(given().header("x-api-key", vendor.apiKey()).get("/status/abc").then(), 401, "UNAUTHORIZED");
        given().header("x-api-key", rotated).get("/status/abc").then().statusCode(200);
    }
}
