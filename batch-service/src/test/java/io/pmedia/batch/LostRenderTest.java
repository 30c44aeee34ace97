package io.pmedia.batch;

import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.util.Map;
import java.util.UUID;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import io.pmedia.storage.ObjectStore;
import io.pmedia.testing.KafkaTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;

/** A row whose render never answers is submitted again, then fails; the task still ends. */
@QuarkusTest
@TestProfile(LostRenderTest.QuickResubmission.class)
class LostRenderTest {

    public static class QuickResubmission implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("pmedia.batch.resubmit-after", "1s", "pmedia.batch.max-attempts", "2");
        }
    }

    @Inject
    ObjectStore store;

    @Test
    void aLostRowIsResubmittedOnceThenFailsAndTheTaskEnds() throws Exception {
        UUID client = UUID.randomUUID();
        try (RenderWorkerDouble worker = new RenderWorkerDouble(KafkaTestResource.bootstrapServers(),
                job -> "Lost".equals(job.path("input").path("fields").path("name").asText())
                        ? RenderWorkerDouble.DROP
                        : null)) {
            String file = BatchApi.upload(store, "user-id,name\nu-1,Ada\nu-2,Lost\n");
            String taskId = BatchApi.create(client, BatchApi.body(client, "c", TemplateEndpoint.GREETING, file, 2))
                    .statusCode(200).extract().path("task-id");
            await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> BatchApi.status(client, taskId)
                    .body("status", equalTo("COMPLETED")).body("processed", equalTo(2))
                    .body("message", equalTo("1 of 2 rows rendered")));
            assertEquals(2, worker.jobs.stream().filter(job -> job.path("job-id").asText().equals(taskId + "/2"))
                    .count(), "the lost row was submitted twice (max-attempts 2)");
            String output = new String(store.open("batch/" + client + "/" + taskId + "/output.csv").orElseThrow()
                    .readAllBytes());
            org.junit.jupiter.api.Assertions.assertTrue(
                    output.contains("2,u-2,FAILURE,,,,render did not complete after 2 attempts"), output);
        }
    }
}
