package io.pmedia.media.rest;

import java.time.Instant;
import java.util.List;

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

import io.pmedia.common.security.Roles;
import io.pmedia.media.RegisteredFont;
import io.pmedia.media.service.FontCatalog;
import io.smallrye.mutiny.Uni;

/** Fonts for templates, registered by the operator (docs/templates.md "Fonts"). */
@Path("/admin/fonts")
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "Templates")
public class FontResource {

    /** The body of {@code POST /admin/fonts}. */
    public record FontUpload(String name, String file) {
    }

    public record FontView(String name, String family, String format, @JsonProperty("size-bytes") long sizeBytes,
            String sha256, @JsonProperty("created-at") Instant createdAt) {

        static FontView of(RegisteredFont font) {
            return new FontView(font.name, font.family, font.format, font.sizeBytes, font.sha256, font.createdAt);
        }
    }

    private final FontCatalog catalog;

    public FontResource(FontCatalog catalog) {
        this.catalog = catalog;
    }

    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    @RolesAllowed(Roles.OPERATOR)
    @Operation(summary = "Register a TrueType or OpenType font for templates (201); the same file again is 200")
    public Uni<Response> register(FontUpload upload) {
        FontUpload body = upload == null ? new FontUpload(null, null) : upload;
        return catalog.register(body.name(), body.file()).map(registered -> Response
                .status(registered.created() ? Response.Status.CREATED : Response.Status.OK)
                .entity(FontView.of(registered.font())).build());
    }

    @GET
    @RolesAllowed(Roles.OPERATOR)
    @Operation(summary = "The registered fonts")
    public Uni<List<FontView>> all() {
        return catalog.all().map(fonts -> fonts.stream().map(FontView::of).toList());
    }
}
