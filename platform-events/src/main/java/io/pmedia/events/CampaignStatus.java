package io.pmedia.events;

import java.time.Instant;

/**
 * A campaign's lifecycle. {@code SCHEDULED} before its start, {@code ACTIVE} inside its window, {@code ENDED} from
 * its end on; the interface document leaves the values open (docs/campaigns.md).
 */
public enum CampaignStatus {
    SCHEDULED, ACTIVE, ENDED;

    /** The status a window has at {@code now}: start inclusive, end exclusive. */
    public static CampaignStatus at(Instant start, Instant end, Instant now) {
        if (now.isBefore(start)) {
            return SCHEDULED;
        }
        return now.isBefore(end) ? ACTIVE : ENDED;
    }

    /** When a campaign in this status changes next, or null when it never will. */
    public Instant nextTransition(Instant start, Instant end) {
        return switch (this) {
            case SCHEDULED -> start;
            case ACTIVE -> end;
            case ENDED -> null;
        };
    }

    /** The status after this one. */
    public CampaignStatus next() {
        return this == SCHEDULED ? ACTIVE : ENDED;
    }
}
