package io.pmedia.media.messaging;

import java.time.Duration;

import jakarta.enterprise.context.ApplicationScoped;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.jboss.logging.Logger;

import io.opentelemetry.api.trace.SpanKind;
import io.pmedia.common.concurrent.BackgroundWork;
import io.pmedia.common.error.Outages;
import io.pmedia.common.tracing.Traces;
import io.pmedia.events.EventCodec;
import io.pmedia.events.RenderResult;
import io.pmedia.media.config.MediaConfig;
import io.pmedia.media.service.MediaRequests;
import io.quarkus.scheduler.Scheduled;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Vertx;

/**
 * Applies render results to realtime requests (results of other producers are theirs), and resubmits renders that
 * never came back. The offset of a result is committed after its request was updated. While the database is out of
 * reach a result is retried (consumption waits), so the request ends as soon as the database is back, not when the
 * stale-render sweep renders it again ten minutes later; any other failure drops the result to the sweep. A result
 * is applied in a span of the request's trace (the record's {@code traceparent}), so its status event carries it on.
 */
@ApplicationScoped
public class RenderResults {

    private static final Logger LOG = Logger.getLogger(RenderResults.class);
    /** How long a result waits for the database before it is left to the sweep. */
    private static final Duration RETRY_FOR = Duration.ofMinutes(10);
    /** Longest a lost-render sweep may take. */
    private static final Duration SWEEP_TIMEOUT = Duration.ofMinutes(5);

    private final EventCodec codec;
    private final MediaRequests requests;
    private final Vertx vertx;
    private final Traces traces;

    /** The lost-render sweep runs in the API role only ({@code media-roles.properties}). */
    private final boolean sweepEnabled;

    public RenderResults(EventCodec codec, MediaRequests requests, Vertx vertx, Traces traces, MediaConfig config) {
        this.sweepEnabled = config.render().sweepEnabled();
        this.codec = codec;
        this.requests = requests;
        this.vertx = vertx;
        this.traces = traces;
    }

    @Incoming("render-results-in")
    public Uni<Void> onResult(ConsumerRecord<String, String> record) {
        String envelope = record.value();
        RenderResult result;
        try {
            result = codec.decode(envelope, RenderResult.class).orElse(null);
        } catch (EventCodec.UnreadableEvent e) {
            LOG.errorf("dropping a render result that cannot be read: %s", e.getMessage());
            return Uni.createFrom().voidItem();
        }
        if (result == null || !MediaRequests.PRODUCER.equals(result.producer())) {
            return Uni.createFrom().voidItem();
        }
        return traces.within(traces.kafka("process", SpanKind.CONSUMER, record.topic(), record.key(),
                Traces.fromHeaders(record.headers())), () -> requests.complete(result))
                .onFailure(Outages::isUnreachableDependency).invoke(failure -> LOG.warnf(
                        "render result %s not applied yet (%s); retrying", result.jobId(), failure.getMessage()))
                .onFailure(Outages::isUnreachableDependency).retry()
                .withBackOff(Duration.ofMillis(200), Duration.ofSeconds(5)).expireIn(RETRY_FOR.toMillis());
    }

    /** On a fresh safe context of its own, as reactive Hibernate needs (not the scheduler's thread). */
    @Scheduled(every = "${pmedia.media.render.sweep-every:60s}", delayed = "${pmedia.media.render.sweep-delay:30s}", concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    Uni<Void> resubmitStale() {
        if (!sweepEnabled) {
            return Uni.createFrom().voidItem();
        }
        return BackgroundWork.call(vertx, requests::resubmitStale).replaceWithVoid()
                // a database that never answers must not stop the sweep for good (later rounds are skipped meanwhile)
                .ifNoItem().after(SWEEP_TIMEOUT).fail()
                .onFailure(Outages::isUnreachableDependency).recoverWithUni(failure -> {
                    LOG.warnf("lost-render sweep skipped (%s); it runs again on schedule", failure.getMessage());
                    return Uni.createFrom().voidItem();
                });
    }
}
