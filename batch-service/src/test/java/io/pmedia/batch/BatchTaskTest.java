package io.pmedia.batch;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;

import jakarta.inject.Inject;

import org.eclipse.microprofile.config.ConfigProvider;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;

import io.pmedia.storage.ObjectStore;
import io.pmedia.testing.KafkaEvents;
import io.pmedia.testing.KafkaTestResource;
import io.pmedia.testing.Patience;
import io.pmedia.testing.TestTokens;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;

/** Batch tasks through the real broker, database and store, with a worker double answering the render jobs. */
@QuarkusTest
class BatchTaskTest {

    private static final Duration LONG = Duration.ofSeconds(60);
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
        String file = BatchApi.upload(store, client, """
                user-id,name,offer,image-url
                u-1,Ada,"20% off, today",http://127.0.0.1/a.png
                u-2,Grace,,
                ,Nobody,,
                u-4,Bad,,
                u-5,Beyond the row count,,
                """);
        BatchApi.Answer created = BatchApi.create(client, BatchApi.body(client, "spring", TemplateEndpoint.GREETING,
                file, 4)).is(200);
        assertThat(created.string("client-id")).isEqualTo(client.toString());
        assertThat(created.string("campaign-id")).isEqualTo("spring");
        assertThat(created.string("template-id")).isEqualTo(TemplateEndpoint.GREETING.toString());
        assertThat(created.string("message")).contains("accepted");
        String taskId = created.string("task-id");
        assertThat(TemplateEndpoint.lastAuthorization).as("the vendor's token is passed on").startsWith("Bearer ");

        BatchApi.Answer status = BatchApi.awaitStatus(client, taskId, "COMPLETED");
        assertThat(status.string("task-id")).isEqualTo(taskId);
        assertThat(status.integer("total-count")).isEqualTo(4);
        assertThat(status.integer("processed")).isEqualTo(4);
        // The fifth data row is beyond row-count: said once, after the outcome.
        assertThat(status.string("message")).isEqualTo(
                "2 of 4 rows rendered; the file has 5 data rows: only the first 4 (row-count) are rendered");
        assertThat(status.string("file-path"))
                .isEqualTo("s3://" + store.bucket() + "/batch/" + client + "/" + taskId + "/output.csv");
        assertThat(status.string("file-url")).contains("X-Amz-Signature");

        List<JsonNode> jobs = worker.jobs.stream().filter(job -> job.path("job-id").asText().startsWith(taskId))
                .toList();
        assertThat(jobs).as("rows 1, 2 and 4 are rendered; row 3 has no user-id, row 5 is beyond row-count")
                .hasSize(3);
        JsonNode first = jobs.stream().filter(job -> job.path("job-id").asText().equals(taskId + "/1")).findFirst()
                .orElseThrow();
        assertThat(first.path("reply-to").asText()).isEqualTo("pmedia.batch.render-results");
        assertThat(first.path("lane").asText()).isEqualTo("batch");
        assertThat(first.path("template-version").asInt()).isEqualTo(3);
        assertThat(first.path("template").path("canvas").path("width").asInt()).isEqualTo(320);
        assertThat(first.path("input").path("fields").path("offer").asText()).isEqualTo("20% off, today");
        assertThat(first.path("input").path("images").path(0).asText()).isEqualTo("http://127.0.0.1/a.png");
        assertThat(first.path("output-prefix").asText()).isEqualTo("batch/" + client + "/" + taskId + "/1/");

        String output = BatchApi.output(store, client, taskId);
        List<String> lines = output.lines().toList();
        assertThat(lines.get(0)).isEqualTo("row,user-id,status,video-path,video-url,image-url,share-url,message");
        assertThat(lines).as(output).hasSize(5);
        assertThat(lines.get(1)).startsWith("1,u-1,SUCCESS,s3://" + store.bucket() + "/batch/" + client + "/"
                + taskId + "/1/video.mp4,http");
        assertThat(lines.get(3)).startsWith("3,,FAILURE,,,,,row 3: user-id is empty");
        assertThat(lines.get(4)).contains("4,u-4,FAILURE,,,,,personalization field 'name' cannot be drawn");

