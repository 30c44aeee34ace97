package io.pmedia.batch;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import jakarta.inject.Inject;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import io.pmedia.storage.ObjectStore;
import io.pmedia.testing.KafkaTestResource;
import io.pmedia.testing.TestTokens;
import io.quarkus.test.junit.QuarkusTest;

/**
 * GET /media/tasks: a vendor's own batch tasks with their progress, newest first, a page at a time, filtered by status,
 * campaign, template and creation time; never another vendor's.
 */
@QuarkusTest
class TaskListTest {

    private static final Duration LONG = Duration.ofSeconds(60);
    private static final String CSV = "user-id,name\nu-1,Ada\nu-2,Grace\n";
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

    private static BatchApi.Answer list(UUID client, String query) {
        return BatchApi.answer(given().header("Authorization", TestTokens.bearer(client)).urlEncodingEnabled(false)
                .get("/media/tasks" + query));
    }

    private static List<String> all(UUID client, String filters, int limit) {
        List<String> ids = new ArrayList<>();
        String cursor = null;
        do {
            BatchApi.Answer page = list(client,
                    "?limit=" + limit + filters + (cursor == null ? "" : "&cursor=" + cursor))
                    .is(200);
            assertThat(page.json().getList("items")).hasSizeLessThanOrEqualTo(limit);
            ids.addAll(page.json().getList("items.task-id"));
            cursor = page.string("next-cursor");
        } while (cursor != null);
        return ids;
    }

    @Test
    void aVendorPagesThroughItsOwnTasksWithTheirProgressAndFiltersThem() {
        UUID vendor = UUID.randomUUID();
        UUID other = UUID.randomUUID();
        Instant before = Instant.now();
        String spring1 = BatchApi.accepted(vendor, BatchApi.body(vendor, "spring", TemplateEndpoint.GREETING,
                BatchApi.upload(store, vendor, CSV), 2));
        String summer = BatchApi.accepted(vendor, BatchApi.body(vendor, "summer", TemplateEndpoint.GREETING,
                BatchApi.upload(store, vendor, CSV), 2));
        // declares more rows than its file has: it fails when the file is read
        String short3 = BatchApi.accepted(vendor, BatchApi.body(vendor, "spring", TemplateEndpoint.GREETING,
                BatchApi.upload(store, vendor, CSV), 3));
        String others = BatchApi.accepted(other, BatchApi.body(other, "spring", TemplateEndpoint.GREETING,
                BatchApi.upload(store, other, CSV), 2));
        BatchApi.awaitStatus(vendor, spring1, "COMPLETED");
        BatchApi.awaitStatus(vendor, summer, "COMPLETED");
        BatchApi.awaitStatus(vendor, short3, "FAILED");

        List<String> newestFirst = List.of(short3, summer, spring1);
        assertThat(all(vendor, "", 1)).containsExactlyElementsOf(newestFirst);
        assertThat(all(vendor, "", 2)).containsExactlyElementsOf(newestFirst);
        assertThat(all(vendor, "&status=COMPLETED", 1)).containsExactly(summer, spring1);
        assertThat(all(vendor, "&status=FAILED", 5)).containsExactly(short3);
        assertThat(all(vendor, "&status=IN%20PROGRESS", 5)).isEmpty();
        assertThat(all(vendor, "&campaign-id=spring", 5)).containsExactly(short3, spring1);
        assertThat(all(vendor, "&template-id=" + TemplateEndpoint.GREETING, 5)).hasSize(3);
        assertThat(all(vendor, "&template-id=" + UUID.randomUUID(), 5)).isEmpty();
        assertThat(all(vendor, "&from=" + before, 5)).hasSize(3);
        assertThat(all(vendor, "&to=" + before, 5)).isEmpty();
        assertThat(all(other, "", 5)).containsExactly(others);

        BatchApi.Answer completed = list(vendor, "?campaign-id=summer").is(200);
        assertThat(completed.string("items[0].task-id")).isEqualTo(summer);
        assertThat(completed.string("items[0].status")).isEqualTo("COMPLETED");
        assertThat(completed.integer("items[0].total-count")).isEqualTo(2);
        assertThat(completed.integer("items[0].processed")).isEqualTo(2);
        assertThat(completed.string("items[0].file-path")).startsWith("s3://").endsWith("/output.csv");
        assertThat(completed.string("items[0].file-url")).startsWith("http");
        assertThat(completed.string("items[0].input-file-path")).startsWith("s3://");
        assertThat(completed.integer("items[0].row-count")).isEqualTo(2);
        assertThat(completed.string("items[0].template-id")).isEqualTo(TemplateEndpoint.GREETING.toString());
        assertThat(completed.string("items[0].due-at")).isNotNull();
        assertThat(Instant.parse(completed.string("items[0].ended-at")))
                .isAfterOrEqualTo(Instant.parse(completed.string("items[0].created-at")));
        // what the status endpoint says, the list says
        BatchApi.Answer status = BatchApi.status(vendor, summer).is(200);
        for (String field : List.of("status", "file-path", "total-count", "processed")) {
            assertThat(completed.string("items[0]." + field)).as(field).isEqualTo(status.string(field));
        }

        String cursor = list(vendor, "?limit=1").is(200).string("next-cursor");
        assertThat(list(other, "?cursor=" + cursor).is(200).json().getList("items.task-id"))
                .doesNotContainAnyElementsOf(newestFirst);
        BatchApi.status(other, summer).isError(404, "NOT_FOUND", "not found");
    }

    @Test
    void aWrongParameterIs400NamingIt() {
        UUID vendor = UUID.randomUUID();
        String foreign = Base64.getUrlEncoder().withoutPadding()
                .encodeToString("1764230400000000:my-campaign".getBytes());
        for (var wrong : Map.of("?limit=0", "'limit'", "?limit=1000", "'limit'", "?cursor=%25%25", "'cursor'",
                "?cursor=" + foreign, "'cursor'", "?status=CANCELLED", "'status'", "?template-id=nope",
                "'template-id'", "?from=soon", "'from'", "?to=2026-02-30", "'to'").entrySet()) {
            list(vendor, wrong.getKey()).isError(400, "VALIDATION_ERROR", wrong.getValue());
        }
        BatchApi.Answer empty = list(vendor, "").is(200);
        assertThat(empty.json().getList("items")).isEmpty();
        assertThat(empty.json().getMap("")).containsEntry("next-cursor", null);
    }
}
