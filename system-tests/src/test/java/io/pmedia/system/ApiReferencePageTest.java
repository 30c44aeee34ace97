package io.pmedia.system;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * /docs in Chromium: Redoc renders every operation with only the page's own hashed scripts allowed to run, no
 * Content-Security-Policy violation, and no request to another origin (issue 33: it ran with
 * {@code script-src 'unsafe-inline'} and asked a CDN for its logo).
 */
class ApiReferencePageTest {

    @Test
    void theReferenceRendersUnderItsStrictPolicyAndAsksNothingOfAnotherOrigin() throws Exception {
        JsonNode seen = Browser.run("api-reference.mjs", Map.of("url", Stack.gateway() + "/docs/"), 120);
        assertThat(seen.path("error").isMissingNode()).as(seen.toString()).isTrue();
        assertThat(seen.path("status").asInt()).isEqualTo(200);
        assertThat(seen.path("operations").asInt()).as("operations drawn by the page's script")
                .isGreaterThanOrEqualTo(OpenApiDocument.load().operations().size() - 1);
        assertThat(seen.path("violations")).as("CSP violations").isEmpty();
        assertThat(seen.path("elsewhere")).as("requests to other origins").isEmpty();
    }
}
