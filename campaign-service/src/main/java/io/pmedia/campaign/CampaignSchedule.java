package io.pmedia.campaign;

import java.time.Instant;
import java.util.UUID;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.EnumType;
import jakarta.persistence.Enumerated;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

import io.pmedia.events.CampaignStatus;
import io.pmedia.events.RenderMode;
import io.quarkus.hibernate.reactive.panache.PanacheEntityBase;

/** A client's campaign window and where it stands in its lifecycle. */
@Entity
@Table(name = "campaign_schedule")
public class CampaignSchedule extends PanacheEntityBase {

    @Id
    public UUID id;

    @Column(name = "client_id", nullable = false)
    public UUID clientId;

    @Column(name = "campaign_id", nullable = false)
    public String campaignId;

    @Column(name = "start_time", nullable = false)
    public Instant startTime;

    @Column(name = "end_time", nullable = false)
    public Instant endTime;

    @Enumerated(EnumType.STRING)
    @Column(nullable = false)
    public CampaignStatus status;

    /**
     * {@link io.pmedia.events.RenderMode#wire()}: how the campaign's batch tasks that do not say {@code render} are
     * rendered (docs/campaigns.md, "Render").
     */
    @Column(nullable = false)
    public String render = RenderMode.NOW.wire();

    @Column(name = "next_transition_at")
    public Instant nextTransitionAt;

    @Column(name = "created_at", nullable = false)
    public Instant createdAt;

    @Column(name = "updated_at", nullable = false)
    public Instant updatedAt;
}
