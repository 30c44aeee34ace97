package io.pmedia.batch;

import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.notNullValue;
import static org.hamcrest.Matchers.nullValue;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.List;
import java.util.UUID;

import jakarta.inject.Inject;

import org.eclipse.microprofile.config.ConfigProvider;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;

import io.pmedia.storage.ObjectStore;
import io.pmedia.testing.KafkaEvents;
import io.pmedia.testing.KafkaTestResource;
import io.quarkus.test.junit.QuarkusTest;

/** Batch tasks through the real broker, database and store, with a worker double answering the render jobs. */
@QuarkusTest
class BatchTaskTest {

    private static RenderWorkerDouble worker;
    private static KafkaEvents events;

    @Inject
    ObjectStore store;

    @BeforeAll
    static void startWorker() {
        worker = new RenderWorkerDouble(KafkaTestResource.bootstrapServers(),
                job -> "Bad".equals(job.path("input").path("fields").path("name").asText())
                        ? "personalization field 'name' cannot be drawn"
                        : null);
        events = KafkaEvents.of(KafkaTestResource.bootstrapServers(), "pmedia.batch.status");
    }

    @AfterAll
    static void stopWorker() throws Exception {
        worker.close();
        events.close();
    }

    @Test
    void everyRowIsRenderedOnTheSharedWorkersAndTheOutputFileHasEachOutcome() throws Exception {
        UUID client = UUID.randomUUID();
        String file = BatchApi.upload(store, """
                user-id,name,offer,image-url
                u-1,Ada,"20% off, today",http://127.0.0.1/a.png
                u-2,Grace,,
                ,Nobody,,
                u-4,Bad,,
                u-5,Beyond the row count,,
                """);
        String taskId = BatchApi.create(client, BatchApi.body(client, "spring", TemplateEndpoint.GREETING, file, 4))
                .statusCode(200).body("client-id", equalTo(client.toString())).body("campaign-id", equalTo("spring"))
                .body("template-id", equalTo(TemplateEndpoint.GREETING.toString()))
                .body("message", containsString("accepted"))
                .extract().path("task-id");
        assertTrue(TemplateEndpoint.lastAuthorization.startsWith("Bearer "), "the vendor's token is passed on");

        await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> BatchApi.status(client, taskId).statusCode(200)
                .body("status", equalTo("COMPLETED")));
        BatchApi.status(client, taskId).body("task-id", equalTo(taskId)).body("total-count", equalTo(4))
                .body("processed", equalTo(4)).body("message", equalTo("2 of 4 rows rendered"))
                .body("file-path", equalTo(store.bucket() + "/batch/" + client + "/" + taskId + "/output.csv"));

        List<JsonNode> jobs = worker.jobs.stream().filter(job -> job.path("job-id").asText().startsWith(taskId))
                .toList();
        assertEquals(3, jobs.size(), "rows 1, 2 and 4 are rendered; row 3 has no user-id, row 5 is beyond row-count");
        JsonNode first = jobs.stream().filter(job -> job.path("job-id").asText().equals(taskId + "/1")).findFirst()
                .orElseThrow();
        assertEquals("pmedia.batch.render-results", first.path("reply-to").asText());
        assertEquals(3, first.path("template-version").asInt());
        assertEquals(320, first.path("template").path("canvas").path("width").asInt());
        assertEquals("20% off, today", first.path("input").path("fields").path("offer").asText());
        assertEquals("http://127.0.0.1/a.png", first.path("input").path("images").path(0).asText());
        assertEquals("batch/" + client + "/" + taskId + "/1/", first.path("output-prefix").asText());

