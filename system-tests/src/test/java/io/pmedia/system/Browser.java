package io.pmedia.system;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * Runs one of the browser scripts of system-tests/browser (Chromium driven by playwright-core) with its input as
 * JSON, and answers the one JSON line it prints last: what it saw.
 */
final class Browser {

    private static final ObjectMapper JSON = new ObjectMapper();

    private Browser() {
    }

    static JsonNode run(String script, Map<String, String> input, int timeoutSeconds) throws Exception {
        Path file = Path.of(System.getProperty("pmedia.root", "..")).resolve("system-tests/browser").resolve(script);
        Process node = new ProcessBuilder("node", file.toString(), JSON.writeValueAsString(input))
                .redirectError(ProcessBuilder.Redirect.INHERIT).start();
        String out = new String(node.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(node.waitFor(timeoutSeconds, TimeUnit.SECONDS)).isTrue();
        // A script that died before its report (no browser, a syntax error) says so here, not as an empty answer.
        String last = out.lines().reduce((a, b) -> b).orElse("");
        assertThat(last).as(script + " printed no report (exit code " + node.exitValue() + "; its stderr is above)")
                .startsWith("{");
        return JSON.readTree(last);
    }
}
