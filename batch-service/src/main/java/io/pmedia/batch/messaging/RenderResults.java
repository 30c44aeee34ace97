package io.pmedia.batch.messaging;

import java.io.IOException;
import java.util.UUID;

import jakarta.enterprise.context.ApplicationScoped;

import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.jboss.logging.Logger;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.pmedia.batch.service.Dispatcher;
import io.smallrye.mutiny.Uni;

/**
 * Results of this service's render jobs ({@code pmedia.batch.render-results}, job id {@code <task-id>/<row>}),
 * applied to their rows once. The offset is committed after the row was updated; a result that cannot be applied
 * (database away) is dropped and the row is submitted again after {@code pmedia.batch.resubmit-after}.
 */
@ApplicationScoped
public class RenderResults {

    private static final Logger LOG = Logger.getLogger(RenderResults.class);

    private final ObjectMapper mapper;
    private final Dispatcher dispatcher;

    public RenderResults(ObjectMapper mapper, Dispatcher dispatcher) {
        this.mapper = mapper;
        this.dispatcher = dispatcher;
    }

    @Incoming("batch-render-results")
    public Uni<Void> onResult(String envelope) {
        UUID taskId;
        int row;
        JsonNode data;
        try {
            data = mapper.readTree(envelope).path("data");
            String jobId = data.path("job-id").asText("");
            int slash = jobId.indexOf('/');
            taskId = UUID.fromString(jobId.substring(0, Math.max(0, slash)));
            row = Integer.parseInt(jobId.substring(slash + 1));
        } catch (IOException | IllegalArgumentException | IndexOutOfBoundsException e) {
            LOG.errorf("dropping a render result that cannot be read: %s", e.getMessage());
            return Uni.createFrom().voidItem();
        }
        boolean success = "SUCCESS".equals(data.path("status").asText());
        return dispatcher.apply(taskId, row, success, text(data, "video-key"), text(data, "thumbnail-key"),
                text(data, "message"))
                .onFailure().recoverWithItem(failure -> {
                    LOG.warnf("render result of %s/%d not applied (it will be rendered again): %s", taskId, row,
                            failure.getMessage());
                    return false;
                })
                .replaceWithVoid();
    }

    private static String text(JsonNode data, String name) {
        JsonNode value = data.get(name);
        return value == null || value.isNull() ? null : value.asText();
    }
}
