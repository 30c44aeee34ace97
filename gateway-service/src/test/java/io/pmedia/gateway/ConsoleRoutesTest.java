package io.pmedia.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

import io.restassured.path.json.JsonPath;

/**
 * The console never sends a value it was given (the URL fragment, a field, an API answer) anywhere but as one
 * encoded segment of the operation it meant (issue 33: {@code #/batch/..%2F..%2F..%2Fwebhooks%2Fendpoint%2Ftest} made
 * "Cancel task" send {@code POST /webhooks/endpoint/test}). {@code src/test/browser/console-routes.mjs} drives the
 * console's files from the {@code console/} folder in Debian's Chromium against a fake API inside the browser: every
 * route with hostile fragments, every field filled, every button clicked, every link followed; no stack needed.
 */
class ConsoleRoutesTest {

    @Test
    void everyRouteWithHostileFragmentsSendsEachValueAsOneSegmentOfItsOwnPagesOperations() throws Exception {
        // About 2 minutes on a quiet 2-core machine; the bound is for a loaded one.
        ConsoleBrowser.Result run = ConsoleBrowser.run("console-routes.mjs", 15);
        String printed = run.printed();
        JsonPath result = run.json();
        assertThat(result.getList("failures", String.class)).as(printed).isEmpty();
        assertThat(result.getList("pageErrors", String.class)).as(printed).isEmpty();
        assertThat(result.getList("unexercised", String.class)).as("operations with a value in their path")
                .isEmpty();
        assertThat(result.getString("reproduction")).as("the report's crafted link, then 'Cancel task'")
                .isEqualTo("POST /media/task/cancel/..%2F..%2F..%2Fwebhooks%2Fendpoint%2Ftest");
        assertThat(result.getInt("visits")).isGreaterThan(100);
    }
}