        String output;
        try (InputStream in = store.open("batch/" + client + "/" + taskId + "/output.csv").orElseThrow()) {
            output = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        List<String> lines = output.lines().toList();
        assertEquals("row,user-id,status,video-path,video-url,image-url,message", lines.get(0));
        assertEquals(5, lines.size(), output);
        assertTrue(lines.get(1).startsWith("1,u-1,SUCCESS," + store.bucket() + "/batch/" + client + "/" + taskId
                + "/1/video.mp4,http"), lines.get(1));
        assertTrue(lines.get(3).startsWith("3,,FAILURE,,,,row 3: user-id is empty"), lines.get(3));
        assertTrue(lines.get(4).contains("4,u-4,FAILURE,,,,personalization field 'name' cannot be drawn"),
                lines.get(4));

        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertEquals(
                List.of("PENDING", "IN PROGRESS", "COMPLETED"),
                events.withKey(taskId).stream().map(event -> event.data().path("status").asText()).toList()));
    }

    @Test
    void aFileWithoutAUserIdColumnFailsTheTaskWithAMessageNamingTheProblem() {
        UUID client = UUID.randomUUID();
        String file = BatchApi.upload(store, "name,offer\nAda,10%\n");
        String taskId = BatchApi.create(client, BatchApi.body(client, "c", TemplateEndpoint.GREETING, file, 1))
                .statusCode(200).extract().path("task-id");
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> BatchApi.status(client, taskId)
                .body("status", equalTo("FAILED"))
                .body("message", equalTo("input file: the header line has no 'user-id' column"))
                .body("file-path", nullValue()));
    }

    @Test
    void aFileThatIsNotValidCsvFailsItsTaskAndDoesNotHoldUpTheNext() {
        UUID client = UUID.randomUUID();
        String broken = BatchApi.upload(store, "user-id,name\nu-1,\"Ada\n");
        String bad = BatchApi.create(client, BatchApi.body(client, "c", TemplateEndpoint.GREETING, broken, 1)
                .replace("\"priority\": 1", "\"priority\": 50")).statusCode(200).extract().path("task-id");
        String good = BatchApi.create(client, BatchApi.body(client, "c", TemplateEndpoint.GREETING,
                BatchApi.upload(store, "user-id,name\nu-1,Ada\n"), 1)).statusCode(200).extract().path("task-id");
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> BatchApi.status(client, bad)
                .body("status", equalTo("FAILED"))
                .body("message", containsString("input file: ")).body("message", containsString("not closed")));
        await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> BatchApi.status(client, good)
                .body("status", equalTo("COMPLETED")));
    }

    @Test
    void aTaskOfAScheduledCampaignWaitsForItsWindowAndAnEndedCampaignStopsIt() throws Exception {
        UUID client = UUID.randomUUID();
        BatchApi.campaign(client, "later", "SCHEDULED");
        BatchApi.campaign(client, "over", "SCHEDULED");
        awaitCampaign(client, "later", "SCHEDULED");
        awaitCampaign(client, "over", "SCHEDULED");
        String file = BatchApi.upload(store, "user-id,name\nu-1,Ada\nu-2,Grace\n");
        String waiting = BatchApi.create(client, BatchApi.body(client, "later", TemplateEndpoint.GREETING, file, 2))
                .statusCode(200).extract().path("task-id");
        String stopped = BatchApi.create(client, BatchApi.body(client, "over", TemplateEndpoint.GREETING, file, 2))
                .statusCode(200).extract().path("task-id");
        // A task without a campaign window, accepted after them, runs to the end while they wait.
        String control = BatchApi.create(client, BatchApi.body(client, "none", TemplateEndpoint.GREETING, file, 2))
                .statusCode(200).extract().path("task-id");
        await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> BatchApi.status(client, control)
                .body("status", equalTo("COMPLETED")));
        BatchApi.status(client, waiting).body("status", equalTo("PENDING")).body("processed", equalTo(0));
        BatchApi.status(client, stopped).body("status", equalTo("PENDING"));

        BatchApi.campaign(client, "later", "ACTIVE");
        BatchApi.campaign(client, "over", "ENDED");
        await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> BatchApi.status(client, waiting)
                .body("status", equalTo("COMPLETED")).body("processed", equalTo(2)));
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> BatchApi.status(client, stopped)
                .body("status", equalTo("FAILED"))
                .body("message", equalTo("campaign ended before the task completed")));
    }

    @Test
    void aHigherPriorityTaskHasItsRowsSubmittedFirst() throws Exception {
        UUID client = UUID.randomUUID();
        BatchApi.campaign(client, "launch", "SCHEDULED");
        awaitCampaign(client, "launch", "SCHEDULED");
        String file = BatchApi.upload(store, "user-id,name\nu-1,Ada\nu-2,Grace\n");
        String low = BatchApi.create(client, BatchApi.body(client, "launch", TemplateEndpoint.GREETING, file, 2))
                .statusCode(200).extract().path("task-id");
        String high = BatchApi.create(client, BatchApi.body(client, "launch", TemplateEndpoint.GREETING, file, 2)
                .replace("\"priority\": 1", "\"priority\": 9")).statusCode(200).extract().path("task-id");
        BatchApi.campaign(client, "launch", "ACTIVE");
        for (String task : List.of(low, high)) {
            await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> BatchApi.status(client, task)
                    .body("status", equalTo("COMPLETED")));
        }
        // The window (2 in flight) takes both rows of the later, higher-priority task before any of the other's.
        List<String> order = query("SELECT task_id::text FROM batch_row WHERE task_id IN (?::uuid, ?::uuid)"
                + " ORDER BY submitted_at, row_no", low, high);
        assertEquals(List.of(high, high, low, low), order);
    }

    @Test
    void cancellingStopsATaskOnceAndAnEndedTaskCannotBeCancelled() throws Exception {
        UUID client = UUID.randomUUID();
        BatchApi.campaign(client, "paused", "SCHEDULED");
        awaitCampaign(client, "paused", "SCHEDULED");
        String file = BatchApi.upload(store, "user-id,name\nu-1,Ada\n");
        String taskId = BatchApi.create(client, BatchApi.body(client, "paused", TemplateEndpoint.GREETING, file, 1))
                .statusCode(200).extract().path("task-id");
        BatchApi.cancel(client, taskId).statusCode(200).body("task-id", equalTo(taskId))
                .body("client-id", equalTo(client.toString())).body("campaign-id", equalTo("paused"))
                .body("template-id", equalTo(TemplateEndpoint.GREETING.toString()))
                .body("message", equalTo("task cancelled"));
        BatchApi.status(client, taskId).body("status", equalTo("FAILED"))
                .body("message", equalTo("task cancelled by the client"));
        BatchApi.cancel(client, taskId).statusCode(409).body("code", equalTo("CONFLICT"))
                .body("message", containsString("has already ended"));
    }

    @Test
    void anotherClientsTaskIsNotFoundAndAnInvalidTaskIdIsABadRequest() {
        UUID owner = UUID.randomUUID();
        String file = BatchApi.upload(store, "user-id,name\nu-1,Ada\n");
        String taskId = BatchApi.create(owner, BatchApi.body(owner, "c", TemplateEndpoint.GREETING, file, 1))
                .statusCode(200).extract().path("task-id");
        UUID stranger = UUID.randomUUID();
        BatchApi.status(stranger, taskId).statusCode(404).body("code", equalTo("NOT_FOUND"));
        BatchApi.cancel(stranger, taskId).statusCode(404).body("code", equalTo("NOT_FOUND"));
        BatchApi.cancel(owner, "not-a-uuid").statusCode(400).body("error", equalTo(true))
                .body("code", equalTo("VALIDATION_ERROR")).body("message", containsString("not-a-uuid"))
                .body("timestamp", notNullValue());
        BatchApi.status(owner, "not-a-uuid").statusCode(400).body("code", equalTo("VALIDATION_ERROR"));
    }

    @Test
    void theFileMayBeNamedByKeyAloneOrByTheStoresOwnUrl() {
        UUID client = UUID.randomUUID();
        String file = BatchApi.upload(store, "user-id,name\nu-1,Ada\n");
        String key = file.substring(store.bucket().length() + 1);
        String endpoint = ConfigProvider.getConfig().getValue("pmedia.storage.endpoint", String.class);
        for (String path : List.of(key, "s3://" + file, endpoint + "/" + file)) {
            BatchApi.create(client, BatchApi.body(client, "c", TemplateEndpoint.GREETING, file, 1).replace(
                    "\"file-path\": \"" + file + "\"", "\"file-path\": \"" + path + "\"")).statusCode(200)
                    .body("message", containsString(" rows of " + file + " with template"));
        }
    }

    @Test
    void badCreateRequestsAreRefusedWithTheFieldNamed() {
        UUID client = UUID.randomUUID();
        String file = BatchApi.upload(store, "user-id,name\nu-1,Ada\n");
        String good = BatchApi.body(client, "c", TemplateEndpoint.GREETING, file, 1);
        record Case(String body, String message) {
        }
        List<Case> cases = List.of(
                new Case(good.replace("\"row-count\": 1", "\"row-count\": 0"), "field 'row-count' must be at least 1"),
                new Case(good.replace("\"expected-output-duration\": 5", "\"expected-output-duration\": 0"),
                        "field 'expected-output-duration' must be at least 1"),
                new Case(good.replace("\"campaign-id\": \"c\",", ""), "field 'campaign-id' is required"),
                new Case(good.replace(TemplateEndpoint.GREETING.toString(), "nope"),
                        "field 'template-id' must be a uuid"),
                new Case(good.replace(TemplateEndpoint.GREETING.toString(), UUID.randomUUID().toString()),
                        "is not a template this client may use"),
                new Case(good.replace(file, "s3://no-key"), "field 'file-path' must be an object-storage path"),
                new Case(good.replace(file, "https://elsewhere.example/" + file),
                        "field 'file-path' must be an object-storage path"),
                new Case(good.replace(file, store.bucket() + "/inputs/missing.csv"), "does not exist"),
                new Case(good.replace(client.toString(), UUID.randomUUID().toString()), "field 'client-id'"));
        for (Case c : cases) {
            BatchApi.create(client, c.body()).statusCode(400).body("code", equalTo("VALIDATION_ERROR"))
                    .body("message", containsString(c.message()));
        }
        BatchApi.create(client, good.replace("\"row-count\": 1", "\"row-count\": \"1\"")).statusCode(400)
                .body("code", equalTo("BAD_REQUEST")).body("message", containsString("row-count"));
        BatchApi.create(client, "{").statusCode(400).body("code", equalTo("BAD_REQUEST"));
    }

    private static Connection database() throws Exception {
        var config = ConfigProvider.getConfig();
        return DriverManager.getConnection(config.getValue("quarkus.datasource.jdbc.url", String.class),
                config.getValue("quarkus.datasource.username", String.class),
                config.getOptionalValue("quarkus.datasource.password", String.class).orElse(""));
    }

    private static List<String> query(String sql, String... parameters) throws Exception {
        try (Connection db = database(); PreparedStatement query = db.prepareStatement(sql)) {
            for (int i = 0; i < parameters.length; i++) {
                query.setString(i + 1, parameters[i]);
            }
            List<String> values = new java.util.ArrayList<>();
            try (ResultSet rows = query.executeQuery()) {
                while (rows.next()) {
                    values.add(rows.getString(1));
                }
            }
            return values;
        }
    }

    private static void awaitCampaign(UUID client, String campaign, String status) throws Exception {
        try (Connection db = database();
                PreparedStatement query = db.prepareStatement(
                        "SELECT status FROM campaign_window WHERE client_id = ? AND campaign_id = ?")) {
            query.setObject(1, client);
            query.setString(2, campaign);
            await().atMost(Duration.ofSeconds(30)).until(() -> {
                try (ResultSet row = query.executeQuery()) {
                    return row.next() && status.equals(row.getString(1));
                }
            });
        }
    }
}
