package io.pmedia.gateway;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;

/**
 * /docs serves the API reference rendered at build time from the OpenAPI document the gateway serves (every
 * operation is on the page), self-contained (nothing loaded from elsewhere, which its CSP also forbids), the events
 * reference from docs/asyncapi.yaml, and both documents as they are.
 */
@QuarkusTest
class ApiReferenceTest {

    static final Path ROOT = Path.of("..").toAbsolutePath().normalize();

    @Test
    void docsIsTheReferenceOfEveryOperationAndLoadsNothingFromElsewhere() throws Exception {
        given().redirects().follow(false).get("/docs").then().statusCode(301).header("Location", "/docs/");
        Response page = given().get("/docs/");
        assertThat(page.statusCode()).isEqualTo(200);
        assertThat(page.contentType()).startsWith("text/html");
        assertThat(page.header("X-Content-Type-Options")).as("the edge's header on every answer").isEqualTo("nosniff");
        assertThat(page.header("Content-Security-Policy")).startsWith("default-src 'none'")
                .contains("frame-ancestors 'none'").doesNotContain("http");
        String html = page.asString();
        assertThat(html).contains("<title>pmedia API reference</title>");
        String scripts = page.header("Content-Security-Policy").replaceAll(".*script-src ([^;]*);.*", "$1");
        assertThat(scripts).as("only the page's own scripts run").doesNotContain("unsafe-inline")
                .contains("'sha256-");
        // As an HTML parser reads them: an element's text runs to the first </script>, whatever it contains.
        Matcher inline = Pattern.compile("<script(?![^>]*\\bsrc=)[^>]*>(.*?)</script>",
                Pattern.DOTALL | Pattern.CASE_INSENSITIVE).matcher(html);
        while (inline.find()) {
            String hash = Base64.getEncoder().encodeToString(MessageDigest
                    .getInstance("SHA-256").digest(inline.group(1).getBytes(StandardCharsets.UTF_8)));
            assertThat(scripts).contains("'sha256-" + hash + "'");
        }
        assertThat(html).as("no third-party request, not even the logo").doesNotContain("cdn.redoc.ly");
        List<String> operationIds = new ArrayList<>();
        Matcher ids = Pattern.compile("operationId: (\\w+)")
                .matcher(Files.readString(ROOT.resolve("docs/openapi.yaml")));
        while (ids.find()) {
            operationIds.add(ids.group(1));
        }
        assertThat(operationIds).hasSizeGreaterThan(30);
        assertThat(html).as("the page is rendered from the current document").contains(operationIds);
        // Nothing loaded from elsewhere (the bundle names a CDN's icon sets it never uses here; the CSP forbids them).
        assertThat(html).doesNotContainPattern("<script[^>]+src=").doesNotContainPattern("<link[^>]+href=\"?https?:")
                .doesNotContain("fonts.googleapis.com");
    }

    @Test
    void theEventsReferenceAndBothDocumentsAreBesideIt() throws IOException {
        String events = given().get("/docs/events").then().statusCode(200).contentType("text/html").extract()
                .asString();
        assertThat(events).contains("pmedia.media.status", "pmedia.batch.status");
        assertThat(given().get("/docs/asyncapi.yaml").then().statusCode(200).extract().asString())
                .isEqualTo(Files.readString(ROOT.resolve("docs/asyncapi.yaml")));
        assertThat(given().get("/docs/openapi.yaml").then().statusCode(200).extract().asString())
                .isEqualTo(Files.readString(ROOT.resolve("gateway-service/src/main/resources/META-INF/openapi.yaml")));
    }
}
