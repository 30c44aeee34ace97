package io.pmedia.common.client;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;

/**
 * The event types an endpoint may subscribe to are the ones docs/openapi.yaml names (the SDKs are generated from it):
 * its {@code WebhookEventType} enum is this enum's spellings in order, and {@code DeliveryType} the same and
 * {@code test}.
 */
class WebhookEventTypeTest {

    @Test
    void theDocumentsEnumsAreTheEventTypesInOrder() throws IOException {
        JsonNode schemas = new ObjectMapper(new YAMLFactory()).readTree(Path.of("../docs/openapi.yaml").toFile())
                .path("components").path("schemas");
        List<String> spellings = Arrays.stream(WebhookEventType.values()).map(WebhookEventType::wire).toList();
        assertThat(values(schemas.path("WebhookEventType"))).isEqualTo(spellings);
        List<String> deliveries = new ArrayList<>(spellings);
        deliveries.add("test");
        assertThat(values(schemas.path("DeliveryType"))).containsExactlyInAnyOrderElementsOf(deliveries);
        assertThat(spellings).contains("video.rendered", "video.render-failed");
    }

    private static List<String> values(JsonNode schema) {
        List<String> values = new ArrayList<>();
        schema.path("enum").forEach(value -> values.add(value.asText()));
        return values;
    }
}
