package io.pmedia.media.template;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.pmedia.common.json.StrictJson;

/** The sample templates of deploy/local/templates and JSON reading as the service does it, for tests. */
public final class Templates {

    public static final ObjectMapper JSON = StrictJson.apply(new ObjectMapper());

    private Templates() {
    }

    public static Path sampleFile(String name) {
        return Path.of("..", "deploy", "local", "templates", name + ".json");
    }

    public static TemplateDefinition sample(String name) {
        try {
            return JSON.readValue(Files.readString(sampleFile(name)), TemplateDefinition.class);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public static TemplateDefinition parse(String json) {
        return read(json, TemplateDefinition.class);
    }

    public static JsonNode tree(String json) {
        return read(json, JsonNode.class);
    }

    public static MediaData data(String json) {
        return read(json, MediaData.class);
    }

    /** The current form's data applied to a template. */
    public static ResolvedVideo resolve(TemplateDefinition template, String data) {
        return TemplateResolver.resolve(template, RenderInputs.fromCurrentForm(data(data)));
    }

    public static <T> T read(String json, Class<T> type) {
        try {
            return JSON.readValue(json, type);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
