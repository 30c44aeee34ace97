package io.pmedia.gateway;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;

/**
 * /console serves the console from the top-level console/ folder: the page never cached, under a strict CSP (own
 * scripts only, nothing inline, nobody may frame it); every file it lists under a hashed path cached for a year; the
 * list is the folder; a stale or unknown path is 404.
 */
@QuarkusTest
class ConsolePagesTest {

    static final Path CONSOLE = Path.of("..", "console").toAbsolutePath().normalize();

    @Test
    void thePageIsNeverCachedAndRunsItsOwnScriptsOnly() throws IOException {
        given().redirects().follow(false).get("/console").then().statusCode(301).header("Location", "/console/");
        Response page = given().get("/console/");
        assertThat(page.statusCode()).isEqualTo(200);
        assertThat(page.contentType()).startsWith("text/html");
        assertThat(page.header("Cache-Control")).isEqualTo("no-cache");
        assertThat(page.header("Content-Security-Policy")).startsWith("default-src 'self'; script-src 'self';")
                .doesNotContain("unsafe-inline").doesNotContain("unsafe-eval").contains("frame-ancestors 'none'")
                .contains("object-src 'none'");
        String html = page.asString();
        assertThat(html).doesNotContain("@VERSION@").doesNotContainPattern("<script>|<script [^>]*>[^<]")
                .doesNotContainPattern("(src|href)=\"(https?:)?//").doesNotContain(" style=")
                .doesNotContainPattern("\\son[a-z]+=");

        Matcher script = Pattern.compile("src=\"/console/([0-9a-f]{12})/js/app.js\"").matcher(html);
        assertThat(script.find()).as(html).isTrue();
        String version = script.group(1);
        Response app = given().get("/console/" + version + "/js/app.js");
        assertThat(app.statusCode()).isEqualTo(200);
        assertThat(app.contentType()).startsWith("text/javascript");
        assertThat(app.header("Cache-Control")).contains("max-age=31536000").contains("immutable");
        assertThat(app.asString()).isEqualTo(Files.readString(CONSOLE.resolve("js/app.js")));

        given().get("/console/000000000000/js/app.js").then().statusCode(404);
        given().get("/console/" + version + "/js/missing.js").then().statusCode(404);
        given().get("/console/" + version + "/files.txt").then().statusCode(404);
    }

    @Test
    void everyFileOfTheFolderIsServedAndNothingLoadsFromElsewhere() throws IOException {
        List<String> all = Files.readAllLines(CONSOLE.resolve("files.txt")).stream()
                .filter(line -> !line.isBlank() && !line.startsWith("#")).sorted().toList();
        // What the build vendors (hls.js copied from build/node, the SDK bundled by esbuild) is served, not kept in
        // the folder.
        List<String> listed = all.stream().filter(name -> !name.startsWith("vendor/")).toList();
        try (Stream<Path> walk = Files.walk(CONSOLE)) {
            List<String> present = walk.filter(Files::isRegularFile).map(file -> CONSOLE.relativize(file).toString())
                    .filter(name -> !name.equals("files.txt") && !name.equals("README.md")).sorted().toList();
            assertThat(listed).as("console/files.txt lists the folder").isEqualTo(present);
        }
        String version = given().get("/console/").asString().replaceAll("(?s).*/console/([0-9a-f]{12})/.*", "$1");
        for (String name : listed) {
            if (name.equals("index.html")) {
                continue;
            }
            String body = given().get("/console/" + version + "/" + name).then().statusCode(200).extract().asString()
                    .replace("http://www.w3.org/2000/svg", "");
            assertThat(body).as(name).doesNotContainPattern("(https?:)?//[a-z0-9.-]+\\.(com|net|org|io)/")
                    .doesNotContain("innerHTML").doesNotContain("eval(");
        }
        assertThat(given().get("/console/" + version + "/vendor/hls.light.min.mjs").then().statusCode(200)
                .contentType(containsString("javascript")).extract().asString())
                .contains("isSupported").hasSizeGreaterThan(100_000);
        // The console's API client: @pmedia/client as one ES module, its own origin's (nothing from elsewhere).
        String sdk = given().get("/console/" + version + "/vendor/pmedia-client.mjs").then().statusCode(200)
                .contentType(containsString("javascript")).extract().asString();
        assertThat(sdk).contains("PmediaClient").contains("PmediaApiError").contains("markedIdempotent")
                .doesNotContainPattern("\\bimport\\s*[{*\"']").doesNotContainPattern("from\\s*\"https?:");
        assertThat(given().get("/console/" + version + "/js/api.js").asString())
                .contains("from '../vendor/pmedia-client.mjs'").doesNotContain("fetch(");
    }
}
