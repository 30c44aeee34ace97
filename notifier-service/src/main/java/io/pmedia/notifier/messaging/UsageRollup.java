package io.pmedia.notifier.messaging;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import jakarta.enterprise.context.ApplicationScoped;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.jboss.logging.Logger;

import io.pmedia.events.BatchStatus;
import io.pmedia.events.BatchStatusChanged;
import io.pmedia.events.CloudEvent;
import io.pmedia.events.EventCodec;
import io.pmedia.events.MediaStatus;
import io.pmedia.events.MediaStatusChanged;
import io.pmedia.events.RenderResult;
import io.pmedia.events.TryOnStatus;
import io.pmedia.events.TryOnStatusChanged;
import io.pmedia.notifier.UsageMetric;
import io.pmedia.notifier.repository.UsageStore;
import io.pmedia.notifier.repository.UsageStore.Increment;
import io.smallrye.mutiny.Uni;

/**
 * Rolls the platform's events up into each vendor's usage counters (docs/usage.md), in its own consumer group
 * ({@code pmedia-usage}), so metering neither waits for nor delays webhooks. Per event: a realtime request that ended
 * (by outcome), a render that ran on a worker (realtime or batch; by outcome, with its output seconds, render seconds
 * and stored bytes), a batch task that ended (by outcome, with its rows), a try-on that ended (by outcome). A poll's
 * increments are added in one statement keyed by event, or by the resource for the ends (a request ends once however
 * many events say it), so a redelivered record adds nothing; offsets are committed only after that statement.
 */
@ApplicationScoped
public class UsageRollup {

    private static final Logger LOG = Logger.getLogger(UsageRollup.class);

    private final EventCodec codec;
    private final UsageStore store;

    public UsageRollup(EventCodec codec, UsageStore store) {
        this.codec = codec;
        this.store = store;
    }

    @Incoming("usage-events")
    public Uni<Void> onEvents(ConsumerRecords<String, String> records) {
        List<Increment> increments = new ArrayList<>();
        for (ConsumerRecord<String, String> record : records) {
            try {
                increments.addAll(increments(codec.read(record.value())));
            } catch (EventCodec.UnreadableEvent e) {
                LOG.errorf("not counting a record of %s that cannot be read: %s", record.topic(), e.getMessage());
            }
        }
        if (increments.isEmpty()) {
            return Uni.createFrom().voidItem();
        }
        return Uni.createFrom().deferred(() -> store.add(increments))
                .onFailure().invoke(failure -> LOG.warnf("cannot count %d usage increments yet (%s); retrying",
                        increments.size(), failure.getMessage()))
                .onFailure().retry().withBackOff(Duration.ofMillis(200), Duration.ofSeconds(10))
                .indefinitely();
    }

    /** What one event adds to its vendor's usage; nothing for an event that tells no end and no render. */
    List<Increment> increments(CloudEvent event) {
        LocalDate day = LocalDate.ofInstant(event.time() == null ? Instant.now() : event.time(), ZoneOffset.UTC);
        List<Increment> found = new ArrayList<>();
        codec.data(event, MediaStatusChanged.class).ifPresent(status -> {
            if (status.clientId() != null && status.serviceRequestId() != null && status.status() != null
                    && status.status().isFinal()) {
                found.add(new Increment(key("media.request.ended", status.serviceRequestId()), status.clientId(),
                        day, (status.status() == MediaStatus.SUCCESS
                                ? UsageMetric.REQUESTS_SUCCEEDED
                                : UsageMetric.REQUESTS_FAILED).stored(),
                        1));
            }
        });
        codec.data(event, RenderResult.class).ifPresent(result -> {
            if (result.clientId() == null || result.status() == null) {
                return; // from a worker that predates client-id: not attributable
            }
            UUID key = WebhookIds.eventId(event.id());
            boolean success = result.succeeded();
            found.add(new Increment(key, result.clientId(), day,
                    (success ? UsageMetric.RENDERS_SUCCEEDED : UsageMetric.RENDERS_FAILED).stored(), 1));
            if (result.renderMillis() != null) {
                found.add(new Increment(key, result.clientId(), day, UsageMetric.RENDER_SECONDS.stored(),
                        result.renderMillis() / 1000.0));
            }
            if (success && result.durationSeconds() != null) {
                found.add(new Increment(key, result.clientId(), day, UsageMetric.VIDEO_SECONDS.stored(),
                        result.durationSeconds()));
            }
            if (success && result.storedBytes() != null) {
                found.add(new Increment(key, result.clientId(), day, UsageMetric.STORAGE_BYTES.stored(),
                        result.storedBytes()));
            }
        });
        codec.data(event, BatchStatusChanged.class).ifPresent(status -> {
            if (EndedEventConsumer.ended(status)) {
                UUID key = key("batch.task.ended", status.taskId());
                found.add(new Increment(key, status.clientId(), day, (status.status() == BatchStatus.COMPLETED
                        ? UsageMetric.BATCH_TASKS_COMPLETED
                        : UsageMetric.BATCH_TASKS_FAILED).stored(), 1));
                found.add(new Increment(key, status.clientId(), day, UsageMetric.BATCH_ROWS.stored(),
                        status.processed()));
            }
        });
        codec.data(event, TryOnStatusChanged.class).ifPresent(status -> {
            if (status.clientId() != null && status.requestId() != null && status.status() != null
                    && status.status().isFinal()) {
                found.add(new Increment(key("tryon.request.ended", status.requestId()), status.clientId(), day,
                        (status.status() == TryOnStatus.SUCCESS
                                ? UsageMetric.TRYONS_SUCCEEDED
                                : UsageMetric.TRYONS_FAILED).stored(),
                        1));
            }
        });
        return found;
    }

    /** The key of a resource's end: the same for every event that tells it. */
    private static UUID key(String what, UUID resource) {
        return UUID.nameUUIDFromBytes((what + ":" + resource).getBytes(StandardCharsets.UTF_8));
    }
}
