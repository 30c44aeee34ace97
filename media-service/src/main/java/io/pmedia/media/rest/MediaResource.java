package io.pmedia.media.rest;

import java.util.Map;

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

import io.pmedia.common.error.ApiException;
import io.pmedia.common.security.Caller;
import io.pmedia.common.security.Roles;
import io.pmedia.media.rest.MediaBodies.Acceptance;
import io.pmedia.media.rest.MediaBodies.MediaRequestBody;
import io.pmedia.media.rest.MediaBodies.MediaStatusBody;
import io.pmedia.media.rest.MediaBodies.VideoRequestBody;
import io.pmedia.media.service.MediaRequests;
import io.pmedia.media.template.MediaData;
import io.pmedia.media.template.RenderInput;
import io.smallrye.mutiny.Uni;

/** Interface 4.3 to 4.5: realtime requests in both forms, and their status. */
@Path("/")
@Produces(MediaType.APPLICATION_JSON)
@RolesAllowed(Roles.CLIENT)
@Tag(name = "Realtime media")
public class MediaResource {

    static final int MAX_ID = 200;

    private final MediaRequests requests;
    private final Caller caller;

    public MediaResource(MediaRequests requests, Caller caller) {
        this.requests = requests;
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
        required(Map.of("client-request-id", nullSafe(body.clientRequestId()), "customer-id",
                nullSafe(body.customerId()), "use-case-id", nullSafe(body.useCaseId()), "user-id",
                nullSafe(body.userId())));
        optional("reference-record-id", body.referenceRecordId());
        scalarFields(body.data());
        return requests.accept(caller.clientId(), new MediaRequests.Submission("current", body.clientRequestId(),
                body.customerId(), body.useCaseId(), body.userId(), body.referenceRecordId(), body,
                template -> RenderInput.fromCurrentForm(body.data()))).map(MediaResource::acceptance);
    }

    @POST
    @Path("video/demo")
    @Consumes(MediaType.APPLICATION_JSON)
    @Operation(summary = "Create a realtime video request (earlier form)")
    public Uni<Acceptance> createEarlier(VideoRequestBody body) {
        if (body == null) {
            throw ApiException.badRequest("request body is required");
        }
        required(Map.of("client-request-id", nullSafe(body.clientRequestId()), "customer-id",
                nullSafe(body.customerId()), "use-case-id", nullSafe(body.useCaseId()), "user-id",
                nullSafe(body.userId())));
        optional("reference-record-id", body.referenceRecordId());
        return requests.accept(caller.clientId(), new MediaRequests.Submission("earlier", body.clientRequestId(),
                body.customerId(), body.useCaseId(), body.userId(), body.referenceRecordId(), body,
                template -> RenderInput.fromEarlierForm(body.phraseTexts(), body.imageTexts(), body.videoTexts(),
                        body.imageUrls(), body.videoUrls(), template)))
                .map(MediaResource::acceptance);
    }

    @GET
    @Path("status/{transactionId}")
    @Operation(summary = "Realtime media status")
    public Uni<MediaStatusBody> status(@PathParam("transactionId") String transactionId) {
        return requests.status(caller.clientId(), transactionId)
                .map(status -> new MediaStatusBody(status.status(), status.message(), status.videoUrl(),
                        status.imageUrl()));
    }

    private static Acceptance acceptance(MediaRequests.Acceptance acceptance) {
        return new Acceptance(acceptance.status(), acceptance.message(), acceptance.clientRequestId(),
                acceptance.serviceRequestId());
    }

    /** Checks in the interface's field order, so the first missing field is the one named. */
    private static void required(Map<String, String> fields) {
        for (String name : new String[]{"client-request-id", "customer-id", "use-case-id", "user-id"}) {
            String value = fields.get(name);
            if (value.isBlank()) {
                throw ApiException.validation("field '" + name + "' is required");
            }
            if (value.length() > MAX_ID) {
                throw ApiException.validation("field '" + name + "' must be at most " + MAX_ID + " characters");
            }
        }
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
        });
    }

    private static void optional(String name, String value) {
        if (value != null && value.length() > MAX_ID) {
            throw ApiException.validation("field '" + name + "' must be at most " + MAX_ID + " characters");
        }
    }

    private static String nullSafe(String value) {
        return value == null ? "" : value;
    }
}
