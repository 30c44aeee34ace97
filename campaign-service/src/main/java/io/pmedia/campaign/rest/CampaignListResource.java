package io.pmedia.campaign.rest;

import java.time.Instant;

import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;

import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;

import io.pmedia.campaign.CampaignSchedule;
import io.pmedia.campaign.service.CampaignScheduling;
import io.pmedia.common.paging.Dates;
import io.pmedia.common.paging.ListFilters;
import io.pmedia.common.paging.Page;
import io.pmedia.common.paging.PageRequest;
import io.pmedia.common.security.Caller;
import io.pmedia.common.security.Roles;
import io.pmedia.events.CampaignStatus;
import io.smallrye.mutiny.Uni;

/**
 * {@code GET /campaigns} (beyond the interface): the caller's campaigns with their windows and status, newest first, a
 * page at a time (contracts.md, "Viewers, the console and SDKs"). Field names as 2.10 spells them.
 */
@Path("/campaigns")
@Produces(MediaType.APPLICATION_JSON)
@RolesAllowed(Roles.CLIENT)
@Tag(name = "Campaigns")
public class CampaignListResource {

    /** One campaign: its schedule (as {@code GET /campaigns/{campaign_id}/schedule} reads it) and when it was made. */
    @JsonInclude(JsonInclude.Include.ALWAYS)
    @JsonPropertyOrder({"campaign_id", "status", "start_time", "end_time", "render", "created_at", "updated_at"})
    public record CampaignItem(@JsonProperty("campaign_id") String campaignId, String status,
            @JsonProperty("start_time") Instant startTime, @JsonProperty("end_time") Instant endTime,
            String render, @JsonProperty("created_at") Instant createdAt,
            @JsonProperty("updated_at") Instant updatedAt) {

        static CampaignItem of(CampaignSchedule schedule) {
            return new CampaignItem(schedule.campaignId, schedule.status.name(), schedule.startTime,
                    schedule.endTime, schedule.render, schedule.createdAt, schedule.updatedAt);
        }
    }

    private final CampaignScheduling scheduling;
    private final Caller caller;

    public CampaignListResource(CampaignScheduling scheduling, Caller caller) {
        this.scheduling = scheduling;
        this.caller = caller;
    }

    @GET
    @Operation(summary = "The caller's campaigns, newest first, filtered and paginated")
    public Uni<Page<CampaignItem>> list(@QueryParam("status") String status, @QueryParam("from") String from,
            @QueryParam("to") String to, @QueryParam("limit") String limit, @QueryParam("cursor") String cursor) {
        PageRequest page = PageRequest.of(limit, cursor);
        Instant since = Dates.time("from", from);
        Instant until = Dates.time("to", to);
        Dates.range(since, until);
        return scheduling.list(caller.clientId(),
                ListFilters.oneOf("status", status, CampaignStatus.class, CampaignStatus::name), since, until, page)
                .map(found -> found.map(CampaignItem::of));
    }
}
