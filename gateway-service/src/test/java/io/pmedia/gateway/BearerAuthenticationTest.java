package io.pmedia.gateway;

import static io.pmedia.gateway.ErrorAssertions.isError;
import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Base64;
import java.util.Set;
import java.util.UUID;

import org.junit.jupiter.api.Test;

import io.pmedia.gateway.Vendors.Vendor;
import io.pmedia.testing.TestKeys;
import io.pmedia.testing.TestTokens;
import io.quarkus.test.junit.QuarkusTest;
import io.smallrye.jwt.algorithm.SignatureAlgorithm;
import io.smallrye.jwt.build.Jwt;

/** Every kind of bad bearer token is 401 UNAUTHORIZED; a good one reaches the owning service. */
@QuarkusTest
class BearerAuthenticationTest {

    private static final String PROTECTED = "/campaigns/summer-sale/schedule";

    @Test
    void validTokenIsForwardedUnchanged() {
        String token = Vendors.onboard().token();
        given().header("Authorization", "Bearer " + token).get(PROTECTED)
                .then().statusCode(200).body("authorization", equalTo("Bearer " + token));
    }

    @Test
    void missingOrMalformedHeaderIs401() {
        isError(given().get(PROTECTED).then(), 401, "UNAUTHORIZED");
        isError(given().header("Authorization", "Basic dXNlcjpwdw==").get(PROTECTED).then(), 401, "UNAUTHORIZED");
        isError(given().header("Authorization", "Bearer not.a.jwt").get(PROTECTED).then(), 401, "UNAUTHORIZED");
    }

    @Test
    void unsignedTokenIs401() {
        Vendor vendor = Vendors.onboard();
        String header = base64("{\"alg\":\"none\",\"typ\":\"JWT\"}");
        String claims = base64("{\"iss\":\"" + TestKeys.ISSUER + "\",\"aud\":\"" + TestKeys.AUDIENCE
                + "\",\"sub\":\"" + vendor.clientId() + "\",\"groups\":[\"client\"],\"exp\":"
                + (Instant.now().getEpochSecond() + 3600) + "}");
        isError(given().header("Authorization", "Bearer " + header + "." + claims + ".").get(PROTECTED).then(), 401,
                "UNAUTHORIZED");
    }

    @Test
    void hmacSignedTokenIs401() {
        Vendor vendor = Vendors.onboard();
        String token = Jwt.issuer(TestKeys.ISSUER).audience(TestKeys.AUDIENCE).subject(vendor.clientId().toString())
                .groups("client").expiresIn(3600).jws().algorithm(SignatureAlgorithm.HS256)
                .signWithSecret("a-shared-secret-that-is-long-enough-for-hs256!");
        isError(given().header("Authorization", "Bearer " + token).get(PROTECTED).then(), 401, "UNAUTHORIZED");
    }

    @Test
    void expiredTokenIs401() {
        Vendor vendor = Vendors.onboard();
        Instant issued = Instant.now().minusSeconds(7200);
        String token = Jwt.issuer(TestKeys.ISSUER).audience(TestKeys.AUDIENCE).subject(vendor.clientId().toString())
                .groups("client").issuedAt(issued).expiresAt(issued.plusSeconds(3600)).jws()
                .keyId(TestKeys.KEY_ID).sign(TestKeys.privateKey());
        isError(given().header("Authorization", "Bearer " + token).get(PROTECTED).then(), 401, "UNAUTHORIZED");
    }

    @Test
    void wrongIssuerOrAudienceIs401() {
        Vendor vendor = Vendors.onboard();
        String wrongIssuer = Jwt.issuer("https://evil.example").audience(TestKeys.AUDIENCE)
                .subject(vendor.clientId().toString()).groups("client").expiresIn(3600).jws()
                .keyId(TestKeys.KEY_ID).sign(TestKeys.privateKey());
        String wrongAudience = Jwt.issuer(TestKeys.ISSUER).audience("another-api")
                .subject(vendor.clientId().toString()).groups("client").expiresIn(3600).jws()
                .keyId(TestKeys.KEY_ID).sign(TestKeys.privateKey());
        isError(given().header("Authorization", "Bearer " + wrongIssuer).get(PROTECTED).then(), 401,
                "UNAUTHORIZED");
        isError(given().header("Authorization", "Bearer " + wrongAudience).get(PROTECTED).then(), 401,
                "UNAUTHORIZED");
    }

    @Test
    void operatorTokenIsNoVendorToken() {
        String operator = TestTokens.sign("operator", Set.of("operator"), java.time.Duration.ofMinutes(5));
        isError(given().header("Authorization", "Bearer " + operator).get(PROTECTED).then(), 401, "UNAUTHORIZED");
    }

    @Test
    void tokenSignedWithThePreviousKeyOfARotationStillWorks() {
        Vendor vendor = Vendors.onboard();
        given().header("Authorization", "Bearer " + TestTokens.clientWithPreviousKey(vendor.clientId()))
                .get(PROTECTED).then().statusCode(200);
    }

    @Test
    void deletedClientsTokensStopWorking() {
        Vendor vendor = Vendors.onboard();
        String token = vendor.token();
        given().header("Authorization", "Bearer " + token).get(PROTECTED).then().statusCode(200);

        given().header("Authorization", Vendors.ADMIN).delete("/admin/clients/" + vendor.clientId())
                .then().statusCode(204);

        isError(given().header("Authorization", "Bearer " + token).get(PROTECTED).then(), 401, "UNAUTHORIZED");
        isError(given().header("x-api-key", vendor.apiKey()).get("/status/" + UUID.randomUUID()).then(), 401,
                "UNAUTHORIZED");
    }

    private static String base64(String json) {
        return Base64.getUrlEncoder().withoutPadding().encodeToString(json.getBytes(StandardCharsets.UTF_8));
    }
}
