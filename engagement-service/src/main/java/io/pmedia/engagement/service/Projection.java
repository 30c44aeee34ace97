package io.pmedia.engagement.service;

import java.time.Instant;

import jakarta.enterprise.context.ApplicationScoped;

import io.opentelemetry.instrumentation.annotations.WithSpan;
import io.pmedia.engagement.SharedVideoRow;
import io.pmedia.engagement.repository.VideoStore;
import io.pmedia.events.SharedVideo;
import io.quarkus.hibernate.reactive.panache.common.WithTransaction;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;

/**
 * Keeps the projection of shareable videos from {@link SharedVideo} events (docs/sharing.md). Applying an event
 * twice changes nothing; a link that was revoked or expired never plays again, whatever arrives later. A link's row is
 * read under its lock, and an event that ends its render on view publishes that milestone in the same transaction
 * ({@link RenderMilestones}).
 */
@ApplicationScoped
public class Projection {

    private final VideoStore videos;
    private final RenderMilestones renders;

    public Projection(VideoStore videos, RenderMilestones renders) {
        this.videos = videos;
        this.renders = renders;
    }

    @WithTransaction
    @WithSpan
    public Uni<Void> apply(SharedVideo event) {
        if (event.videos() == null || event.videos().isEmpty()) {
            return Uni.createFrom().voidItem();
        }
        return Multi.createFrom().iterable(event.videos()).onItem()
                .transformToUniAndConcatenate(video -> videos.lockByShare(video.shareId())
                        .flatMap(existing -> upsert(existing, event, video)))
                .collect().last().replaceWithVoid();
    }

    private Uni<Void> upsert(SharedVideoRow existing, SharedVideo event, SharedVideo.Video video) {
        if (existing != null && !existing.clientId.equals(event.clientId())) {
            // A share id is never reused across vendors; an event that says otherwise is not believed.
            return Uni.createFrom().voidItem();
        }
        if (existing != null && existing.videoKey != null && video.videoKey() == null && video.render() != null) {
            // A video rendered on view keeps its video whatever an older page event says.
            return Uni.createFrom().voidItem();
        }
        String reached = RenderMilestones.reached(existing, video);
        SharedVideoRow row = existing != null ? existing : new SharedVideoRow();
        boolean ended = existing != null && !"ACTIVE".equals(existing.state);
        row.shareId = video.shareId();
        row.clientId = event.clientId();
        row.source = event.source().name();
        row.serviceRequestId = event.serviceRequestId();
        row.taskId = event.taskId();
        row.rowNo = video.row();
        row.campaignId = event.campaignId();
        row.templateId = event.templateId();
        row.templateVersion = event.templateVersion();
        row.useCaseId = event.useCaseId();
        row.userId = video.userId();
        row.state = ended ? existing.state : video.state().name();
        row.title = video.title();
        row.ctaLabel = video.cta() == null ? null : video.cta().label();
        row.ctaUrl = video.cta() == null ? null : video.cta().url();
        row.logoUrl = video.branding() == null ? null : video.branding().logoUrl();
        row.color = video.branding() == null ? null : video.branding().color();
        row.videoKey = video.videoKey();
        row.posterKey = video.posterKey();
        row.captionsKey = video.captionsKey();
        row.render = video.videoKey() != null || video.render() == null ? null : video.render().wire();
        row.width = video.width();
        row.height = video.height();
        row.durationSeconds = video.durationSeconds();
        row.createdAt = video.createdAt();
        row.expiresAt = video.expiresAt();
        row.updatedAt = Instant.now();
        return existing != null ? renders.publish(reached, row) : row.persist().replaceWithVoid();
    }
}
