package io.pmedia.engagement.service;

import java.time.Instant;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

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

    /**
     * Applies one page event in a constant number of statements for its new links (a batch task's event carries a few
     * hundred): they are inserted in one statement, which leaves the links the projection already has as they are;
     * those are then read under their locks at once and changed one by one as before.
     */
    @WithTransaction
    @WithSpan
    public Uni<Void> apply(SharedVideo event) {
        if (event.videos() == null || event.videos().isEmpty()) {
            return Uni.createFrom().voidItem();
        }
        // the last page of a share id wins, as it did when they were applied one after another
        Map<String, SharedVideo.Video> pages = new LinkedHashMap<>();
        event.videos().forEach(video -> pages.put(video.shareId(), video));
        return videos.insertNew(pages.values().stream().map(video -> created(event, video)).toList())
                .flatMap(inserted -> {
                    Set<String> fresh = new HashSet<>(inserted);
                    List<String> known = pages.keySet().stream().filter(share -> !fresh.contains(share)).toList();
                    return known.isEmpty()
                            ? Uni.createFrom().voidItem()
                            : videos.lockByShares(known).flatMap(rows -> Multi.createFrom().iterable(rows).onItem()
                                    .transformToUniAndConcatenate(row -> upsert(row, event, pages.get(row.shareId)))
                                    .collect().last().replaceWithVoid());
                });
    }

    /** A link the projection has no row of yet, as its row is inserted. */
    private static VideoStore.NewVideo created(SharedVideo event, SharedVideo.Video video) {
        return new VideoStore.NewVideo(video.shareId(), event.clientId(), event.source().name(),
                event.serviceRequestId(), event.taskId(), video.row(), event.campaignId(), event.templateId(),
                event.templateVersion(), event.useCaseId(), video.userId(), video.state().name(), video.title(),
                video.cta() == null ? null : video.cta().label(), video.cta() == null ? null : video.cta().url(),
                video.branding() == null ? null : video.branding().logoUrl(),
                video.branding() == null ? null : video.branding().color(), video.videoKey(), video.posterKey(),
                video.captionsKey(), video.width(), video.height(), video.durationSeconds(), video.createdAt(),
                video.expiresAt(), video.videoKey() != null || video.render() == null ? null : video.render().wire(),
                video.streamKey());
    }

    /** Changes a link the projection has a row of (read under its lock) as {@code video} says. */
    private Uni<Void> upsert(SharedVideoRow row, SharedVideo event, SharedVideo.Video video) {
        if (!row.clientId.equals(event.clientId())) {
            // A share id is never reused across vendors; an event that says otherwise is not believed.
            return Uni.createFrom().voidItem();
        }
        if (row.videoKey != null && video.videoKey() == null && video.render() != null) {
            // A video rendered on view keeps its video whatever an older page event says.
            return Uni.createFrom().voidItem();
        }
        String reached = RenderMilestones.reached(row, video);
        boolean ended = !"ACTIVE".equals(row.state);
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
        row.state = ended ? row.state : video.state().name();
        row.title = video.title();
        row.ctaLabel = video.cta() == null ? null : video.cta().label();
        row.ctaUrl = video.cta() == null ? null : video.cta().url();
        row.logoUrl = video.branding() == null ? null : video.branding().logoUrl();
        row.color = video.branding() == null ? null : video.branding().color();
        row.videoKey = video.videoKey();
        row.posterKey = video.posterKey();
        row.captionsKey = video.captionsKey();
        row.render = video.videoKey() != null || video.render() == null ? null : video.render().wire();
        // kept once the video is there: a player still on the stream reads it to its end
        row.streamKey = video.streamKey() != null ? video.streamKey() : row.streamKey;
        row.width = video.width();
        row.height = video.height();
        row.durationSeconds = video.durationSeconds();
        row.createdAt = video.createdAt();
        row.expiresAt = video.expiresAt();
        row.updatedAt = Instant.now();
        return renders.publish(reached, row);
    }
}
