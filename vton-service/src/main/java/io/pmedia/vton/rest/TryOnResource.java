package io.pmedia.vton.rest;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;

import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.pmedia.common.error.ApiException;
import io.pmedia.common.error.Fields;
import io.pmedia.common.net.DestinationPolicy;
import io.pmedia.common.net.FetchException;
import io.pmedia.common.paging.Dates;
import io.pmedia.common.paging.ListFilters;
import io.pmedia.common.paging.Page;
import io.pmedia.common.paging.PageRequest;
import io.pmedia.common.security.Caller;
import io.pmedia.common.security.Roles;
import io.pmedia.events.TryOnStatus;
import io.pmedia.storage.ObjectStore;
import io.pmedia.vton.GarmentCategory;
import io.pmedia.vton.ModerationLevel;
import io.pmedia.vton.OutputFormat;
import io.pmedia.vton.TryOnMode;
import io.pmedia.vton.TryOnRequest;
import io.pmedia.vton.config.VtonConfig;
import io.pmedia.vton.service.TryOnRequests;
import io.smallrye.mutiny.Uni;

/** Interface 4.9, 4.10: virtual try-on. */
@Path("/vton")
@Produces(MediaType.APPLICATION_JSON)
@RolesAllowed(Roles.CLIENT)
@Tag(name = "Virtual try-on")
public class TryOnResource {

    /** Interface 2.9. */
    public record CreateRequest(@JsonProperty("user-id") String userId,
            @JsonProperty("client-id") String clientId,
            @JsonProperty("usecase-id") String usecaseId,
            @JsonProperty("model-image") String modelImage,
            @JsonProperty("garment-image") List<String> garmentImage,
            String category,
            String mode,
            @JsonProperty("moderation_level") String moderationLevel,
            @JsonProperty("segmentation_free") Boolean segmentationFree,
            @JsonProperty("output_format") String outputFormat) {
    }

    public record Created(@JsonProperty("request-id") String requestId) {
    }

    /** Interface 2.9, status response; {@code message} (beyond it) says why a request failed. */
    @JsonInclude(JsonInclude.Include.ALWAYS)
    public record Status(@JsonProperty("request-id") String requestId, String status,
            @JsonProperty("generated-output") String generatedOutput, String message) {
    }

    /**
     * One request of {@code GET /vton/requests} (beyond the interface): its 2.9 status, what it asked for (images as
     * given), and when it was made and ended.
     */
    @JsonInclude(JsonInclude.Include.ALWAYS)
    @JsonPropertyOrder({"request-id", "status", "generated-output", "message", "user-id", "usecase-id",
            "model-image", "garment-image", "category", "mode", "output_format", "created-at", "ended-at"})
    public record Item(@JsonProperty("request-id") String requestId, String status,
            @JsonProperty("generated-output") String generatedOutput, String message,
            @JsonProperty("user-id") String userId, @JsonProperty("usecase-id") String usecaseId,
            @JsonProperty("model-image") String modelImage, @JsonProperty("garment-image") List<String> garmentImage,
            String category, String mode, @JsonProperty("output_format") String outputFormat,
            @JsonProperty("created-at") Instant createdAt, @JsonProperty("ended-at") Instant endedAt) {
    }

    static final int MAX_TEXT = 255;
    static final int MAX_URL = 2048;

    private final TryOnRequests requests;
    private final Caller caller;
    private final ObjectStore store;
    private final VtonConfig config;
    private final ObjectMapper mapper;

    public TryOnResource(TryOnRequests requests, Caller caller, ObjectStore store, VtonConfig config,
            ObjectMapper mapper) {
        this.mapper = mapper;
        this.requests = requests;
        this.caller = caller;
        this.store = store;
        this.config = config;
    }

