package io.pmedia.batch;

import static org.assertj.core.api.Assertions.assertThat;

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
            String file = BatchApi.upload(store, client, "user-id,name\nu-1,Ada\nu-2,Lost\n");
            String taskId = BatchApi.accepted(client, BatchApi.body(client, "c", TemplateEndpoint.GREETING, file, 2));
            BatchApi.Answer status = BatchApi.awaitStatus(client, taskId, "COMPLETED");
            assertThat(status.integer("processed")).isEqualTo(2);
            assertThat(status.string("message")).isEqualTo("1 of 2 rows rendered");
            assertThat(worker.jobs.stream().filter(job -> job.path("job-id").asText().equals(taskId + "/2")))
                    .as("the lost row was submitted twice (max-attempts 2)").hasSize(2);
            assertThat(BatchApi.output(store, client, taskId))
                    .contains("2,u-2,FAILURE,,,,,render did not complete after 2 attempts");
        }
    }
}
