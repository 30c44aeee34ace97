package io.pmedia.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import io.restassured.path.json.JsonPath;

/**
 * Runs one of the console's browser scripts of {@code src/test/browser} (Debian's Chromium driven by playwright-core
 * from build/node, serving the {@code console/} folder against a fake API; no stack) and answers the one JSON line it
 * prints last.
 */
final class ConsoleBrowser {

    static final Path ROOT = Path.of("..").toAbsolutePath().normalize();

    private ConsoleBrowser() {
    }

    /** The script's result; {@code minutes} bounds it on a loaded machine. */
    static Result run(String script, int minutes) throws Exception {
        assertThat(ROOT.resolve("build/node/node_modules/playwright-core")).as(
                "playwright-core is installed by ./pmedia test (npm ci --prefix build/node)").exists();
        assertThat(Path.of("/usr/bin/chromium")).as("Chromium is installed by ./pmedia test (apt-get install chromium)")
                .exists();
        Path out = Files.createTempFile(script, ".json");
        try {
            Process node = new ProcessBuilder("node", Path.of("src/test/browser", script).toString(),
                    ROOT.resolve("console").toString()).redirectOutput(out.toFile())
                    .redirectError(ProcessBuilder.Redirect.INHERIT).start();
            if (!node.waitFor(minutes, TimeUnit.MINUTES)) {
                node.destroyForcibly();
                throw new AssertionError(script + " did not finish within " + minutes + " minutes");
            }
            String printed = Files.readString(out, StandardCharsets.UTF_8);
            return new Result(printed, new JsonPath(printed.lines().reduce((a, b) -> b).orElse("{}")));
        } finally {
            try {
                Files.deleteIfExists(out);
            } catch (IOException e) {
                // a temp file left behind
            }
        }
    }

    /** What the script printed, and its last line as JSON. */
    record Result(String printed, JsonPath json) {

        /** For the scripts that print {checks, pageErrors}: at least {@code least} checks, each ok, no uncaught error. */
        void assertEveryCheckPassed(int least) {
            List<Map<String, Object>> checks = json.getList("checks");
            assertThat(checks).as(printed).hasSizeGreaterThanOrEqualTo(least);
            assertThat(checks.stream().filter(check -> !Boolean.TRUE.equals(check.get("ok")))
                    .map(check -> check.get("name") + ": " + check.get("detail")).toList()).as("failed checks")
                    .isEmpty();
            assertThat(json.getList("pageErrors", String.class)).as("uncaught errors").isEmpty();
        }
    }
}
