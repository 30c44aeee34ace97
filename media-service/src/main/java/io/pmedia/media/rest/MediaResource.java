package io.pmedia.media.rest;

import java.time.Instant;
import java.util.Arrays;
import java.util.Set;
import java.util.stream.Collectors;

import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;

import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

import io.pmedia.common.error.ApiException;
import io.pmedia.common.error.Fields;
import io.pmedia.common.paging.Dates;
import io.pmedia.common.paging.ListFilters;
import io.pmedia.common.paging.Page;
import io.pmedia.common.paging.PageRequest;
import io.pmedia.common.security.Caller;
import io.pmedia.common.security.Roles;
import io.pmedia.events.MediaStatus;
import io.pmedia.events.RenderMode;
import io.pmedia.media.RequestForm;
import io.pmedia.media.rest.MediaBodies.Acceptance;
import io.pmedia.media.rest.MediaBodies.MediaRequestBody;
import io.pmedia.media.rest.MediaBodies.MediaRequestItem;
import io.pmedia.media.rest.MediaBodies.MediaStatusBody;
import io.pmedia.media.rest.MediaBodies.Timeline;
import io.pmedia.media.rest.MediaBodies.VideoRequestBody;
import io.pmedia.media.service.MediaRequests;
import io.pmedia.media.service.ShareLinks;
import io.pmedia.media.template.MediaData;
import io.pmedia.media.template.RenderInputs;
import io.smallrye.mutiny.Uni;

/** Interface 4.3 to 4.5: realtime requests in both forms, and their status. */
@Path("/")
@Produces(MediaType.APPLICATION_JSON)
@RolesAllowed(Roles.CLIENT)
@Tag(name = "Realtime media")
public class MediaResource {

    static final int MAX_ID = 200;
    private static final Set<String> RENDER_MODES = Arrays.stream(RenderMode.values()).map(RenderMode::wire)
            .collect(Collectors.toSet());

    private final MediaRequests requests;
    private final ShareLinks shares;
    private final Caller caller;

    public MediaResource(MediaRequests requests, ShareLinks shares, Caller caller) {
        this.requests = requests;
        this.shares = shares;
        this.caller = caller;
    }

    @POST
    @Path("media/demo")
    @Consumes(MediaType.APPLICATION_JSON)
    @Operation(summary = "Create a realtime video request")
    public Uni<Acceptance> create(MediaRequestBody body) {
        if (body == null) {
            throw ApiException.badRequest("request body is required");
        }
        identifiers(body.clientRequestId(), body.customerId(), body.useCaseId(), body.userId(),
                body.referenceRecordId());
        scalarFields(body.data());
        return requests.accept(caller.clientIdNamedBy(body.clientId()),
                new MediaRequests.Submission(RequestForm.CURRENT, body.clientRequestId(),
                        body.customerId(), body.useCaseId(), body.userId(), body.referenceRecordId(), body,
                        template -> RenderInputs.fromCurrentForm(body.data()), render(body.render())))
                .map(MediaResource::acceptance);
    }

    @POST
    @Path("video/demo")
    @Consumes(MediaType.APPLICATION_JSON)
    @Operation(summary = "Create a realtime video request (earlier form)")
    public Uni<Acceptance> createEarlier(VideoRequestBody body) {
        if (body == null) {
            throw ApiException.badRequest("request body is required");
        }
        identifiers(body.clientRequestId(), body.customerId(), body.useCaseId(), body.userId(),
                body.referenceRecordId());
        return requests
                .accept(caller.clientIdNamedBy(body.clientId()),
                        new MediaRequests.Submission(RequestForm.EARLIER, body.clientRequestId(),
                                body.customerId(), body.useCaseId(), body.userId(), body.referenceRecordId(), body,
                                template -> RenderInputs.fromEarlierForm(body.phraseTexts(), body.imageTexts(),
                                        body.videoTexts(),
                                        body.imageUrls(), body.videoUrls(), template),
                                render(body.render())))
                .map(MediaResource::acceptance);
    }

