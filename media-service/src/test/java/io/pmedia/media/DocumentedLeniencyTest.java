package io.pmedia.media;

import static io.pmedia.media.MediaApi.body;
import static io.pmedia.media.MediaApi.request;
import static io.pmedia.testing.ErrorAssertions.isError;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;

import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;

import io.pmedia.testing.KafkaEvents;
import io.pmedia.testing.Patience;
import io.quarkus.test.junit.QuarkusTest;

/**
 * What docs/openapi.yaml says the server accepts beyond the letter of the interface document, held to: a null entry of
 * a global_assets list leaves its slot empty, data may be absent or null, personalization values that are numbers or
 * booleans render as their text and null is an absent field; a number where a request field must be a string is 400.
 */
@QuarkusTest
class DocumentedLeniencyTest {

    @ConfigProperty(name = "kafka.bootstrap.servers")
    String bootstrap;

    @BeforeEach
    void template() {
        MediaApi.registerTemplate(MediaApi.TINY);
    }

    @Test
    void aNullAssetLeavesItsSlotEmpty() {
        Map<String, Object> assets = new HashMap<>();
        assets.put("images", Arrays.asList((Object) null));
        JsonNode job = jobOf(UUID.randomUUID(), Map.of("personalization_fields", Map.of("name", "Ada"),
                "global_assets", assets));
        assertThat(job.at("/data/input/images").toString()).isIn("[]", "[\"\"]");
    }

    @Test
    void numbersAndBooleansRenderAsTheirTextAndNullIsAbsent() {
        Map<String, Object> fields = new HashMap<>();
        fields.put("name", 42);
        fields.put("offer", null);
        JsonNode job = jobOf(UUID.randomUUID(), Map.of("personalization_fields", fields));
        assertThat(job.at("/data/input/fields/name").asText()).isEqualTo("42");
        assertThat(job.at("/data/input/fields").has("offer")).isFalse();

        JsonNode withBoolean = jobOf(UUID.randomUUID(), Map.of("personalization_fields",
                Map.of("name", "Ada", "offer", true)));
        assertThat(withBoolean.at("/data/input/fields/offer").asText()).isEqualTo("true");
    }

    @Test
    void dataMayBeLeftOutAndTheFirstRequiredFieldIsNamed() {
        UUID client = UUID.randomUUID();
        Map<String, Object> body = new HashMap<>(body("no-data-" + UUID.randomUUID(), "tiny", Map.of()));
        body.remove("data");
        request(client, body).statusCode(200).body("status", equalTo("FAILURE"))
                .body("message", containsString("'name'"));
        body.put("client-request-id", "null-data-" + UUID.randomUUID());
        body.put("data", null);
        request(client, body).statusCode(200).body("status", equalTo("FAILURE"))
                .body("message", containsString("'name'"));
    }

    @Test
    void aNumberWhereTheRequestTakesAStringIs400NamingTheField() {
        Map<String, Object> body = new HashMap<>(body("typed-" + UUID.randomUUID(), "tiny",
                Map.of("personalization_fields", Map.of("name", "Ada"))));
        body.put("customer-id", 123);
        isError(request(UUID.randomUUID(), body), 400, "BAD_REQUEST")
                .body("message", containsString("customer-id"));
    }

    /** The render job a SUCCESS acceptance put on the job topic. */
    private JsonNode jobOf(UUID client, Map<String, Object> data) {
        String id = request(client, body("lenient-" + UUID.randomUUID(), "tiny", data)).statusCode(200)
                .body("status", equalTo("SUCCESS")).extract().path("service-request-id");
        try (KafkaEvents jobs = KafkaEvents.of(bootstrap, "pmedia.render.jobs")) {
            Patience.await().until(() -> !jobs.withKey(id).isEmpty());
            return jobs.withKey(id).get(0).envelope();
        }
    }
}
