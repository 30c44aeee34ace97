package io.pmedia.gateway;

import static io.pmedia.gateway.ErrorAssertions.isError;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.pmedia.gateway.Vendors.Vendor;
import io.pmedia.testing.TestKeys;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;

/** Interface 4.1 and 4.2: both token forms, their lifetimes and claims, and every refusal. */
@QuarkusTest
class TokenEndpointTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void jsonCredentialsGiveAnHourLongBearerToken() throws Exception {
        Vendor vendor = Vendors.onboard();
        String token = given().contentType(ContentType.JSON)
                .body(Map.of("client_id", vendor.clientId().toString(), "client_secret", vendor.secret()))
                .post("/auth/token")
                .then().statusCode(200)
                .body("token_type", equalTo("Bearer"))
                .body("expires_in", equalTo(3600))
                .body("size()", equalTo(3))
                .extract().path("access_token");

        JsonNode header = part(token, 0);
        JsonNode claims = part(token, 1);
        assertThat(header.get("alg").asText()).isEqualTo("RS256");
        assertThat(header.get("kid").asText()).isEqualTo(TestKeys.KEY_ID);
        assertThat(claims.get("iss").asText()).isEqualTo(TestKeys.ISSUER);
        assertThat(audience(claims)).isEqualTo(TestKeys.AUDIENCE);
        assertThat(claims.get("sub").asText()).isEqualTo(vendor.clientId().toString());
        assertThat(claims.get("jti").asText()).isNotBlank();
        assertThat(claims.get("exp").asLong() - claims.get("iat").asLong()).isEqualTo(3600);
    }

    @Test
    void oauthClientCredentialsFormWorksToo() {
        Vendor vendor = Vendors.onboard();
        given().contentType(ContentType.URLENC)
                .formParam("grant_type", "client_credentials")
                .formParam("client_id", vendor.clientId().toString())
                .formParam("client_secret", vendor.secret())
                .post("/auth/token")
                .then().statusCode(200).body("token_type", equalTo("Bearer")).body("expires_in", equalTo(3600));
        given().contentType(ContentType.URLENC).auth().preemptive().basic(vendor.clientId().toString(),
                vendor.secret())
                .formParam("grant_type", "client_credentials")
                .post("/auth/token")
                .then().statusCode(200);
        isError(given().contentType(ContentType.URLENC).formParam("grant_type", "password")
                .formParam("client_id", vendor.clientId().toString()).formParam("client_secret", vendor.secret())
                .post("/auth/token").then(), 400, "VALIDATION_ERROR");
    }

    @Test
    void wrongSecretAndUnknownClientGetTheSameAnswer() {
        Vendor vendor = Vendors.onboard();
        String wrongSecret = isError(given().contentType(ContentType.JSON)
                .body(Map.of("client_id", vendor.clientId().toString(), "client_secret", "pms_wrong"))
                .post("/auth/token").then(), 401, "UNAUTHORIZED").extract().path("message");
        String unknownClient = isError(given().contentType(ContentType.JSON)
                .body(Map.of("client_id", UUID.randomUUID().toString(), "client_secret", vendor.secret()))
                .post("/auth/token").then(), 401, "UNAUTHORIZED").extract().path("message");
        String notAnId = isError(given().contentType(ContentType.JSON)
                .body(Map.of("client_id", "acme", "client_secret", vendor.secret()))
                .post("/auth/token").then(), 401, "UNAUTHORIZED").extract().path("message");
        assertThat(unknownClient).isEqualTo(wrongSecret).isEqualTo(notAnId);
    }

    @Test
    void missingFieldIsAValidationError() {
        isError(given().contentType(ContentType.JSON).body(Map.of("client_id", UUID.randomUUID().toString()))
                .post("/auth/token").then(), 400, "VALIDATION_ERROR")
                .body("message", equalTo("field 'client_secret' is required"));
    }

    @Test
    void earlierFormGivesADayLongTokenFromAnAllowedAddress() throws Exception {
        Vendor vendor = Vendors.onboard(List.of("203.0.113.7", "127.0.0.0/8"));
        String token = given().queryParam("clientId", vendor.clientId().toString())
                .queryParam("clientSecret", vendor.secret())
                .get("/getToken")
                .then().statusCode(200)
                .body("token_type", equalTo("Bearer"))
                .body("expires_in", equalTo(86400))
                .extract().path("access_token");
        JsonNode claims = part(token, 1);
        assertThat(claims.get("exp").asLong() - claims.get("iat").asLong()).isEqualTo(86400);
    }

    @Test
    void earlierFormRefusesAddressesOutsideTheAllowList() {
        Vendor elsewhere = Vendors.onboard(List.of("203.0.113.7"));
        isError(given().queryParam("clientId", elsewhere.clientId().toString())
                .queryParam("clientSecret", elsewhere.secret())
                .get("/getToken").then(), 403, "FORBIDDEN");

        Vendor none = Vendors.onboard(List.of());
        isError(given().queryParam("clientId", none.clientId().toString()).queryParam("clientSecret", none.secret())
                .get("/getToken").then(), 403, "FORBIDDEN");

        isError(given().queryParam("clientId", elsewhere.clientId().toString())
                .queryParam("clientSecret", "wrong")
                .get("/getToken").then(), 401, "UNAUTHORIZED");
    }

    @Test
    void spoofedForwardedForFromAnUntrustedPeerChangesNothing() {
        Vendor vendor = Vendors.onboard(List.of("203.0.113.7"));
        isError(given().header("X-Forwarded-For", "203.0.113.7")
                .queryParam("clientId", vendor.clientId().toString()).queryParam("clientSecret", vendor.secret())
                .get("/getToken").then(), 403, "FORBIDDEN");
    }

    @Test
    void rotatedSecretReplacesTheOldOne() {
        Vendor vendor = Vendors.onboard();
        String rotated = given().header("Authorization", Vendors.ADMIN)
                .post("/admin/clients/" + vendor.clientId() + "/rotate-secret")
                .then().statusCode(200).extract().path("client-secret");
        isError(given().contentType(ContentType.JSON)
                .body(Map.of("client_id", vendor.clientId().toString(), "client_secret", vendor.secret()))
                .post("/auth/token").then(), 401, "UNAUTHORIZED");
        given().contentType(ContentType.JSON)
                .body(Map.of("client_id", vendor.clientId().toString(), "client_secret", rotated))
                .post("/auth/token").then().statusCode(200);
    }

    @Test
    void repeatedFailuresForOneClientIdAreRateLimited() {
        String clientId = UUID.randomUUID().toString();
        // the refused answer itself is checked: another request after it may find a token refilled meanwhile (a
        // loaded machine takes seconds for the guesses), which is the limiter working, not failing
        io.restassured.response.Response refused = null;
        for (int i = 0; i < 20 && refused == null; i++) {
            io.restassured.response.Response answer = given().contentType(ContentType.JSON)
                    .body(Map.of("client_id", clientId, "client_secret", "guess-" + i)).post("/auth/token");
            assertThat(answer.statusCode()).isIn(401, 429);
            refused = answer.statusCode() == 429 ? answer : null;
        }
        assertThat(refused).as("a guess refused within 20").isNotNull();
        isError(refused.then(), 429, "RATE_LIMITED")
                .header("Retry-After", org.hamcrest.Matchers.matchesPattern("\\d+"));
    }

    static JsonNode part(String jwt, int index) throws Exception {
        String[] parts = jwt.split("\\.");
        return JSON.readTree(new String(Base64.getUrlDecoder().decode(parts[index]), StandardCharsets.UTF_8));
    }

    private static String audience(JsonNode claims) {
        JsonNode aud = claims.get("aud");
        return aud.isArray() ? aud.get(0).asText() : aud.asText();
    }
}
