package io.pmedia.media.messaging;

import java.util.Map;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

import io.pmedia.common.kafka.GroupMembers;
import io.pmedia.events.Topics;
import io.pmedia.media.config.MediaConfig;
import io.pmedia.media.service.RenderWorkers;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.smallrye.common.annotation.Identifier;
import io.vertx.core.Vertx;

/**
 * The render workers on the realtime lane, as the broker describes their consumer group ({@code render.lanes.group})
 * every {@code on-view.workers-every}: the members holding partitions of {@code pmedia.render.jobs}. Watched only
 * where renders on view are admitted and their number is not fixed ({@code on-view.workers}).
 */
@ApplicationScoped
public class RealtimeWorkers implements RenderWorkers {

    private final Map<String, Object> kafka;
    private final MediaConfig config;
    private final Vertx vertx;
    private GroupMembers members;

    public RealtimeWorkers(@Identifier("default-kafka-broker") Map<String, Object> kafka, MediaConfig config,
            Vertx vertx) {
        this.kafka = kafka;
        this.config = config;
        this.vertx = vertx;
    }

    void onStart(@Observes StartupEvent event) {
        MediaConfig.OnView onView = config.onView();
        if (!onView.admissionEnabled() || onView.workers().isPresent()) {
            return;
        }
        members = GroupMembers.watch(kafka, "media-realtime-workers", config.render().lanes().group(),
                Topics.RENDER_JOBS, onView.workersEvery(), vertx);
    }

    void onStop(@Observes ShutdownEvent event) {
        if (members != null) {
            members.close();
        }
    }

    @Override
    public int workers() {
        return members == null ? -1 : members.count();
    }
}
