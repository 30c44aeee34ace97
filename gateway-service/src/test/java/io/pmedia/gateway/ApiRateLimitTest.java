package io.pmedia.gateway;

import static io.pmedia.gateway.ErrorAssertions.isError;
import static io.restassured.RestAssured.given;

import java.util.Map;
import java.util.UUID;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import io.pmedia.gateway.Vendors.Vendor;
import io.pmedia.gateway.service.ClientRateLimits;
import io.pmedia.testing.Patience;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.restassured.http.ContentType;
import io.vertx.mutiny.sqlclient.Pool;

/** A vendor's API budget: its flood gets 429 with Retry-After, and nobody else notices. */
@QuarkusTest
@TestProfile(ApiRateLimitTest.SmallBudgets.class)
class ApiRateLimitTest {

    public static class SmallBudgets implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("pmedia.gateway.api-limits.calls-burst", "8",
                    "pmedia.gateway.api-limits.calls-per-second", "0.01",
                    "pmedia.gateway.api-limits.creations-burst", "2",
                    "pmedia.gateway.api-limits.creations-per-second", "0.01");
        }
    }

    @Inject
    ClientRateLimits limits;

    @Inject
    Pool pool;

    @Test
    void aVendorOverItsBudgetGets429AndAnotherVendorDoesNot() {
        Vendor flooding = Vendors.onboard();
        String bearer = flooding.bearer();
        for (int i = 0; i < 8; i++) {
            given().header("Authorization", bearer).get("/templates").then().statusCode(200);
        }
        isError(given().header("Authorization", bearer).get("/templates").then(), 429, "RATE_LIMITED")
                .header("Retry-After", org.hamcrest.Matchers.matchesPattern("[1-9]\\d*"));

        Vendor other = Vendors.onboard();
        given().header("Authorization", other.bearer()).get("/templates").then().statusCode(200);
    }

    @Test
    void callsThatStartWorkHaveASmallerBudgetOfTheirOwn() {
        Vendor vendor = Vendors.onboard();
        String bearer = vendor.bearer();
        for (int i = 0; i < 2; i++) {
            given().header("Authorization", bearer).contentType(ContentType.JSON).body("{}").post("/media/demo")
                    .then().statusCode(200);
        }
        isError(given().header("Authorization", bearer).contentType(ContentType.JSON).body("{}").post("/media/demo")
                .then(), 429, "RATE_LIMITED");
        given().header("Authorization", bearer).get("/templates").then().statusCode(200);
    }

    @Test
    void eachReplicaEnforcesItsShareOfTheReplicasItSeesInTheDatabase() {
        Patience.await().until(() -> pool.query("SELECT count(*) AS n FROM gateway_replica "
                + "WHERE seen_at > now() - interval '15 seconds'").execute().await().indefinitely().iterator().next()
                .getLong("n") >= 1);
        UUID other = UUID.randomUUID();
        pool.preparedQuery("INSERT INTO gateway_replica (id, seen_at) VALUES ($1, now())")
                .execute(io.vertx.mutiny.sqlclient.Tuple.of(other)).await().indefinitely();
        try {
            Patience.await().until(() -> limits.replicas() == 2);
            Vendor vendor = Vendors.onboard();
            String bearer = vendor.bearer();
            for (int i = 0; i < 4; i++) {
                given().header("Authorization", bearer).get("/templates").then().statusCode(200);
            }
            isError(given().header("Authorization", bearer).get("/templates").then(), 429, "RATE_LIMITED");
        } finally {
            pool.preparedQuery("DELETE FROM gateway_replica WHERE id = $1")
                    .execute(io.vertx.mutiny.sqlclient.Tuple.of(other)).await().indefinitely();
        }
        Patience.await().until(() -> limits.replicas() == 1);
    }
}
