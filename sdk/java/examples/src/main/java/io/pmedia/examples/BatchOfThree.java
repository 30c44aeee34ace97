package io.pmedia.examples;

import java.nio.charset.StandardCharsets;
import java.util.UUID;
import java.util.function.Consumer;

import io.pmedia.client.PmediaClient;
import io.pmedia.client.model.TaskCreateRequest;
import io.pmedia.client.model.TaskCreateResponse;
import io.pmedia.client.model.TaskStatus;

/** A batch of three rows: the file uploaded, the task created and waited for, the output file read. */
public final class BatchOfThree {

    static final String ROWS = "user-id,name,offer\n"
            + "u-1,Ada,20% off\n"
            + "u-2,\"Grace, again\",\n"
            + "u-3,Linus,free shipping\n";

    private BatchOfThree() {
    }

    public static void main(String[] args) {
        PmediaClient pmedia = PmediaClient.builder(Env.get("PMEDIA_GATEWAY_URL"))
                .credentials(Env.get("PMEDIA_DEMO_CLIENT_ID"), Env.get("PMEDIA_DEMO_CLIENT_SECRET"))
                .build();
        TaskStatus done = run(pmedia, UUID.fromString(Env.get("PMEDIA_DEMO_TEMPLATE_ID")),
                status -> System.out.println(status.getStatus() + ": " + status.getProcessed() + " of "
                        + status.getTotalCount()));
        System.out.print(pmedia.readOutput(done));
    }

    public static TaskStatus run(PmediaClient pmedia, UUID templateId, Consumer<TaskStatus> onProgress) {
        String filePath = pmedia.uploadBatchFile("customers.csv", ROWS.getBytes(StandardCharsets.UTF_8));
        TaskCreateResponse task = pmedia.createTask(new TaskCreateRequest()
                .campaignId("spring-sale")
                .templateId(templateId)
                .filePath(filePath)
                .rowCount(3)
                .expectedOutputDuration(30));
        return pmedia.waitForTask(task.getTaskId(), onProgress);
    }
}