    @POST
    @Path("request")
    @Consumes(MediaType.APPLICATION_JSON)
    @Operation(summary = "Create a try-on request")
    public Uni<Created> create(CreateRequest body) {
        if (body == null) {
            throw ApiException.badRequest("request body is required");
        }
        UUID clientId = caller.clientIdNamedBy(body.clientId());
        String userId = Fields.required("user-id", body.userId(), MAX_TEXT);
        String usecaseId = Fields.required("usecase-id", body.usecaseId(), MAX_TEXT);
        String model = url("model-image", body.modelImage());
        if (body.garmentImage() == null || body.garmentImage().isEmpty()) {
            throw ApiException.validation("field 'garment-image' is required: an array of one or more image URLs");
        }
        if (body.garmentImage().size() > config.maxGarments()) {
            throw ApiException.validation("field 'garment-image' has more than " + config.maxGarments() + " images");
        }
        List<String> garments = new ArrayList<>();
        for (int i = 0; i < body.garmentImage().size(); i++) {
            garments.add(url("garment-image[" + i + "]", body.garmentImage().get(i)));
        }
        GarmentCategory category = Fields.oneOf("category", body.category(), GarmentCategory.class,
                GarmentCategory.AUTO);
        TryOnMode mode = Fields.oneOf("mode", body.mode(), TryOnMode.class, TryOnMode.BALANCED);
        ModerationLevel moderation = Fields.oneOf("moderation_level", body.moderationLevel(), ModerationLevel.class,
                ModerationLevel.PERMISSIVE);
        boolean segmentationFree = body.segmentationFree() == null || body.segmentationFree();
        OutputFormat format = Fields.oneOf("output_format", body.outputFormat(), OutputFormat.class, OutputFormat.PNG);
        return requests.accept(new TryOnRequests.Submission(clientId, userId, usecaseId, model, garments, category,
                mode, moderation, segmentationFree, format)).map(request -> new Created(request.id.toString()));
    }

    @GET
    @Path("status/{requestId}")
    @Operation(summary = "A try-on request's status and, once ready, the generated image's URL")
    public Uni<Status> status(@PathParam("requestId") String requestId) {
        UUID id;
        try {
            id = UUID.fromString(requestId);
        } catch (IllegalArgumentException e) {
            throw ApiException.notFound("try-on request '" + requestId + "' not found");
        }
        return requests.find(id, caller.clientId()).map(request -> new Status(request.id.toString(),
                request.status.name(),
                request.status == TryOnStatus.SUCCESS && request.outputKey != null
                        ? store.publicUrl(request.outputKey)
                        : null,
                request.message));
    }

    @GET
    @Path("requests")
    @Operation(summary = "The caller's try-on requests, newest first, filtered and paginated")
    public Uni<Page<Item>> list(@QueryParam("status") String status, @QueryParam("usecase-id") String usecaseId,
            @QueryParam("from") String from, @QueryParam("to") String to, @QueryParam("limit") String limit,
            @QueryParam("cursor") String cursor) {
        PageRequest page = PageRequest.of(limit, cursor);
        Instant since = Dates.time("from", from);
        Instant until = Dates.time("to", to);
        Dates.range(since, until);
        TryOnRequests.ListFilter filter = new TryOnRequests.ListFilter(
                ListFilters.oneOf("status", status, TryOnStatus.class, TryOnStatus::name),
                ListFilters.text("usecase-id", usecaseId), since, until);
        return requests.list(caller.clientId(), filter, page).map(found -> found.map(this::item));
    }

    private Item item(TryOnRequest request) {
        boolean ended = request.status != TryOnStatus.PROCESSING;
        return new Item(request.id.toString(), request.status.name(),
                request.status == TryOnStatus.SUCCESS && request.outputKey != null
                        ? store.publicUrl(request.outputKey)
                        : null,
                request.message, request.userId, request.usecaseId, request.modelImage, garments(request),
                request.category.wire(), request.mode.wire(), request.outputFormat.wire(), request.createdAt,
                ended ? request.updatedAt : null);
    }

    private List<String> garments(TryOnRequest request) {
        try {
            return mapper.readValue(request.garmentImages, new TypeReference<List<String>>() {
            });
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("stored garment images of " + request.id + " are unreadable", e);
        }
    }

    private static String url(String name, String value) {
        if (value == null || value.isBlank()) {
            throw ApiException.validation("field '" + name + "' is required");
        }
        String url = value.strip();
        // An http(s) URL, or the vendor's own object of the store as s3://bucket/key (docs/security.md).
        if (url.length() > MAX_URL || !(url.regionMatches(true, 0, "http://", 0, 7)
                || url.regionMatches(true, 0, "https://", 0, 8) || url.regionMatches(true, 0, "s3://", 0, 5))
                || url.chars().anyMatch(c -> c <= 0x20)) {
            throw ApiException.validation("field '" + name + "' must be an http(s) URL or an s3:// object path of"
                    + " at most " + MAX_URL + " characters");
        }
        if (!url.regionMatches(true, 0, "s3://", 0, 5)) {
            try {
                // the fetcher's own rules of form (a host, a port, no credentials): refused now, not when it runs
                DestinationPolicy.parse(url);
            } catch (FetchException e) {
                throw ApiException.validation("field '" + name + "' is not a URL that can be fetched: "
                        + e.getMessage());
            }
        }
        return url;
    }

}
