package io.pmedia.gateway;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.security.MessageDigest;
import java.util.Base64;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;

/**
 * /docs/gallery/ shows every sample's contact sheet (docs/samples, as scripts/contact-sheets.sh made them) with its
 * name and description, serves the images and the list the console reads, and nothing else.
 */
@QuarkusTest
class GalleryTest {

    @Test
    void theGalleryShowsEverySampleAndServesItsImages() throws Exception {
        JsonNode samples = new ObjectMapper().readTree(Files.readString(
                ApiReferenceTest.ROOT.resolve("docs/samples/gallery.json")));
        assertThat(samples.size()).as("the gallery's samples").isGreaterThanOrEqualTo(8);

        given().redirects().follow(false).get("/docs/gallery").then().statusCode(301)
                .header("Location", "/docs/gallery/");
        Response page = given().get("/docs/gallery/");
        assertThat(page.statusCode()).isEqualTo(200);
        assertThat(page.contentType()).startsWith("text/html");
        String csp = page.header("Content-Security-Policy");
        assertThat(csp).startsWith("default-src 'none'").contains("img-src 'self'").doesNotContain("unsafe-inline");
        String html = page.asString();
        String style = html.replaceAll("(?s).*<style>(.*?)</style>.*", "$1");
        assertThat(csp).as("the page's one style block, by its hash").contains("'sha256-" + Base64.getEncoder()
                .encodeToString(MessageDigest.getInstance("SHA-256").digest(style.getBytes(StandardCharsets.UTF_8)))
                + "'");
        for (JsonNode sample : samples) {
            String image = sample.get("image").asText();
            assertThat(html).contains("<h2>" + sample.get("name").asText().replace("&", "&amp;") + "</h2>")
                    .contains("src=\"" + image + "\"");
            byte[] png = given().get("/docs/gallery/" + image).then().statusCode(200).contentType("image/png")
                    .extract().asByteArray();
            assertThat(png).as(image).startsWith(0x89, 'P', 'N', 'G');
            assertThat(png).isEqualTo(Files.readAllBytes(ApiReferenceTest.ROOT.resolve("docs/samples/" + image)));
        }
        given().get("/docs/gallery/gallery.json").then().statusCode(200).contentType("application/json");
        given().get("/docs/gallery/nothing.png").then().statusCode(404).body("code",
                org.hamcrest.Matchers.equalTo("NOT_FOUND"));
        given().urlEncodingEnabled(false).get("/docs/gallery/..%2Findex.html").then().statusCode(404);
    }
}
