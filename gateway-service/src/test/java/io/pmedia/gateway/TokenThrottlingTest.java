package io.pmedia.gateway;

import static io.pmedia.gateway.ErrorAssertions.isError;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import java.util.UUID;

import org.junit.jupiter.api.Test;

import io.pmedia.gateway.Vendors.Vendor;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.restassured.http.ContentType;

/**
 * The review's lockout: client ids are visible in every media URL, so anyone can send wrong secrets for a vendor's
 * id. Behind a trusted proxy (as behind the ingress) each test call names its own source address.
 */
@QuarkusTest
@TestProfile(TokenThrottlingTest.BehindAProxy.class)
class TokenThrottlingTest {

    public static class BehindAProxy implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            // The failures' refill (one per 5 s by default) is slowed to nothing here: on a loaded machine the ten
            // failures of a test take longer than 5 s, and the refilled one made the eleventh a 401 instead of a 429.
            return Map.of("pmedia.gateway.trusted-proxies", "127.0.0.1/32",
                    "pmedia.gateway.rate-limit.failures-per-second", "0.0001");
        }
    }

    static String address() {
        return "2001:db8:" + Integer.toHexString((int) (Math.random() * 0xffff)) + "::"
                + Integer.toHexString((int) (Math.random() * 0xffff));
    }

    static int tokenStatus(String clientId, String secret, String from) {
        return given().header("X-Forwarded-For", from).contentType(ContentType.JSON)
                .body(Map.of("client_id", clientId, "client_secret", secret))
                .post("/auth/token").then().extract().statusCode();
    }

    @Test
    void wrongSecretsForAVendorsIdDoNotLockTheVendorOut() {
        Vendor vendor = Vendors.onboard();
        String attacker = address();
        int status = 0;
        for (int i = 0; i < 20 && status != 429; i++) {
            status = tokenStatus(vendor.clientId().toString(), "guess-" + i, attacker);
        }
        assertThat(status).isEqualTo(429);
        isError(given().header("X-Forwarded-For", attacker).contentType(ContentType.JSON)
                .body(Map.of("client_id", vendor.clientId().toString(), "client_secret", vendor.secret()))
                .post("/auth/token").then(), 429, "RATE_LIMITED");

        assertThat(tokenStatus(vendor.clientId().toString(), vendor.secret(), address())).isEqualTo(200);
    }

    @Test
    void aMixedCaseClientIdCountsAgainstTheSameBudget() {
        String clientId = UUID.randomUUID().toString();
        String from = address();
        for (int i = 0; i < 10; i++) {
            String spelling = i % 2 == 0 ? clientId.toUpperCase() : clientId;
            assertThat(tokenStatus(spelling, "guess-" + i, from)).isEqualTo(401);
        }
        assertThat(tokenStatus(clientId, "guess", from)).isEqualTo(429);
        assertThat(tokenStatus(clientId.toUpperCase(), "guess", from)).isEqualTo(429);
    }
}
