package io.pmedia.system;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;

/**
 * /docs in Chromium: Redoc renders every section of the document with only the page's own hashed scripts allowed to run, no
 * Content-Security-Policy violation, and no request to another origin (issue 33: it ran with
 * {@code script-src 'unsafe-inline'} and asked a CDN for its logo).
 */
class ApiReferencePageTest {

    @Test
    void theReferenceRendersUnderItsStrictPolicyAndAsksNothingOfAnotherOrigin() throws Exception {
        JsonNode seen = Browser.run("api-reference.mjs", Map.of("url", Stack.gateway() + "/docs/"), 120);
        assertThat(seen.path("error").isMissingNode()).as(seen.toString()).isTrue();
        assertThat(seen.path("status").asInt()).isEqualTo(200);
        JsonNode document = new ObjectMapper(new YAMLFactory()).readTree(Path.of(System.getProperty("pmedia.root",
                "..")).resolve("docs/openapi.yaml").toFile());
        List<String> tags = new ArrayList<>();
        document.path("tags").forEach(tag -> tags.add(tag.path("name").asText()));
        assertThat(tags).hasSizeGreaterThan(5);
        assertThat(seen.path("text").asText()).as("the sections the page's script drew").contains(tags)
                .contains(document.at("/info/title").asText());
        assertThat(seen.path("violations")).as("CSP violations").isEmpty();
        assertThat(seen.path("elsewhere")).as("requests to other origins").isEmpty();
    }
}
