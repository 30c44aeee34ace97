package io.pmedia.batch;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.UUID;

import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.eclipse.microprofile.config.ConfigProvider;

import io.pmedia.storage.ObjectStore;
import io.pmedia.testing.KafkaTestResource;
import io.pmedia.testing.Patience;
import io.pmedia.testing.TestTokens;
import io.restassured.path.json.JsonPath;
import io.restassured.response.Response;

/**
 * What the batch tests share: uploading input files, calling the API (answers as {@link Answer}, asserted with
 * AssertJ), awaiting a status, reading output files and rows, and publishing campaign events.
 */
final class BatchApi {

    /** An HTTP answer: its status code and its JSON body. */
    record Answer(int status, JsonPath json) {

        String string(String path) {
            return json.getString(path);
        }

        int integer(String path) {
            return json.getInt(path);
        }

        /** Asserts the status code (showing the body when it differs) and returns itself. */
        Answer is(int expected) {
            assertThat(status).as(json.prettify()).isEqualTo(expected);
            return this;
        }

        /** Asserts a 2.11 error body with {@code code} and a message containing {@code message}. */
        Answer isError(int expected, String code, String message) {
            is(expected);
            assertThat(json.getBoolean("error")).isTrue();
            assertThat(string("code")).isEqualTo(code);
            assertThat(string("message")).contains(message);
            assertThat(string("timestamp")).isNotBlank();
            return this;
        }
    }

    private BatchApi() {
    }

    /** Puts {@code csv} into {@code client}'s input namespace of the test bucket; returns its file-path. */
    static String upload(ObjectStore store, UUID client, String csv) {
        String key = "inputs/" + client + "/" + UUID.randomUUID() + "/customers.csv";
        store.put(key, csv.getBytes(StandardCharsets.UTF_8), "text/csv");
        return store.s3Path(key);
    }

    /** An input file of {@code count} customers ({@code user-id,name}) in {@code client}'s namespace; its file-path. */
    static String customers(ObjectStore store, UUID client, int count) {
        StringBuilder csv = new StringBuilder("user-id,name\n");
        for (int i = 1; i <= count; i++) {
            csv.append("u-").append(i).append(",Customer ").append(i).append('\n');
        }
        return upload(store, client, csv.toString());
    }

    static String body(UUID client, String campaign, UUID template, String filePath, int rows) {
        return body(client, campaign, template, filePath, rows, 1, 5);
    }

    static String body(UUID client, String campaign, UUID template, String filePath, int rows, int priority,
            int minutes) {
        return """
                {"client-id": "%s", "campaign-id": "%s", "template-id": "%s", "file-name": "customers.csv",
                 "file-path": "%s", "priority": %d, "row-count": %d, "expected-output-duration": %d}"""
                .formatted(client, campaign, template, filePath, priority, rows, minutes);
    }

    /** {@code body} with {@code "render": render}. */
    static String render(String body, String render) {
        return body.replace("\"priority\"", "\"render\": \"" + render + "\", \"priority\"");
    }

    static Answer create(UUID client, String body) {
        return answer(given().header("Authorization", TestTokens.bearer(client)).contentType("application/json")
                .body(body).post("/media/task/create"));
    }

    /** Creates a task that must be accepted; its task-id. */
    static String accepted(UUID client, String body) {
        return create(client, body).is(200).string("task-id");
    }

    static Answer status(UUID client, String taskId) {
        return answer(given().header("Authorization", TestTokens.bearer(client)).get("/media/task/status/" + taskId));
    }

    static Answer cancel(UUID client, String taskId) {
        return answer(given().header("Authorization", TestTokens.bearer(client))
                .post("/media/task/cancel/" + taskId));
    }

    /** Waits until the task has {@code status}; its status answer then. */
    static Answer awaitStatus(UUID client, String taskId, String status) {
        Patience.await().untilAsserted(() -> assertThat(status(client, taskId).string("status"))
                .isEqualTo(status));
        return status(client, taskId);
    }

    static Answer answer(Response response) {
        String body = response.asString();
        return new Answer(response.statusCode(), new JsonPath(body.isEmpty() ? "{}" : body));
    }

    /** The task's output file, as text. */
    static String output(ObjectStore store, UUID client, String taskId) throws Exception {
        try (InputStream in = store.open("batch/" + client + "/" + taskId + "/output.csv").orElseThrow()) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    /** Publishes a campaign status event as campaign-service did before campaigns had a render (docs/events.md). */
    static void campaign(UUID client, String campaign, String status) {
        campaign(client, campaign, status, null);
    }

    /** Publishes a campaign status event as campaign-service does (docs/events.md); {@code render} null: none. */
    static void campaign(UUID client, String campaign, String status, String render) {
        Properties props = new Properties();
        props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, KafkaTestResource.bootstrapServers());
        props.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
        props.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
        String key = client + "/" + campaign;
        String event = """
                {"specversion": "1.0", "id": "%s", "source": "/pmedia/campaign-service",
                 "type": "io.pmedia.campaign.status.changed", "time": "%s", "subject": "%s",
                 "data": {"client-id": "%s", "campaign_id": "%s", "status": "%s"%s}}"""
                .formatted(UUID.randomUUID(), Instant.now(), key, client, campaign, status,
                        render == null ? "" : ", \"render\": \"" + render + "\"");
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(props)) {
            producer.send(new ProducerRecord<>("pmedia.campaign.status", key, event)).get();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    /** Publishes a campaign event and waits until batch-service has it. */
    static void campaignIs(UUID client, String campaign, String status) throws Exception {
        campaignIs(client, campaign, status, null);
    }

    /** Publishes a campaign event with {@code render} (null: none, which is now); waits until batch-service has it. */
    static void campaignIs(UUID client, String campaign, String status, String render) throws Exception {
        campaign(client, campaign, status, render);
        String known = status + "/" + (render == null ? "now" : render);
        Patience.await().until(() -> known.equals(first("SELECT status || '/' || render FROM campaign_window"
                + " WHERE client_id = ?::uuid AND campaign_id = ?", client.toString(), campaign)));
    }

    static Connection database() throws Exception {
        var config = ConfigProvider.getConfig();
        return DriverManager.getConnection(config.getValue("quarkus.datasource.jdbc.url", String.class),
                config.getValue("quarkus.datasource.username", String.class),
                config.getOptionalValue("quarkus.datasource.password", String.class).orElse(""));
    }

    /** The first column of every row {@code sql} returns, as text. */
    static List<String> query(String sql, String... parameters) throws Exception {
        try (Connection db = database(); PreparedStatement query = db.prepareStatement(sql)) {
            for (int i = 0; i < parameters.length; i++) {
                query.setString(i + 1, parameters[i]);
            }
            List<String> values = new ArrayList<>();
            try (ResultSet rows = query.executeQuery()) {
                while (rows.next()) {
                    values.add(rows.getString(1));
                }
            }
            return values;
        }
    }

    static String first(String sql, String... parameters) throws Exception {
        List<String> values = query(sql, parameters);
        return values.isEmpty() ? null : values.get(0);
    }
}
