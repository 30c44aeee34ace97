package io.pmedia.gateway;

import static io.pmedia.gateway.ErrorAssertions.isError;
import static io.restassured.RestAssured.given;

import java.util.UUID;

import org.junit.jupiter.api.Test;

import io.pmedia.gateway.Vendors.Vendor;
import io.quarkus.test.junit.QuarkusTest;

/** {@code GET /internal/clients/{id}/active}: what every service asks before honouring a client's token. */
@QuarkusTest
class InternalClientTest {

    private static final String INTERNAL = "Bearer test-internal-token";

    @Test
    void anExistingClientIsActiveUntilItIsDeleted() {
        Vendor vendor = Vendors.onboard();
        given().header("Authorization", INTERNAL).get("/internal/clients/" + vendor.clientId() + "/active")
                .then().statusCode(204);
        // The id as a vendor may spell it: uuids are compared in one canonical form.
        given().header("Authorization", INTERNAL)
                .get("/internal/clients/" + vendor.clientId().toString().toUpperCase() + "/active")
                .then().statusCode(204);

        given().header("Authorization", Vendors.ADMIN).delete("/admin/clients/" + vendor.clientId())
                .then().statusCode(204);

        isError(given().header("Authorization", INTERNAL).get("/internal/clients/" + vendor.clientId() + "/active")
                .then(), 404, "NOT_FOUND");
    }

    @Test
    void anUnknownClientIsNotActive() {
        isError(given().header("Authorization", INTERNAL).get("/internal/clients/" + UUID.randomUUID() + "/active")
                .then(), 404, "NOT_FOUND");
        isError(given().header("Authorization", INTERNAL).get("/internal/clients/not-a-uuid/active").then(), 404,
                "NOT_FOUND");
    }

    @Test
    void onlyTheInternalTokenMayAsk() {
        Vendor vendor = Vendors.onboard();
        isError(given().get("/internal/clients/" + vendor.clientId() + "/active").then(), 401, "UNAUTHORIZED");
        isError(given().header("Authorization", vendor.bearer()).get("/internal/clients/" + vendor.clientId()
                + "/active").then(), 401, "UNAUTHORIZED");
        // The operator's token is a credential, but not one for the services' API.
        isError(given().header("Authorization", Vendors.ADMIN).get("/internal/clients/" + vendor.clientId()
                + "/active").then(), 403, "FORBIDDEN");
    }
}
