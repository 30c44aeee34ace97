package io.pmedia.media;

import static io.pmedia.media.MediaApi.body;
import static io.pmedia.media.MediaApi.request;
import static io.pmedia.media.MediaApi.status;
import static io.pmedia.testing.ErrorAssertions.isError;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.Map;
import java.util.UUID;

import org.junit.jupiter.api.Test;

import io.pmedia.testing.GatewayStub;
import io.pmedia.testing.Patience;
import io.quarkus.test.junit.QuarkusTest;

/** A deleted client's tokens stop working in media-service within the 2 s a client check is kept. */
@QuarkusTest
class RevocationTest {

    @Test
    void aDeletedClientCanNeitherRequestNorReadAnyMore() {
        UUID client = UUID.randomUUID();
        // A request that cannot be served is accepted as FAILURE without a render: all this test needs.
        String id = request(client, body("r-1", "no-such-case", Map.of())).statusCode(200)
                .extract().path("service-request-id");
        assertThat(status(client, id).statusCode(200)
                .extract().jsonPath().getString("status")).isEqualTo("FAILURE");

        GatewayStub.delete(client);

        Patience.await().pollInterval(Duration.ofMillis(100))
                .untilAsserted(() -> status(client, id).statusCode(401));
        assertThat(isError(status(client, id), 401, "UNAUTHORIZED")
                .extract().jsonPath().getString("message")).isEqualTo("invalid or expired bearer token");
        isError(request(client, body("r-2", "no-such-case", Map.of())), 401, "UNAUTHORIZED");
    }
}
