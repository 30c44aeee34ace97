package io.pmedia.gateway;

import static io.pmedia.gateway.ErrorAssertions.isError;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.api.Test;

import io.pmedia.gateway.Vendors.Vendor;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;

/** {@code GET /account}: a vendor reads its own record (the console's header shows its name), never a secret. */
@QuarkusTest
class AccountTest {

    @Test
    void aVendorReadsItsOwnNameAndNoSecret() {
        Vendor vendor = Vendors.onboard(List.of("127.0.0.1"));
        String name = given().header("Authorization", Vendors.ADMIN).get("/admin/clients/" + vendor.clientId())
                .then().statusCode(200).extract().path("name");

        String body = given().header("Authorization", vendor.bearer()).get("/account")
                .then().statusCode(200).extract().asString();
        JsonPath account = new JsonPath(body);

        assertThat(account.getString("client-id")).isEqualTo(vendor.clientId().toString());
        assertThat(account.getString("name")).isEqualTo(name);
        assertThat(account.getList("allowed-ips", String.class)).containsExactly("127.0.0.1");
        assertThat(body).doesNotContain("secret").doesNotContain("api-key");
    }

    @Test
    void withoutABearerTokenItIs401() {
        isError(given().get("/account").then(), 401, "UNAUTHORIZED");
        isError(given().header("Authorization", Vendors.ADMIN).get("/account").then(), 401, "UNAUTHORIZED");
        isError(given().header("x-api-key", Vendors.onboard().apiKey()).get("/account").then(), 401, "UNAUTHORIZED");
    }

    @Test
    void aRevokedVendorGets401() {
        Vendor vendor = Vendors.onboard();
        String bearer = vendor.bearer();
        given().header("Authorization", Vendors.ADMIN).delete("/admin/clients/" + vendor.clientId())
                .then().statusCode(204);
        isError(given().header("Authorization", bearer).get("/account").then(), 401, "UNAUTHORIZED");
    }
}
