package io.pmedia.events;

import java.time.Instant;
import java.util.UUID;

import com.fasterxml.jackson.annotation.JsonFormat;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;

/**
 * {@code pmedia.campaign.status}: a campaign was scheduled, rescheduled, or moved SCHEDULED -> ACTIVE -> ENDED.
 * Campaign ids are unique per client only, so the key is {@code <client-id>/<campaign_id>}. {@code render} is how the
 * campaign's batch tasks render when they do not say (docs/campaigns.md); null in an event of before it existed,
 * which means {@link RenderMode#NOW} ({@link #renderMode()}).
 */
@JsonInclude(JsonInclude.Include.ALWAYS)
@JsonPropertyOrder({"client-id", "campaign_id", "status", "previous-status", "start_time", "end_time", "render"})
public record CampaignStatusChanged(
        @JsonProperty("client-id") UUID clientId,
        @JsonProperty("campaign_id") String campaignId,
        CampaignStatus status,
        @JsonProperty("previous-status") CampaignStatus previousStatus,
        @JsonProperty("start_time") @JsonFormat(shape = JsonFormat.Shape.STRING) Instant startTime,
        @JsonProperty("end_time") @JsonFormat(shape = JsonFormat.Shape.STRING) Instant endTime,
        RenderMode render)
        implements
            EventPayload {

    /** The campaign's render, {@link RenderMode#NOW} when the event carries none. */
    public RenderMode renderMode() {
        return render == null ? RenderMode.NOW : render;
    }

    @Override
    public String topic() {
        return Topics.CAMPAIGN_STATUS;
    }

    @Override
    public String type() {
        return Topics.CAMPAIGN_STATUS_CHANGED;
    }

    @Override
    public String key() {
        return clientId + "/" + campaignId;
    }
}
