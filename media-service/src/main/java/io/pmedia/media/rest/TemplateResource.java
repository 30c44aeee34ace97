package io.pmedia.media.rest;

import java.time.Instant;
import java.util.List;
import java.util.UUID;

import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.RequestBody;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.JsonNode;

import io.pmedia.common.error.ApiException;
import io.pmedia.common.security.Caller;
import io.pmedia.common.security.Roles;
import io.pmedia.media.TemplateVersion;
import io.pmedia.media.service.TemplateCatalog;
import io.pmedia.media.service.TemplatePreviews;
import io.pmedia.media.template.AssetKind;
import io.pmedia.media.template.MediaData;
import io.pmedia.media.template.TemplateDefinition;
import io.smallrye.mutiny.Uni;

/**
 * Templates: shared ones registered by the operator, a vendor's own registered by that vendor; listed for vendors with
 * the fields each requires.
 */
@Path("/")
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "Templates")
public class TemplateResource {

    /** A template as vendors (and, with its definition, operators) see it. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record TemplateView(@JsonProperty("template-id") UUID templateId,
            @JsonProperty("use-case-id") String useCaseId,
            @JsonProperty("owner-client-id") UUID ownerClientId, int version, String name, String description,
            @JsonProperty("duration-seconds") double durationSeconds, int width, int height, int fps,
            @JsonProperty("required-fields") List<String> requiredFields,
            @JsonProperty("optional-fields") List<String> optionalFields, List<FieldView> fields,
            @JsonProperty("asset-slots") AssetSlotsView assetSlots, List<String> segments,
            @JsonProperty("created-at") Instant createdAt, TemplateDefinition definition) {
    }

    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record FieldView(String name, boolean required, @JsonProperty("default") String defaultValue,
            @JsonProperty("max-length") int maxLength) {
    }

    public record AssetSlotsView(int images, int videos, int icons) {
    }

    private final TemplateCatalog catalog;
    private final TemplatePreviews previews;
    private final Caller caller;

    public TemplateResource(TemplateCatalog catalog, TemplatePreviews previews, Caller caller) {
        this.catalog = catalog;
        this.previews = previews;
        this.caller = caller;
    }

    @POST
    @Path("admin/templates")
    @Consumes(MediaType.APPLICATION_JSON)
    @RolesAllowed(Roles.OPERATOR)
    @Operation(summary = "Register a template, or a new version of one (201); the same definition again is 200")
    @APIResponse(responseCode = "201", description = "a new template, or a new version of its use case", content = @Content(schema = @Schema(implementation = TemplateView.class)))
    @APIResponse(responseCode = "200", description = "the same definition as the current version: nothing changed", content = @Content(schema = @Schema(implementation = TemplateView.class)))
    public Uni<Response> register(
            @RequestBody(description = "The template definition (docs/templates.md)", content = @Content(schema = @Schema(implementation = TemplateDefinition.class))) JsonNode definition) {
        return catalog.register(definition).map(this::answer);
    }

    @GET
    @Path("admin/templates")
    @RolesAllowed(Roles.OPERATOR)
    @Operation(summary = "Every template's current version, with its definition")
    public Uni<List<TemplateView>> all() {
        return catalog.current().map(versions -> versions.stream().map(v -> view(v, true)).toList());
    }

    @GET
    @Path("admin/templates/{useCaseId}")
    @RolesAllowed(Roles.OPERATOR)
    @Operation(summary = "A template's current version, with its definition")
    public Uni<TemplateView> one(@PathParam("useCaseId") String useCaseId) {
        return catalog.byUseCase(useCaseId).map(v -> view(v, true));
    }

    @POST
    @Path("templates")
    @Consumes(MediaType.APPLICATION_JSON)
    @RolesAllowed(Roles.CLIENT)
    @Operation(summary = "Register a template of this client's own, or a new version of it (201); the same definition again is 200")
    @APIResponse(responseCode = "201", description = "a new template, or a new version of its use case", content = @Content(schema = @Schema(implementation = TemplateView.class)))
    @APIResponse(responseCode = "200", description = "the same definition as the current version: nothing changed", content = @Content(schema = @Schema(implementation = TemplateView.class)))
    public Uni<Response> registerOwn(
            @RequestBody(description = "The template definition (docs/templates.md)", content = @Content(schema = @Schema(implementation = TemplateDefinition.class))) JsonNode definition) {
        return catalog.registerOwned(definition, caller.clientId()).map(this::answer);
    }

    @GET
    @Path("templates")
    @RolesAllowed(Roles.CLIENT)
    @Operation(summary = "The templates this client may render (its own and the shared ones), with the personalization fields each requires")
    public Uni<List<TemplateView>> available() {
        return catalog.availableTo(caller.clientId())
                .map(versions -> versions.stream().map(v -> view(v, false)).toList());
    }

    /**
     * One template this client may render, by its template id, with its definition: what the batch service pins
     * when it accepts a task (it calls this with the vendor's token). Another client's private template reads as 404.
     */
    @GET
    @Path("templates/{templateId}")
    @RolesAllowed(Roles.CLIENT)
    @Operation(summary = "One template this client may render, with its definition")
    public Uni<TemplateView> usable(@PathParam("templateId") String templateId) {
        return catalog.usableBy(templateId(templateId), caller.clientId()).map(v -> view(v, true));
    }

