package io.pmedia.campaign.rest;

import java.time.Clock;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;
import java.util.Locale;

import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

import com.fasterxml.jackson.annotation.JsonProperty;

import io.pmedia.campaign.CampaignSchedule;
import io.pmedia.campaign.service.CampaignScheduling;
import io.pmedia.common.error.ApiException;
import io.pmedia.common.error.Fields;
import io.pmedia.common.paging.Dates;
import io.pmedia.common.security.Caller;
import io.pmedia.common.security.Roles;
import io.pmedia.events.RenderMode;
import io.smallrye.mutiny.Uni;

/** Interface 4.11 (and reading the schedule back, beyond the document). */
@Path("/campaigns/{campaign_id}/schedule")
@Produces(MediaType.APPLICATION_JSON)
@RolesAllowed(Roles.CLIENT)
@Tag(name = "Campaigns")
public class CampaignScheduleResource {

    /**
     * Interface 2.10, request; beyond it, {@code render} (contracts.md, 2026-11-29): how the campaign's batch tasks
     * that do not say are rendered, {@code now} (absent) or {@code on-view}.
     */
    public record ScheduleRequest(@JsonProperty("start_time") String startTime,
            @JsonProperty("end_time") String endTime, String render) {
    }

    /** Interface 2.10, response; beyond it, the {@code render} the schedule took. */
    public record ScheduleResponse(@JsonProperty("campaign_id") String campaignId, String status, String render) {
    }

    /** The whole schedule, as {@code GET} returns it. */
    public record ScheduleView(@JsonProperty("campaign_id") String campaignId, String status,
            @JsonProperty("start_time") Instant startTime, @JsonProperty("end_time") Instant endTime,
            String render, @JsonProperty("updated_at") Instant updatedAt) {
    }

    static final int MAX_CAMPAIGN_ID = 128;

    private final CampaignScheduling scheduling;
    private final Caller caller;
    private final Clock clock;

    public CampaignScheduleResource(CampaignScheduling scheduling, Caller caller, Clock clock) {
        this.scheduling = scheduling;
        this.caller = caller;
        this.clock = clock;
    }

    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    @Operation(summary = "Set or change the campaign's start and end")
    public Uni<ScheduleResponse> schedule(@PathParam("campaign_id") String campaignId, ScheduleRequest request) {
        String id = validCampaignId(campaignId);
        if (request == null) {
            throw ApiException.validation("request body with start_time and end_time is required");
        }
        Instant start = dateTime(request.startTime(), "start_time");
        Instant end = dateTime(request.endTime(), "end_time");
        if (!end.isAfter(start)) {
            throw ApiException.validation("field 'end_time' must be after 'start_time'");
        }
        if (!end.isAfter(clock.instant())) {
            throw ApiException.validation("field 'end_time' must be in the future");
        }
        RenderMode render = RenderMode.ofWire(Fields.oneOf("render", request.render(), RenderMode.wires(),
                RenderMode.NOW.wire()));
        return scheduling.schedule(caller.clientId(), id, start, end, render)
                .map(saved -> new ScheduleResponse(saved.campaignId, saved.status.name(), saved.render));
    }

    @GET
    @Operation(summary = "Read the campaign's schedule and status")
    public Uni<ScheduleView> read(@PathParam("campaign_id") String campaignId) {
        return scheduling.read(caller.clientId(), validCampaignId(campaignId)).map(CampaignScheduleResource::view);
    }

    private static ScheduleView view(CampaignSchedule schedule) {
        return new ScheduleView(schedule.campaignId, schedule.status.name(), schedule.startTime, schedule.endTime,
                schedule.render, schedule.updatedAt);
    }

    static String validCampaignId(String value) {
        if (value == null || value.isBlank()) {
            throw ApiException.validation("campaign_id is required");
        }
        if (value.length() > MAX_CAMPAIGN_ID) {
            throw ApiException.validation("campaign_id must be at most " + MAX_CAMPAIGN_ID + " characters");
        }
        if (value.chars().anyMatch(Character::isISOControl)) {
            throw ApiException.validation("campaign_id must not contain control characters");
        }
        return value;
    }

    /** RFC 3339: a date, a time and an offset ({@code Z} or {@code +hh:mm}); a local time is ambiguous. */
    static Instant dateTime(String value, String field) {
        String text = Fields.required(field, value, 64);
        if (!Dates.plainYear(text)) {
            // an expanded year (+300000, -4000) is ISO 8601 too, but PostgreSQL cannot hold most of them and RFC 3339
            // has none: it was stored as another time, or answered back in a form no client reads
            throw ApiException.validation("field '" + field + "' must be an ISO 8601 / RFC 3339 date-time with a"
                    + " year from 0001 to 9999, e.g. 2026-12-01T09:00:00Z");
        }
        try {
            // as the database keeps it (microseconds), so that the rules below judge the times that are stored
            return OffsetDateTime.parse(text.toUpperCase(Locale.ROOT), DateTimeFormatter.ISO_OFFSET_DATE_TIME)
                    .toInstant().truncatedTo(ChronoUnit.MICROS);
        } catch (DateTimeParseException e) {
            String hint = value.matches("\\d{4}-\\d{2}-\\d{2}[Tt ]\\d{2}:\\d{2}(:\\d{2}(\\.\\d+)?)?")
                    ? " with an offset or Z (a time without one is ambiguous)"
                    : "";
            throw ApiException.validation("field '" + field + "' must be an ISO 8601 / RFC 3339 date-time" + hint
                    + ", e.g. 2026-12-01T09:00:00Z");
        }
    }
}
