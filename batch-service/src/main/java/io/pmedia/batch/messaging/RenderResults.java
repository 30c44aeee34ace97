package io.pmedia.batch.messaging;

import java.util.UUID;

import jakarta.enterprise.context.ApplicationScoped;

import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.jboss.logging.Logger;

import io.pmedia.batch.service.Dispatcher;
import io.pmedia.events.EventCodec;
import io.pmedia.events.RenderResult;
import io.smallrye.mutiny.Uni;

/**
 * Results of this service's render jobs ({@code pmedia.batch.render-results}, job id {@code <task-id>/<row>}),
 * applied to their rows once. The offset is committed after the row was updated; a result that cannot be applied
 * (database away) is dropped and the row is submitted again after {@code pmedia.batch.resubmit-after}.
 */
@ApplicationScoped
public class RenderResults {

    private static final Logger LOG = Logger.getLogger(RenderResults.class);

    private final EventCodec codec;
    private final Dispatcher dispatcher;

    public RenderResults(EventCodec codec, Dispatcher dispatcher) {
        this.codec = codec;
        this.dispatcher = dispatcher;
    }

    @Incoming("batch-render-results")
    public Uni<Void> onResult(String envelope) {
        UUID taskId;
        int row;
        RenderResult result;
        try {
            result = codec.decode(envelope, RenderResult.class).orElse(null);
            if (result == null) {
                return Uni.createFrom().voidItem();
            }
            String jobId = result.jobId() == null ? "" : result.jobId();
            int slash = jobId.indexOf('/');
            taskId = UUID.fromString(jobId.substring(0, Math.max(0, slash)));
            row = Integer.parseInt(jobId.substring(slash + 1));
        } catch (EventCodec.UnreadableEvent | IllegalArgumentException | IndexOutOfBoundsException e) {
            LOG.errorf("dropping a render result that cannot be read: %s", e.getMessage());
            return Uni.createFrom().voidItem();
        }
        return dispatcher.apply(taskId, row, result.succeeded(), result.videoKey(), result.thumbnailKey(),
                result.message(), result.renderMillis())
                .onFailure().recoverWithItem(failure -> {
                    LOG.warnf("render result of %s/%d not applied (it will be rendered again): %s", taskId, row,
                            failure.getMessage());
                    return false;
                })
                .replaceWithVoid();
    }
}
