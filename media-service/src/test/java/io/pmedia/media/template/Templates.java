package io.pmedia.media.template;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

import com.fasterxml.jackson.databind.ObjectMapper;

import io.pmedia.common.json.StrictJson;

/** The sample templates of deploy/local/templates, as tests read them. */
public final class Templates {

    public static final ObjectMapper JSON = StrictJson.apply(new ObjectMapper());

    private Templates() {
    }

    public static TemplateDefinition sample(String name) {
        Path file = Path.of("..", "deploy", "local", "templates", name + ".json");
        try {
            return JSON.readValue(Files.readString(file), TemplateDefinition.class);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public static TemplateDefinition parse(String json) {
        try {
            return JSON.readValue(json, TemplateDefinition.class);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public static MediaData data(String json) {
        try {
            return JSON.readValue(json, MediaData.class);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
