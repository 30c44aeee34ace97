package io.pmedia.events;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.introspect.BeanPropertyDefinition;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;

/**
 * docs/asyncapi.yaml and the payload records say the same: every message's {@code data} has exactly the properties
 * its record serializes, with the same enum values, and every record is a message of the document.
 */
class AsyncApiContractTest {

    private static final ObjectMapper JSON = new ObjectMapper().registerModule(new JavaTimeModule());

    private final JsonNode document = read();

    @Test
    void everyPayloadRecordHasExactlyTheDocumentsProperties() {
        for (var entry : EventCodecTest.PAYLOADS.entrySet()) {
            JsonNode data = dataSchema(EventCodec.typeOf(entry.getKey()));
            Set<String> documented = new TreeSet<>();
            data.path("properties").fieldNames().forEachRemaining(documented::add);
            assertThat(properties(entry.getKey())).as(entry.getKey().getSimpleName()).isEqualTo(documented);
        }
    }

    @Test
    void statusEnumsHaveTheDocumentsValues() {
        assertEnum(MediaStatusChanged.class, "status", MediaStatus.values());
        assertEnum(TryOnStatusChanged.class, "status", TryOnStatus.values());
        assertEnum(BatchStatusChanged.class, "status", BatchStatus.values());
        assertEnum(CampaignStatusChanged.class, "status", CampaignStatus.values());
        assertEnum(RenderResult.class, "status", RenderOutcome.values());
        assertEnum(CampaignStatusChanged.class, "render", RenderMode.values());
    }

    @Test
    void everyTopicOfTheCodeIsAChannelOfTheDocument() {
        Set<String> channels = new TreeSet<>();
        document.path("channels").forEach(channel -> channels.add(channel.path("address").asText()));
        assertThat(channels).containsAll(List.of(Topics.MEDIA_STATUS, Topics.BATCH_STATUS, Topics.VTON_STATUS,
                Topics.CAMPAIGN_STATUS, Topics.WEBHOOK_DEAD_LETTER, Topics.RENDER_JOBS, Topics.RENDER_JOBS_BATCH,
                Topics.RENDER_RESULTS, Topics.ENGAGEMENT_EVENTS, Topics.ENGAGEMENT_STATUS, Topics.ENGAGEMENT_RENDERS));
    }

    private void assertEnum(Class<? extends EventPayload> type, String property, Enum<?>[] values) {
        List<String> documented = new ArrayList<>();
        dataSchema(EventCodec.typeOf(type)).path("properties").path(property).path("enum")
                .forEach(value -> documented.add(value.asText()));
        List<String> coded = new ArrayList<>();
        for (Enum<?> value : values) {
            coded.add(JSON.valueToTree(value).asText());
        }
        assertThat(documented).as(type.getSimpleName() + "." + property).containsExactlyInAnyOrderElementsOf(coded);
    }

    /** The schema of {@code data} of the message whose name is {@code type}. */
    private JsonNode dataSchema(String type) {
        for (JsonNode message : document.path("components").path("messages")) {
            if (type.equals(message.path("name").asText())) {
                String ref = message.path("payload").path("$ref").asText();
                JsonNode envelope = document.path("components").path("schemas")
                        .path(ref.substring(ref.lastIndexOf('/') + 1));
                for (JsonNode part : envelope.path("allOf")) {
                    if (part.path("properties").has("data")) {
                        return part.path("properties").path("data");
                    }
                }
            }
        }
        throw new AssertionError("docs/asyncapi.yaml has no message named " + type);
    }

    private static Set<String> properties(Class<?> type) {
        Set<String> names = new TreeSet<>();
        for (BeanPropertyDefinition property : JSON.getSerializationConfig()
                .introspect(JSON.constructType(type)).findProperties()) {
            if (property.couldSerialize()) {
                names.add(property.getName());
            }
        }
        return names;
    }

    private static JsonNode read() {
        try {
            return new ObjectMapper(new YAMLFactory()).readTree(Path.of("../docs/asyncapi.yaml").toFile());
        } catch (IOException e) {
            throw new IllegalStateException("cannot read docs/asyncapi.yaml", e);
        }
    }
}
