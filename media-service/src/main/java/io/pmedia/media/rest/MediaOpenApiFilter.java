package io.pmedia.media.rest;

import java.util.List;
import java.util.Map;

import org.eclipse.microprofile.openapi.OASFactory;
import org.eclipse.microprofile.openapi.OASFilter;
import org.eclipse.microprofile.openapi.models.OpenAPI;
import org.eclipse.microprofile.openapi.models.Operation;
import org.eclipse.microprofile.openapi.models.media.Schema;

/**
 * Adds the error body (interface 2.11) to every operation, and describes what the interface leaves open in the {@code data} object of 2.3: the
 * elements of {@code global_cohorts} and {@code frame_segments} and the values of {@code personalization_fields}
 * (docs/templates.md has the full account). The records live with the template model, which stays free of API
 * annotations; the words are added here.
 */
public class MediaOpenApiFilter implements OASFilter {

    private static final String ERROR = "ErrorResponse";
    private static final Map<String, String> ERRORS = Map.of(
            "400", "BAD_REQUEST (malformed JSON, wrong types) or VALIDATION_ERROR (the message names the field)",
            "401", "UNAUTHORIZED: missing or invalid bearer token",
            "403", "FORBIDDEN: the token lacks the role",
            "404", "NOT_FOUND, also for another client's resource",
            "500", "INTERNAL_ERROR");

    @Override
    public Operation filterOperation(Operation operation) {
        if (operation.getResponses() == null) {
            return operation;
        }
        ERRORS.forEach((code, description) -> error(operation, code, description));
        if (operation.getRequestBody() != null && operation.getRequestBody().getContent() != null
                && operation.getRequestBody().getContent().toString().contains("RealtimeMediaRequest")) {
            error(operation, "409", "CONFLICT: the client-request-id was already used with a different body");
        }
        return operation;
    }

    private static void error(Operation operation, String code, String description) {
        operation.getResponses().addAPIResponse(code, OASFactory.createAPIResponse().description(description)
                .content(OASFactory.createContent().addMediaType("application/json", OASFactory.createMediaType()
                        .schema(OASFactory.createSchema().ref("#/components/schemas/" + ERROR)))));
    }

    @Override
    public void filterOpenAPI(OpenAPI openAPI) {
        if (openAPI.getComponents() == null || openAPI.getComponents().getSchemas() == null) {
            return;
        }
        openAPI.getComponents().addSchema(ERROR, OASFactory.createSchema()
                .description("Interface 2.11: the body of every error")
                .addType(Schema.SchemaType.OBJECT)
                .required(List.of("error", "message", "code", "timestamp"))
                .addProperty("error", OASFactory.createSchema().addType(Schema.SchemaType.BOOLEAN)
                        .description("true when an error occurred"))
                .addProperty("message", OASFactory.createSchema().addType(Schema.SchemaType.STRING))
                .addProperty("code", OASFactory.createSchema().addType(Schema.SchemaType.STRING)
                        .description("UNAUTHORIZED, FORBIDDEN, BAD_REQUEST, VALIDATION_ERROR, NOT_FOUND, "
                                + "CONFLICT, PAYLOAD_TOO_LARGE, UNSUPPORTED_MEDIA_TYPE, INTERNAL_ERROR, ..."))
                .addProperty("timestamp", OASFactory.createSchema().addType(Schema.SchemaType.STRING)
                        .format("date-time")));
        Map<String, Schema> schemas = openAPI.getComponents().getSchemas();
        describe(schemas, "MediaData", "Media generation data (interface 2.3); every key inside it is spelled with "
                + "underscores.",
                Map.of(
                        "global_assets", "asset URLs filling the template's asset slots by index",
                        "global_cohorts", "the user's cohort memberships; they choose segment variants",
                        "personalization_fields", "values of the template's fields by name (GET /templates lists "
                                + "them); a text, a number or a boolean each",
                        "frame_segments", "changes to named segments of the template for this request"));
        describe(schemas, "GlobalAssets", "http(s) URLs; an empty string or null leaves a slot empty.", Map.of(
                "images", "image slots, by index (image/* content)",
                "videos", "video slots, by index (video/* content)",
                "icons", "icon slots, by index (image/* content)"));
        describe(schemas, "Cohort", "A cohort the user belongs to.", Map.of(
                "cohort", "the cohort's name, e.g. gold (required)"));
        describe(schemas, "FrameSegment", "A change to one named segment of the template.", Map.of(
                "segment_id", "the segment's id in the template (required)",
                "order", "position: segments with an order come first, ascending; the others follow in the "
                        + "template's order",
                "skip", "true leaves the segment out",
                "duration", "new length in seconds; the segment's layer timings stretch or shrink with it",
                "texts", "new text of text layers, by layer id; may use {{field}} placeholders",
                "assets", "new http(s) URL of image, icon and video layers by layer id, and of the segment's "
                        + "image or video background under 'background'"));
    }

    private static void describe(Map<String, Schema> schemas, String name, String description,
            Map<String, String> properties) {
        Schema schema = schemas.get(name);
        if (schema == null) {
            return;
        }
        schema.setDescription(description);
        if (schema.getProperties() == null) {
            return;
        }
        properties.forEach((property, text) -> {
            Schema field = schema.getProperties().get(property);
            if (field != null) {
                field.setDescription(text);
            }
        });
    }
}
