package io.pmedia.batch;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.UUID;

import jakarta.inject.Inject;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;

import io.pmedia.storage.ObjectStore;
import io.pmedia.testing.KafkaTestResource;
import io.quarkus.test.junit.QuarkusTest;

/**
 * What a vendor's file means (docs/batch.md, "The input file"): {@code row-count} is the number of data rows declared,
 * columns no template field uses are ignored and named, values are text. Real broker, database and store.
 */
@QuarkusTest
class InputRulesTest {

    private static final Duration LONG = Duration.ofSeconds(60);
    private static RenderWorkerDouble worker;

    @Inject
    ObjectStore store;

    @BeforeAll
    static void startWorker() {
        worker = new RenderWorkerDouble(KafkaTestResource.bootstrapServers(), job -> null);
    }

    @AfterAll
    static void stopWorker() throws Exception {
        worker.close();
    }

    @Test
    void aFileWithFewerDataRowsThanDeclaredFailsBeforeAnythingIsRendered() throws Exception {
        UUID client = UUID.randomUUID();
        // A truncated upload: 3 of the 8 rows declared.
        String file = BatchApi.upload(store, client, "user-id,name\nu-1,Ada\nu-2,Grace\n\nu-3,Lin\n");
        String taskId = BatchApi.accepted(client, BatchApi.body(client, "c", TemplateEndpoint.GREETING, file, 8));
        BatchApi.Answer status = BatchApi.awaitStatus(client, taskId, "FAILED");
        assertThat(status.string("message"))
                .isEqualTo("input file: it has 3 data rows, fewer than the row-count of 8; nothing was rendered");
        assertThat(status.integer("processed")).isZero();
        assertThat(status.string("file-path")).isNull();
        assertThat(BatchApi.query("SELECT count(*) FROM batch_row WHERE task_id = ?::uuid", taskId))
                .as("no row is kept").containsExactly("0");
        assertThat(worker.jobs).noneMatch(job -> job.path("job-id").asText().startsWith(taskId));
    }

    @Test
    void aFileWithMoreDataRowsRendersTheDeclaredOnesAndSaysSo() throws Exception {
        UUID client = UUID.randomUUID();
        String file = BatchApi.upload(store, client, "user-id,name\nu-1,Ada\nu-2,Grace\nu-3,Lin\n");
        String taskId = BatchApi.accepted(client, BatchApi.body(client, "c", TemplateEndpoint.GREETING, file, 2));
        BatchApi.Answer status = BatchApi.awaitStatus(client, taskId, "COMPLETED");
        assertThat(status.integer("total-count")).isEqualTo(2);
        assertThat(status.string("message")).isEqualTo(
                "2 of 2 rows rendered; the file has 3 data rows: only the first 2 (row-count) are rendered");
        assertThat(BatchApi.output(store, client, taskId).lines()).hasSize(3).noneMatch(line -> line.contains("u-3"));
    }

    @Test
    void columnsNoTemplateFieldUsesAreIgnoredAndNamedOnce() throws Exception {
        UUID client = UUID.randomUUID();
        String file = BatchApi.upload(store, client, """
                user-id,name,color,image-url-2,Size
                u-1,Ada,red,http://127.0.0.1/2.png,XL
                u-2,Grace,blue,,M
                """);
        String taskId = BatchApi.accepted(client, BatchApi.body(client, "c", TemplateEndpoint.GREETING, file, 2));
        String message = BatchApi.awaitStatus(client, taskId, "COMPLETED").string("message");
        assertThat(message).isEqualTo(
                "2 of 2 rows rendered; columns no template field uses were ignored: 'color', 'image-url-2', 'size'");
        assertThat(message.split("'color'", -1)).as("named once").hasSize(2);
        JsonNode job = job(taskId, 1);
        assertThat(job.path("input").path("fields").fieldNames()).toIterable().containsExactly("name");
        assertThat(job.path("input").path("images").size()).isZero();
    }

    @Test
    void numbersAndBooleansAreRenderedAsTheirTextAndAnEmptyCellIsAnAbsentField() throws Exception {
        UUID client = UUID.randomUUID();
        String file = BatchApi.upload(store, client, "user-id,name,offer\nu-1,42,true\nu-2,3.50,\n");
        String taskId = BatchApi.accepted(client, BatchApi.body(client, "c", TemplateEndpoint.GREETING, file, 2));
        BatchApi.awaitStatus(client, taskId, "COMPLETED");
        JsonNode first = job(taskId, 1).path("input").path("fields");
        assertThat(first.path("name").isTextual()).isTrue();
        assertThat(first.path("name").asText()).isEqualTo("42");
        assertThat(first.path("offer").asText()).isEqualTo("true");
        JsonNode second = job(taskId, 2).path("input").path("fields");
        assertThat(second.path("name").asText()).isEqualTo("3.50");
        assertThat(second.has("offer")).as("an empty cell is an absent field").isFalse();
    }

    @Test
    void eachLineOfTheOutputFileHasItsRowsOwnStatusAndMessage() throws Exception {
        UUID client = UUID.randomUUID();
        String file = BatchApi.upload(store, client, "user-id,name\nu-1,Ada\nu-2,Grace,too,many\n,Lin\n");
        String taskId = BatchApi.accepted(client, BatchApi.body(client, "c", TemplateEndpoint.GREETING, file, 3));
        BatchApi.awaitStatus(client, taskId, "COMPLETED");
        List<String> lines = BatchApi.output(store, client, taskId).lines().toList();
        assertThat(lines).hasSize(4);
        assertThat(lines.get(1)).startsWith("1,u-1,SUCCESS,s3://").endsWith(",video ready");
        assertThat(lines.get(2)).isEqualTo("2,u-2,FAILURE,,,,,\"row 2 has 4 fields, the header 2\"");
        assertThat(lines.get(3)).isEqualTo("3,,FAILURE,,,,,row 3: user-id is empty");
    }

    private static JsonNode job(String taskId, int row) {
        return worker.jobs.stream().filter(job -> job.path("job-id").asText().equals(taskId + "/" + row))
                .findFirst().orElseThrow();
    }
}
