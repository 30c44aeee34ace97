package io.pmedia.engagement.service;

import java.time.Instant;

import jakarta.enterprise.context.ApplicationScoped;

import io.pmedia.common.outbox.EventPublisher;
import io.pmedia.engagement.SharedVideoRow;
import io.pmedia.engagement.repository.RollupStore;
import io.pmedia.events.EngagementMilestone;
import io.pmedia.events.SharedVideo;
import io.smallrye.mutiny.Uni;

/**
 * The end of a render on first view as a milestone for the vendor's webhooks (docs/webhooks.md, "Renders on first
 * view"): {@code video.rendered} when a page event brings the video of a link that had none, {@code
 * video.render-failed} when it marks the link's render failed. The projection judges the change on its row, read
 * under the row's lock, before it applies the event, and publishes through the outbox in the same transaction: the
 * change happens once, so its milestone does, however often the page event is delivered. A video rendered as it was
 * asked for (no render on view) is never a {@code video.rendered}.
 */
@ApplicationScoped
public class RenderMilestones {

    private final RollupStore rollups;
    private final EventPublisher publisher;
    private final Pages pages;

    public RenderMilestones(RollupStore rollups, EventPublisher publisher, Pages pages) {
        this.rollups = rollups;
        this.publisher = publisher;
        this.pages = pages;
    }

    /**
     * The milestone {@code video} reaches on the link whose row was {@code before} (null: no row yet), or null. Only a
     * link still waiting for its render on view (no video, {@code render} set) ends one; a redelivered event finds the
     * video there, or the link already failed. A realtime request's {@code FAILURE} is final: a viewer's retry of it is
     * answered with the page marked failed again (docs/sharing.md), no second render, so only its first claim's failure
     * is one (a retry's claim makes the row's claims more than one).
     */
    public static String reached(SharedVideoRow before, SharedVideo.Video video) {
        if (before == null || before.videoKey != null || before.render == null) {
            return null;
        }
        if (video.videoKey() != null) {
            return EngagementMilestone.RENDERED;
        }
        boolean failedAgain = SharedVideo.Source.realtime.name().equals(before.source) && before.renderAttempts > 1;
        return video.render() == SharedVideo.Render.FAILED && !before.renderFailed() && !failedAgain
                ? EngagementMilestone.RENDER_FAILED
                : null;
    }

    /**
     * Publishes milestone {@code type} of {@code row} (as the event left it) in the caller's transaction, with the
     * video's counters now; nothing for a link that no longer plays (revoked, or expired: an unopened realtime
     * request's link expires as failed, and nothing was rendered).
     */
    public Uni<Void> publish(String type, SharedVideoRow row) {
        if (type == null || !"ACTIVE".equals(row.state)) {
            return Uni.createFrom().voidItem();
        }
        String shareUrl = pages.absolute("/v/" + row.shareId);
        boolean rendered = EngagementMilestone.RENDERED.equals(type);
        return rollups.counters(row.shareId).flatMap(counters -> publisher.publish(new EngagementMilestone(type,
                row.clientId, row.shareId, row.serviceRequestId, row.taskId, row.rowNo, row.campaignId,
                row.templateId, row.userId, counters[0], counters[1], counters[2], Instant.now(), shareUrl,
                rendered ? shareUrl + "/video.mp4" : null, row.renderAttempts, rendered ? null : failure(row))))
                .replaceWithVoid();
    }

    /** What the vendor is told of a failed render: where the reason is, and whether a viewer may still retry. */
    private static String failure(SharedVideoRow row) {
        if (SharedVideo.Source.realtime.name().equals(row.source)) {
            return "the render on first view failed: the request is FAILURE (GET /status/" + row.serviceRequestId
                    + " says why) and its share page says the video could not be prepared";
        }
        return "the render on first view of row " + row.rowNo + " failed (counted in the task's render-failed): "
                + (row.renderAttempts < RenderClaims.MAX_ATTEMPTS
                        ? "its share page offers the viewer to try again"
                        : "its share page says the video could not be prepared; its retries are used up");
    }
}
