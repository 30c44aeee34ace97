package io.pmedia.media.rest;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.JsonNode;

import io.pmedia.common.security.Caller;
import io.pmedia.common.security.Roles;
import io.pmedia.media.service.MotionCatalog;
import io.smallrye.mutiny.Uni;

/**
 * Lottie files for templates' lottie layers (docs/templates.md "Lottie"): a vendor registers its own at
 * {@code /motions}, the operator shared ones at {@code /admin/motions} (contracts.md, 2026-11-29).
 */
@Path("/")
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "Templates")
public class MotionResource {

    /** The body of {@code POST /motions} and {@code POST /admin/motions}. */
    public record MotionUpload(String name, JsonNode lottie) {
    }

    /** A registered motion, with what a template's lottie layer may fill in it and what the engine will not draw. */
    public record MotionView(String name, boolean shared, @JsonProperty("size-bytes") long sizeBytes, String sha256,
            int width, int height, @JsonProperty("frame-rate") double frameRate, double duration,
            @JsonProperty("text-layers") List<String> textLayers, Map<String, String> slots,
            @JsonProperty("image-assets") List<String> imageAssets, List<String> warnings,
            @JsonProperty("created-at") Instant createdAt) {

        static MotionView of(MotionCatalog.Registered registered) {
            var motion = registered.motion();
            var facts = registered.facts();
            return new MotionView(motion.name, motion.owner == null, motion.sizeBytes, motion.sha256, facts.width(),
                    facts.height(), facts.frameRate(), facts.duration(), facts.textLayers(), facts.slots(),
                    facts.imageAssets(), facts.warnings(), motion.createdAt);
        }
    }

    private final MotionCatalog catalog;
    private final Caller caller;

    public MotionResource(MotionCatalog catalog, Caller caller) {
        this.catalog = catalog;
        this.caller = caller;
    }

    @POST
    @Path("motions")
    @Consumes(MediaType.APPLICATION_JSON)
    @RolesAllowed(Roles.CLIENT)
    @Operation(summary = "Register a Lottie file of this client's own for templates (201); the same file again is 200")
    public Uni<Response> registerOwn(MotionUpload upload) {
        return register(caller.clientId(), upload);
    }

    @GET
    @Path("motions")
    @RolesAllowed(Roles.CLIENT)
    @Operation(summary = "This client's own Lottie files")
    public Uni<List<MotionView>> own() {
        return list(caller.clientId());
    }

    @POST
    @Path("admin/motions")
    @Consumes(MediaType.APPLICATION_JSON)
    @RolesAllowed(Roles.OPERATOR)
    @Operation(summary = "Register a shared Lottie file for every template (201); the same file again is 200")
    public Uni<Response> registerShared(MotionUpload upload) {
        return register(null, upload);
    }

    @GET
    @Path("admin/motions")
    @RolesAllowed(Roles.OPERATOR)
    @Operation(summary = "The shared Lottie files")
    public Uni<List<MotionView>> shared() {
        return list(null);
    }

    private Uni<Response> register(UUID owner, MotionUpload upload) {
        MotionUpload body = upload == null ? new MotionUpload(null, null) : upload;
        return catalog.register(owner, body.name(), body.lottie()).map(registered -> Response
                .status(registered.created() ? Response.Status.CREATED : Response.Status.OK)
                .entity(MotionView.of(registered)).build());
    }

    private Uni<List<MotionView>> list(UUID owner) {
        return catalog.all(owner).map(all -> all.stream().map(MotionView::of).toList());
    }
}
