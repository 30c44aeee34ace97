package io.pmedia.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

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

    static final Path ROOT = Path.of("..").toAbsolutePath().normalize();

    @Test
    void everyRouteWithHostileFragmentsSendsEachValueAsOneSegmentOfItsOwnPagesOperations() throws Exception {
        assertThat(ROOT.resolve("build/node/node_modules/playwright-core")).as(
                "playwright-core is installed by ./pmedia test (npm ci --prefix build/node)").exists();
        assertThat(Path.of("/usr/bin/chromium")).as("Chromium is installed by ./pmedia test (apt-get install chromium)")
                .exists();
        Path out = Files.createTempFile("console-routes", ".json");
        try {
            Process node = new ProcessBuilder("node", Path.of("src/test/browser/console-routes.mjs").toString(),
                    ROOT.resolve("console").toString()).redirectOutput(out.toFile())
                    .redirectError(ProcessBuilder.Redirect.INHERIT).start();
            // About 2 minutes on a quiet 2-core machine; the bound is for a loaded one.
            if (!node.waitFor(15, TimeUnit.MINUTES)) {
                node.destroyForcibly();
                throw new AssertionError("console-routes.mjs did not finish within 15 minutes");
            }
            String printed = Files.readString(out, StandardCharsets.UTF_8);
            JsonPath result = new JsonPath(printed.lines().reduce((a, b) -> b).orElse("{}"));
            assertThat(result.getList("failures", String.class)).as(printed).isEmpty();
            assertThat(result.getList("pageErrors", String.class)).as(printed).isEmpty();
            assertThat(result.getList("unexercised", String.class)).as("operations with a value in their path")
                    .isEmpty();
            assertThat(result.getString("reproduction")).as("the report's crafted link, then 'Cancel task'")
                    .isEqualTo("POST /media/task/cancel/..%2F..%2F..%2Fwebhooks%2Fendpoint%2Ftest");
            assertThat(result.getInt("visits")).isGreaterThan(100);
        } finally {
            deleteQuietly(out);
        }
    }

    private static void deleteQuietly(Path file) {
        try {
            Files.deleteIfExists(file);
        } catch (IOException e) {
            // a temp file left behind
        }
    }
}
