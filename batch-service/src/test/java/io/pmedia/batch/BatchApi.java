package io.pmedia.batch;

import static io.restassured.RestAssured.given;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Properties;
import java.util.UUID;

import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;

import io.pmedia.storage.ObjectStore;
import io.pmedia.testing.KafkaTestResource;
import io.pmedia.testing.TestTokens;
import io.restassured.response.ValidatableResponse;

/** What the batch tests share: uploading input files, calling the API, and publishing campaign events. */
final class BatchApi {

    private BatchApi() {
    }

    /** Uploads {@code csv} to the test bucket; returns its file-path. */
    static String upload(ObjectStore store, String csv) {
        String key = "inputs/" + UUID.randomUUID() + ".csv";
        store.put(key, csv.getBytes(StandardCharsets.UTF_8), "text/csv");
        return store.bucket() + "/" + key;
    }

    static String body(UUID client, String campaign, UUID template, String filePath, int rows) {
        return """
                {"client-id": "%s", "campaign-id": "%s", "template-id": "%s", "file-name": "customers.csv",
                 "file-path": "%s", "priority": 1, "row-count": %d, "expected-output-duration": 5}"""
                .formatted(client, campaign, template, filePath, rows);
    }

    static ValidatableResponse create(UUID client, String body) {
        return given().header("Authorization", TestTokens.bearer(client)).contentType("application/json").body(body)
                .post("/media/task/create").then();
    }

    static ValidatableResponse status(UUID client, String taskId) {
        return given().header("Authorization", TestTokens.bearer(client)).get("/media/task/status/" + taskId).then();
    }

    static ValidatableResponse cancel(UUID client, String taskId) {
        return given().header("Authorization", TestTokens.bearer(client)).post("/media/task/cancel/" + taskId).then();
    }

    /** Publishes a campaign status event as campaign-service does (docs/events.md). */
    static void campaign(UUID client, String campaign, String status) {
        Properties props = new Properties();
        props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, KafkaTestResource.bootstrapServers());
        props.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
        props.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
        String key = client + "/" + campaign;
        String event = """
                {"specversion": "1.0", "id": "%s", "source": "/pmedia/campaign-service",
                 "type": "io.pmedia.campaign.status.changed", "time": "%s", "subject": "%s",
                 "data": {"client-id": "%s", "campaign_id": "%s", "status": "%s"}}"""
                .formatted(UUID.randomUUID(), Instant.now(), key, client, campaign, status);
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(props)) {
            producer.send(new ProducerRecord<>("pmedia.campaign.status", key, event)).get();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
