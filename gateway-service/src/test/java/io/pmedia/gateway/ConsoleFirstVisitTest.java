package io.pmedia.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import io.restassured.path.json.JsonPath;

/**
 * What a new vendor's first visit to the console found (issue 39), each a check of
 * {@code src/test/browser/console-first-visit.mjs} in Debian's Chromium against a fake API shaped like
 * docs/openapi.yaml, with the clock fixed where the local and the UTC date differ: a template's renditions (an object
 * keyed by output name) in the render panel, no status poll after SUCCESS, usage asked up to tomorrow (the end is
 * exclusive) on Home, the Usage page and the operator's page, the daily charts labelled from each period's
 * {@code start}, a Usage page in the menu, the vendor's name in the header, "1 attempt", and axe-core on every page
 * at 1280 px and 360 px, light and dark, with no serious or critical violation. No stack needed; about a minute.
 */
class ConsoleFirstVisitTest {

    static final Path ROOT = Path.of("..").toAbsolutePath().normalize();

    @Test
    void aFirstVisitFindsNoneOfTheIssuesBugs() throws Exception {
        assertThat(ROOT.resolve("build/node/node_modules/playwright-core")).as(
                "playwright-core is installed by ./pmedia test (npm ci --prefix build/node)").exists();
        assertThat(Path.of("/usr/bin/chromium")).as("Chromium is installed by ./pmedia test (apt-get install chromium)")
                .exists();
        Path out = Files.createTempFile("console-first-visit", ".json");
        try {
            Process node = new ProcessBuilder("node", Path.of("src/test/browser/console-first-visit.mjs").toString(),
                    ROOT.resolve("console").toString()).redirectOutput(out.toFile())
                    .redirectError(ProcessBuilder.Redirect.INHERIT).start();
            if (!node.waitFor(10, TimeUnit.MINUTES)) {
                node.destroyForcibly();
                throw new AssertionError("console-first-visit.mjs did not finish within 10 minutes");
            }
            String printed = Files.readString(out, StandardCharsets.UTF_8);
            JsonPath result = new JsonPath(printed.lines().reduce((a, b) -> b).orElse("{}"));
            List<Map<String, Object>> checks = result.getList("checks");
            assertThat(checks).as(printed).hasSizeGreaterThan(50);
            assertThat(checks.stream().filter(check -> !Boolean.TRUE.equals(check.get("ok")))
                    .map(check -> check.get("name") + ": " + check.get("detail")).toList()).as("failed checks")
                    .isEmpty();
            assertThat(result.getList("pageErrors", String.class)).as("uncaught errors").isEmpty();
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