    /** The body of a preview: the data of {@code POST /media/demo} and the moment to draw. */
    public record PreviewRequest(
            @Schema(description = "the same data as POST /media/demo") MediaData data,
            @Schema(description = "seconds into the video; default: the middle of the first segment") Double time) {
    }

    /**
     * One frame of what a render of {@code data} would show at {@code time}, as a JPEG, without rendering the
     * video: for live forms. The data is checked exactly as a render checks it.
     */
    @POST
    @Path("templates/{templateId}/preview")
    @Consumes(MediaType.APPLICATION_JSON)
    @Produces({"image/jpeg", MediaType.APPLICATION_JSON})
    @RolesAllowed(Roles.CLIENT)
    @Operation(summary = "A JPEG still of the template filled with this data at a moment, without rendering the video")
    @APIResponse(responseCode = "200", description = "the still", content = @Content(mediaType = "image/jpeg"))
    @APIResponse(responseCode = "400", description = "data a render would refuse, with the reason")
    @APIResponse(responseCode = "404", description = "no such template, or not this client's to use")
    public Uni<Response> preview(@PathParam("templateId") String templateId, PreviewRequest body) {
        UUID id = templateId(templateId);
        PreviewRequest request = body == null ? new PreviewRequest(null, null) : body;
        return previews.preview(id, caller.clientId(), request.data(), request.time())
                .map(jpeg -> Response.ok(jpeg, "image/jpeg").header("Cache-Control", "no-store").build());
    }

    private static UUID templateId(String templateId) {
        try {
            return UUID.fromString(templateId);
        } catch (IllegalArgumentException e) {
            throw ApiException.notFound("template '" + templateId + "' not found");
        }
    }

    /** 201 with the new version, or 200 when the definition was the current version's already. */
    private Response answer(TemplateCatalog.Registered registered) {
        return Response.status(registered.created() ? Response.Status.CREATED : Response.Status.OK)
                .entity(view(registered.version(), true)).build();
    }

    private TemplateView view(TemplateVersion version, boolean withDefinition) {
        TemplateDefinition definition = catalog.definition(version);
        List<FieldView> fields = definition.fieldsOrEmpty().stream()
                .map(f -> new FieldView(f.name(), f.requiredOrFalse(), f.defaultValue(), f.maxLengthOrDefault()))
                .toList();
        TemplateDefinition.AssetSlots slots = definition.assetsOrEmpty();
        return new TemplateView(version.templateId, version.useCaseId, version.ownerClientId, version.version,
                version.name,
                version.description, definition.durationSeconds(), definition.canvas().width(),
                definition.canvas().height(), definition.canvas().fps(), definition.requiredFields(),
                definition.optionalFields(), fields,
                new AssetSlotsView(slots.of(AssetKind.IMAGE).size(), slots.of(AssetKind.VIDEO).size(),
                        slots.of(AssetKind.ICON).size()),
                definition.segments().stream().map(TemplateDefinition.Segment::id).toList(), version.createdAt,
                withDefinition ? definition : null);
    }
}