        // The topic also carries the rows' share links (io.pmedia.video.shared), keyed by the task too.
        Patience.await().untilAsserted(() -> assertThat(events.withKey(taskId).stream()
                .filter(event -> "io.pmedia.batch.status.changed".equals(event.envelope().path("type").asText()))
                .map(event -> event.data().path("status").asText()).toList())
                .containsExactly("PENDING", "IN PROGRESS", "COMPLETED"));
    }

    /**
     * The retention sweep (docs/sharing.md): a task past its videos' retention loses its rows' objects, and keeps its
     * output file; a task still within its retention keeps everything.
     */
    @Test
    void aTaskPastItsRetentionLosesItsRowsObjectsAndKeepsItsOutputFile() throws Exception {
        UUID client = UUID.randomUUID();
        List<String> tasks = new ArrayList<>();
        for (String campaign : List.of("ended", "kept")) {
            String file = BatchApi.upload(store, client, "user-id,name\nu-1,Ada\nu-2,Grace\n");
            String taskId = BatchApi.accepted(client, BatchApi.body(client, campaign, TemplateEndpoint.GREETING, file,
                    2));
            BatchApi.awaitStatus(client, taskId, "COMPLETED");
            for (String object : List.of("1/video.mp4", "1/thumbnail.jpg", "2/video.mp4", "2/stream/index.m3u8")) {
                store.put("batch/" + client + "/" + taskId + "/" + object, new byte[]{1}, "video/mp4");
            }
            tasks.add(taskId);
        }
        String ended = "batch/" + client + "/" + tasks.get(0) + "/";
        String kept = "batch/" + client + "/" + tasks.get(1) + "/";
        assertThat(BatchApi.first(
                "SELECT expires_at > now() + interval '89 days' FROM batch_task WHERE id = CAST(? AS uuid)",
                tasks.get(0))).as("the default retention, 90 days").isEqualTo("t");

        BatchApi.query("UPDATE batch_task SET expires_at = now() - interval '1 second' WHERE id = CAST(? AS uuid)"
                + " RETURNING id", tasks.get(0));

        // The sweep's transaction commits the mark once the objects are gone: both are awaited.
        Patience.await().untilAsserted(() -> {
            assertThat(store.list(ended)).containsExactly(ended + "output.csv");
            assertThat(BatchApi.first("SELECT videos_deleted_at IS NOT NULL FROM batch_task"
                    + " WHERE id = CAST(? AS uuid)", tasks.get(0))).isEqualTo("t");
        });
        assertThat(store.list(kept)).hasSize(5);
        assertThat(BatchApi.status(client, tasks.get(0)).is(200).string("file-path")).endsWith(ended + "output.csv");
    }

    @Test
    void aFileWithoutAUserIdColumnFailsTheTaskWithAMessageNamingTheProblem() {
        UUID client = UUID.randomUUID();
        String file = BatchApi.upload(store, client, "name,offer\nAda,10%\n");
        String taskId = BatchApi.accepted(client, BatchApi.body(client, "c", TemplateEndpoint.GREETING, file, 1));
        BatchApi.Answer status = BatchApi.awaitStatus(client, taskId, "FAILED");
        assertThat(status.string("message")).isEqualTo("input file: the header line has no 'user-id' column");
        assertThat(status.string("file-path")).isNull();
        assertThat(status.string("file-url")).isNull();
    }

    @Test
    void aFileThatIsNotValidCsvFailsItsTaskAndDoesNotHoldUpTheNext() {
        UUID client = UUID.randomUUID();
        String broken = BatchApi.upload(store, client, "user-id,name\nu-1,\"Ada\n");
        String bad = BatchApi.accepted(client, BatchApi.body(client, "c", TemplateEndpoint.GREETING, broken, 1, 50,
                5));
        String good = BatchApi.accepted(client, BatchApi.body(client, "c", TemplateEndpoint.GREETING,
                BatchApi.upload(store, client, "user-id,name\nu-1,Ada\n"), 1));
        assertThat(BatchApi.awaitStatus(client, bad, "FAILED").string("message"))
                .contains("input file: ").contains("not closed");
        BatchApi.awaitStatus(client, good, "COMPLETED");
    }

    @Test
    void aTaskOfAScheduledCampaignWaitsForItsWindowAndAnEndedCampaignStopsIt() throws Exception {
        UUID client = UUID.randomUUID();
        BatchApi.campaignIs(client, "later", "SCHEDULED");
        BatchApi.campaignIs(client, "over", "SCHEDULED");
        String file = BatchApi.upload(store, client, "user-id,name\nu-1,Ada\nu-2,Grace\n");
        String waiting = BatchApi.accepted(client, BatchApi.body(client, "later", TemplateEndpoint.GREETING, file, 2));
        String stopped = BatchApi.accepted(client, BatchApi.body(client, "over", TemplateEndpoint.GREETING, file, 2));
        // A task without a campaign window, accepted after them, runs to the end while they wait.
        String control = BatchApi.accepted(client, BatchApi.body(client, "none", TemplateEndpoint.GREETING, file, 2));
        BatchApi.awaitStatus(client, control, "COMPLETED");
        BatchApi.Answer held = BatchApi.status(client, waiting);
        assertThat(held.string("status")).isEqualTo("PENDING");
        assertThat(held.integer("processed")).isZero();
        assertThat(BatchApi.status(client, stopped).string("status")).isEqualTo("PENDING");

        BatchApi.campaign(client, "later", "ACTIVE");
        BatchApi.campaign(client, "over", "ENDED");
        assertThat(BatchApi.awaitStatus(client, waiting, "COMPLETED").integer("processed")).isEqualTo(2);
        assertThat(BatchApi.awaitStatus(client, stopped, "FAILED").string("message"))
                .isEqualTo("campaign ended before the task completed");
    }

    @Test
    void aHigherPriorityTaskHasItsRowsSubmittedFirst() throws Exception {
        UUID client = UUID.randomUUID();
        BatchApi.campaignIs(client, "launch", "SCHEDULED");
        // Two files: a second task of one file in one campaign while the first is unfinished is a 409 (issue 20).
        String file = BatchApi.upload(store, client, "user-id,name\nu-1,Ada\nu-2,Grace\n");
        String other = BatchApi.upload(store, client, "user-id,name\nu-3,Linus\nu-4,Ken\n");
        String low = BatchApi.accepted(client, BatchApi.body(client, "launch", TemplateEndpoint.GREETING, file, 2));
        String high = BatchApi.accepted(client, BatchApi.body(client, "launch", TemplateEndpoint.GREETING, other, 2,
                9, 5));
        BatchApi.campaign(client, "launch", "ACTIVE");
        for (String task : List.of(low, high)) {
            BatchApi.awaitStatus(client, task, "COMPLETED");
        }
        // Both rows of the later, higher-priority task are submitted before any of the other's.
        List<String> order = BatchApi.query("SELECT task_id::text FROM batch_row WHERE task_id IN (?::uuid, ?::uuid)"
                + " ORDER BY submitted_at, row_no", low, high);
        assertThat(order).containsExactly(high, high, low, low);
    }

    @Test
    void cancellingStopsATaskOnceAndAnEndedTaskCannotBeCancelled() throws Exception {
        UUID client = UUID.randomUUID();
        BatchApi.campaignIs(client, "paused", "SCHEDULED");
        String file = BatchApi.upload(store, client, "user-id,name\nu-1,Ada\n");
        String taskId = BatchApi.accepted(client, BatchApi.body(client, "paused", TemplateEndpoint.GREETING, file, 1));
        BatchApi.Answer cancelled = BatchApi.cancel(client, taskId).is(200);
        assertThat(cancelled.string("task-id")).isEqualTo(taskId);
        assertThat(cancelled.string("client-id")).isEqualTo(client.toString());
        assertThat(cancelled.string("campaign-id")).isEqualTo("paused");
        assertThat(cancelled.string("template-id")).isEqualTo(TemplateEndpoint.GREETING.toString());
        assertThat(cancelled.string("message")).isEqualTo("task cancelled");
        BatchApi.Answer status = BatchApi.status(client, taskId);
        assertThat(status.string("status")).isEqualTo("FAILED");
        assertThat(status.string("message")).isEqualTo("task cancelled by the client");
        BatchApi.cancel(client, taskId).isError(409, "CONFLICT", "has already ended");
    }

    @Test
    void theSameCreateAgainIsTheSameTaskAndAChangedOneIsAConflictWithOrWithoutAFileName() throws Exception {
        for (boolean named : List.of(true, false)) {
            UUID client = UUID.randomUUID();
            BatchApi.campaignIs(client, "again", "SCHEDULED");
            String file = BatchApi.upload(store, client, "user-id,name\nu-1,Ada\n");
            String body = BatchApi.body(client, "again", TemplateEndpoint.GREETING, file, 1);
            if (!named) {
                body = body.replace("\"file-name\": \"customers.csv\",", "");
            }
            String taskId = BatchApi.accepted(client, body);
            assertThat(BatchApi.accepted(client, body)).as("the same body again").isEqualTo(taskId);
            BatchApi.create(client, body.replace("\"expected-output-duration\": 5", "\"expected-output-duration\": 6"))
                    .isError(409, "CONFLICT", taskId);
            String at = body;
            List<CompletableFuture<BatchApi.Answer>> together = new ArrayList<>();
            for (int i = 0; i < 8; i++) {
                together.add(CompletableFuture.supplyAsync(() -> BatchApi.create(client, at)));
            }
            for (var answer : together) {
                assertThat(answer.get().is(200).string("task-id")).as("eight at once").isEqualTo(taskId);
            }
        }
    }

    @Test
    void anotherClientsTaskIsNotFoundAndAnInvalidTaskIdIsABadRequest() {
        UUID owner = UUID.randomUUID();
        String file = BatchApi.upload(store, owner, "user-id,name\nu-1,Ada\n");
        String taskId = BatchApi.accepted(owner, BatchApi.body(owner, "c", TemplateEndpoint.GREETING, file, 1));
        UUID stranger = UUID.randomUUID();
        BatchApi.status(stranger, taskId).isError(404, "NOT_FOUND", taskId);
        BatchApi.cancel(stranger, taskId).isError(404, "NOT_FOUND", taskId);
        BatchApi.cancel(owner, "not-a-uuid").isError(400, "VALIDATION_ERROR", "not-a-uuid");
        BatchApi.status(owner, "not-a-uuid").isError(400, "VALIDATION_ERROR", "not-a-uuid");
    }

    @Test
    void theFileMayBeNamedByKeyAloneOrByTheStoresOwnUrl() {
        UUID client = UUID.randomUUID();
        String file = BatchApi.upload(store, client, "user-id,name\nu-1,Ada\n");
        String key = file.substring(("s3://" + store.bucket() + "/").length());
        String endpoint = ConfigProvider.getConfig().getValue("pmedia.storage.endpoint", String.class);
        for (String path : List.of(key, store.bucket() + "/" + key, endpoint + "/" + store.bucket() + "/" + key,
                store.publicUrl(key))) {
            assertThat(BatchApi.create(client, BatchApi.body(client, "c", TemplateEndpoint.GREETING, path, 1))
                    .is(200).string("message")).contains(" rows of " + file + " with template");
        }
    }

    @Test
    void anUploadUrlPutsTheFileIntoTheClientsOwnNamespace() throws Exception {
        UUID client = UUID.randomUUID();
        BatchApi.Answer answer = BatchApi.answer(given().header("Authorization", TestTokens.bearer(client))
                .contentType("application/json").body("{\"file-name\": \"customers.csv\"}")
                .post("/media/task/uploads")).is(200);
        assertThat(answer.integer("expires-in")).isEqualTo(900);
        String filePath = answer.string("file-path");
        assertThat(filePath).startsWith("s3://" + store.bucket() + "/inputs/" + client + "/")
                .endsWith("/customers.csv");
        HttpResponse<String> put = HttpClient.newHttpClient().send(
                HttpRequest.newBuilder(URI.create(answer.string("upload-url")))
                        .PUT(HttpRequest.BodyPublishers.ofString("user-id,name\nu-1,Ada\n")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(put.statusCode()).as(put.body()).isEqualTo(200);

        String taskId = BatchApi.accepted(client, BatchApi.body(client, "c", TemplateEndpoint.GREETING, filePath, 1));
        String fileUrl = BatchApi.awaitStatus(client, taskId, "COMPLETED").string("file-url");
        HttpResponse<String> output = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(fileUrl))
                .build(), HttpResponse.BodyHandlers.ofString());
        assertThat(output.statusCode()).isEqualTo(200);
        assertThat(output.body()).contains("\n1,u-1,SUCCESS,");

        for (String name : List.of("../x.csv", "a/b.csv", ".hidden", "x\\u0000.csv", " ")) {
            BatchApi.answer(given().header("Authorization", TestTokens.bearer(client)).contentType("application/json")
                    .body("{\"file-name\": \"" + name + "\"}").post("/media/task/uploads"))
                    .isError(400, "VALIDATION_ERROR", "file-name");
        }
    }

    @Test
    void anotherClientsFilesReadExactlyLikeMissingOnesWhateverTheSpelling() {
        UUID a = UUID.randomUUID();
        UUID b = UUID.randomUUID();
        String file = BatchApi.upload(store, a, "user-id,name\nu-1,Ada\n");
        String key = file.substring(("s3://" + store.bucket() + "/").length());
        String taskId = BatchApi.accepted(a, BatchApi.body(a, "c", TemplateEndpoint.GREETING, file, 1));
        BatchApi.awaitStatus(a, taskId, "COMPLETED");
        String output = "batch/" + a + "/" + taskId + "/output.csv";
        String endpoint = ConfigProvider.getConfig().getValue("pmedia.storage.endpoint", String.class);
        String missing = "inputs/" + b + "/" + UUID.randomUUID() + "/customers.csv";

        for (String path : List.of(file, key, store.bucket() + "/" + key, endpoint + "/" + store.bucket() + "/" + key,
                store.publicUrl(key), "s3://" + store.bucket() + "/" + output, output, store.publicUrl(output),
                "inputs/" + b + "/../" + key.substring("inputs/".length()), missing, "s3://" + store.bucket()
                        + "/" + missing,
                "s3://other-bucket/" + key, "https://elsewhere.example/" + key)) {
            BatchApi.Answer refused = BatchApi.create(b, BatchApi.body(b, "c", TemplateEndpoint.GREETING, path, 1))
                    .isError(404, "NOT_FOUND", "file not found");
            assertThat(refused.string("message")).isEqualTo("file not found: " + path);
        }
    }

    @Test
    void aBodyNamingAnotherClientIsForbidden() {
        UUID client = UUID.randomUUID();
        String file = BatchApi.upload(store, client, "user-id,name\nu-1,Ada\n");
        BatchApi.create(client, BatchApi.body(UUID.randomUUID(), "c", TemplateEndpoint.GREETING, file, 1))
                .isError(403, "FORBIDDEN", "client-id");
        String upperCase = client.toString().toUpperCase(Locale.ROOT);
        BatchApi.create(client, BatchApi.body(client, "c", TemplateEndpoint.GREETING, file, 1)
                .replace("\"client-id\": \"" + client + "\"", "\"client-id\": \"" + upperCase + "\"")).is(200);
    }

    @Test
    void outputCellsThatASpreadsheetWouldRunAreNeutralised() throws Exception {
        UUID client = UUID.randomUUID();
        String file = BatchApi.upload(store, client, """
                user-id,name
                -2+3+cmd|' /C calc'!A0,Ada
                "=HYPERLINK(""http://x"")",Grace
                @SUM(1),Lin
                """);
        String taskId = BatchApi.accepted(client, BatchApi.body(client, "c", TemplateEndpoint.GREETING, file, 3));
        BatchApi.awaitStatus(client, taskId, "COMPLETED");
        String output = BatchApi.output(store, client, taskId);
        assertThat(output).contains("\n1,'-2+3+cmd|' /C calc'!A0,SUCCESS,")
                .contains("\n2,\"'=HYPERLINK(\"\"http://x\"\")\",SUCCESS,")
                .contains("\n3,'@SUM(1),SUCCESS,");
    }

    @Test
    void aMediaOutageIsAFast503WithRetryAfterNeverA500OrAHang() {
        UUID client = UUID.randomUUID();
        String file = BatchApi.upload(store, client, "user-id,name\nu-1,Ada\n");
        for (UUID template : List.of(TemplateEndpoint.UNAVAILABLE, TemplateEndpoint.HANGING)) {
            long started = System.nanoTime();
            Response response = given().header("Authorization", TestTokens.bearer(client))
                    .contentType("application/json").body(BatchApi.body(client, "c", template, file, 1))
                    .post("/media/task/create");
            // The client's bound is 5 s (a hung media-service is given up then, not retried); 503 at once otherwise.
            assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(15));
            BatchApi.answer(response).isError(503, "SERVICE_UNAVAILABLE", "templates cannot be read right now");
            assertThat(response.header("Retry-After")).isEqualTo("5");
        }
    }

    @Test
    void badCreateRequestsAreRefusedWithTheFieldNamed() {
        UUID client = UUID.randomUUID();
        String file = BatchApi.upload(store, client, "user-id,name\nu-1,Ada\n");
        String good = BatchApi.body(client, "c", TemplateEndpoint.GREETING, file, 1);
        record Case(String body, String message) {
        }
        List<Case> cases = List.of(
                new Case(good.replace("\"row-count\": 1", "\"row-count\": 0"), "field 'row-count' must be at least 1"),
                new Case(good.replace("\"expected-output-duration\": 5", "\"expected-output-duration\": 0"),
                        "field 'expected-output-duration' must be at least 1"),
                new Case(good.replace("\"expected-output-duration\": 5", "\"expected-output-duration\": 525601"),
                        "field 'expected-output-duration' must be at most 525600"),
                new Case(good.replace("\"row-count\": 1", "\"row-count\": 1000001"),
                        "field 'row-count' must be at most 1000000"),
                new Case(good.replace("\"campaign-id\": \"c\",", ""), "field 'campaign-id' is required"),
                new Case(good.replace("\"campaign-id\": \"c\"", "\"campaign-id\": \"" + "c".repeat(129) + "\""),
                        "field 'campaign-id' must be at most 128"),
                new Case(good.replace(TemplateEndpoint.GREETING.toString(), "nope"),
                        "field 'template-id' must be a uuid"),
                new Case(good.replace(TemplateEndpoint.GREETING.toString(), UUID.randomUUID().toString()),
                        "is not a template this client may use"),
                new Case(good.replace(file, " "), "field 'file-path' is required"));
        for (Case c : cases) {
            BatchApi.create(client, c.body()).isError(400, "VALIDATION_ERROR", c.message());
        }
        BatchApi.create(client, good.replace("\"row-count\": 1", "\"row-count\": \"1\"")).isError(400, "BAD_REQUEST",
                "row-count");
        BatchApi.create(client, "{").isError(400, "BAD_REQUEST", "");
    }
}