    @GET
    @Path("status/{transactionId}")
    @Operation(summary = "Realtime media status")
    public Uni<MediaStatusBody> status(@PathParam("transactionId") String transactionId) {
        return requests.status(caller.clientId(), transactionId)
                .map(status -> new MediaStatusBody(status.status(), status.message(), status.videoUrl(),
                        status.imageUrl(), status.renditions(), status.captionsUrl(), status.streamUrl(),
                        status.shareUrl()));
    }

    @DELETE
    @Path("media/{transactionId}/share")
    @Operation(summary = "Revoke a video's share link")
    public Uni<Void> revokeShare(@PathParam("transactionId") String transactionId) {
        return shares.revoke(caller.clientId(), transactionId);
    }

    @GET
    @Path("media/requests")
    @Operation(summary = "The caller's realtime requests, newest first, filtered and paginated")
    public Uni<Page<MediaRequestItem>> list(@QueryParam("status") String status,
            @QueryParam("use-case-id") String useCaseId, @QueryParam("from") String from,
            @QueryParam("to") String to, @QueryParam("limit") String limit, @QueryParam("cursor") String cursor) {
        PageRequest page = PageRequest.of(limit, cursor);
        Instant since = Dates.time("from", from);
        Instant until = Dates.time("to", to);
        Dates.range(since, until);
        MediaRequests.ListFilter filter = new MediaRequests.ListFilter(
                ListFilters.oneOf("status", status, MediaStatus.class, MediaStatus::name),
                ListFilters.text("use-case-id", useCaseId), since, until);
        return requests.list(caller.clientId(), filter, page).map(found -> found.map(MediaRequestItem::of));
    }

    @GET
    @Path("media/requests/{transactionId}/events")
    @Operation(summary = "A realtime request's timeline: its statuses, render jobs and share link changes")
    public Uni<Timeline> timeline(@PathParam("transactionId") String transactionId) {
        return requests.timeline(caller.clientId(), transactionId)
                .map(events -> Timeline.of(transactionId, events));
    }

    /** {@code render}: {@code now} when left out; anything but the two values is 400 naming them. */
    private static RenderMode render(String render) {
        return RenderMode.ofWire(Fields.oneOf("render", render, RENDER_MODES, RenderMode.NOW.wire()));
    }

    private static Acceptance acceptance(MediaRequests.Acceptance acceptance) {
        return new Acceptance(acceptance.status().name(), acceptance.message(), acceptance.clientRequestId(),
                acceptance.serviceRequestId(), acceptance.shareUrl());
    }

    /** Checks in the interface's field order, so the first missing field is the one named. */
    private static void identifiers(String clientRequestId, String customerId, String useCaseId, String userId,
            String referenceRecordId) {
        Fields.required("client-request-id", clientRequestId, MAX_ID);
        Fields.required("customer-id", customerId, MAX_ID);
        Fields.required("use-case-id", useCaseId, MAX_ID);
        Fields.required("user-id", userId, MAX_ID);
        Fields.optional("reference-record-id", referenceRecordId, MAX_ID);
    }

    /** Personalization values are texts, numbers or booleans; an object or a list there is a type error. */
    private static void scalarFields(MediaData data) {
        if (data == null || data.personalizationFields() == null) {
            return;
        }
        data.personalizationFields().forEach((name, value) -> {
            if (value != null && value.isContainerNode()) {
                throw ApiException.badRequest("field 'data.personalization_fields." + name
                        + "' must be a string, a number or a boolean");
            }
            if (value != null && value.isFloatingPointNumber() && !Double.isFinite(value.doubleValue())) {
                throw ApiException.validation("field 'data.personalization_fields." + name + "' is a number beyond"
                        + " what a double holds (about 1.8e308 at most): send it as a string");
            }
        });
    }

}
