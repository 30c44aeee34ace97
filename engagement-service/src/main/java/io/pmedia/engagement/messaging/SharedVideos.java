package io.pmedia.engagement.messaging;

import java.time.Duration;

import jakarta.enterprise.context.ApplicationScoped;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.jboss.logging.Logger;

import io.pmedia.common.error.Outages;
import io.pmedia.engagement.service.EmailGifs;
import io.pmedia.engagement.service.Projection;
import io.pmedia.events.EventCodec;
import io.pmedia.events.SharedVideo;
import io.smallrye.mutiny.Uni;

/**
 * The projection's input (docs/sharing.md): {@code VideoShared} events on {@code pmedia.media.status} (realtime
 * requests) and {@code pmedia.batch.status} (batch rows); the topics' other events are not ours. An event is applied
 * before its offset is committed; while the database cannot be reached it is retried (consumption waits).
 */
@ApplicationScoped
public class SharedVideos {

    private static final Logger LOG = Logger.getLogger(SharedVideos.class);

    private final EventCodec codec;
    private final Projection projection;
    private final EmailGifs gifs;

    public SharedVideos(EventCodec codec, Projection projection, EmailGifs gifs) {
        this.codec = codec;
        this.projection = projection;
        this.gifs = gifs;
    }

    @Incoming("shared-videos")
    public Uni<Void> onEvent(ConsumerRecord<String, String> record) {
        SharedVideo shared;
        try {
            shared = codec.decode(record.value(), SharedVideo.class).orElse(null);
        } catch (EventCodec.UnreadableEvent e) {
            LOG.errorf("skipping a record of %s that cannot be read: %s", record.topic(), e.getMessage());
            return Uni.createFrom().voidItem();
        }
        if (shared == null) {
            return Uni.createFrom().voidItem();
        }
        return Uni.createFrom().deferred(() -> projection.apply(shared))
                .onFailure(Outages::isUnreachableDependency).invoke(failure -> LOG.warnf(
                        "shared video not projected yet (%s); retrying", failure.getMessage()))
                .onFailure(Outages::isUnreachableDependency).retry()
                .withBackOff(Duration.ofMillis(200), Duration.ofSeconds(5)).indefinitely()
                .invoke(() -> {
                    if (shared.source() == SharedVideo.Source.realtime) {
                        shared.videos().stream().filter(video -> video.state() == SharedVideo.State.ACTIVE
                                && video.videoKey() != null).forEach(video -> gifs.ahead(video.shareId()));
                    }
                });
    }
}
