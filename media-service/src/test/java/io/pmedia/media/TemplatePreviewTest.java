package io.pmedia.media;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import javax.imageio.ImageIO;

import org.junit.jupiter.api.Test;

import io.pmedia.testing.TestTokens;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.response.ValidatableResponse;

/**
 * Previews (POST /templates/{templateId}/preview): a JPEG still of the personalized frame, checked like a render,
 * through the real service and FFmpeg; another vendor's template reads as missing.
 */
@QuarkusTest
class TemplatePreviewTest {

    /** A vendor's own template: the name large in the middle of a plain canvas for 1 s, then an outro. */
    private static final String CARD = """
            {"use-case-id": "%s", "name": "Preview card",
             "canvas": {"width": 320, "height": 180, "fps": 25, "background": "#203040"},
             "fields": [{"name": "name", "required": true, "max-length": 20}],
             "segments": [{"id": "hello", "duration": 1, "layers": [
                            {"id": "hello", "type": "text", "text": "{{name}}", "size": 40}]},
                          {"id": "outro", "duration": 1, "background": {"color": "#ff0000"}}]}""";

    private static String ownTemplate(UUID owner) {
        String useCase = "preview-" + UUID.randomUUID().toString().substring(0, 8);
        return given().header("Authorization", TestTokens.bearer(owner)).contentType(ContentType.JSON)
                .body(CARD.formatted(useCase)).post("/templates").then().statusCode(201).extract()
                .path("template-id");
    }

    private static ValidatableResponse preview(UUID client, String templateId, Object body) {
        return given().header("Authorization", TestTokens.bearer(client)).contentType(ContentType.JSON).body(body)
                .post("/templates/" + templateId + "/preview").then().log().ifValidationFails();
    }

    private static BufferedImage still(UUID client, String templateId, String name, double time) throws IOException {
        byte[] jpeg = preview(client, templateId, Map.of("data", Map.of("personalization_fields",
                Map.of("name", name)), "time", time)).statusCode(200).contentType("image/jpeg").extract()
                .asByteArray();
        return ImageIO.read(new ByteArrayInputStream(jpeg));
    }

    @Test
    void theStillShowsThePersonalizedTextAtThatMoment() throws IOException {
        UUID owner = UUID.randomUUID();
        String template = ownTemplate(owner);

        BufferedImage ada = still(owner, template, "Ada", 0.5);
        BufferedImage bob = still(owner, template, "Maximilian", 0.5);
        assertThat(ada.getWidth()).isEqualTo(320);
        assertThat(ada.getHeight()).isEqualTo(180);
        assertThat(difference(ada, bob, 60, 60, 200, 60)).as("the name region changes with the name")
                .isGreaterThan(10);
        assertThat(difference(ada, still(owner, template, "Ada", 0.5), 0, 0, 320, 180))
                .as("the same data draws the same still").isLessThan(1);
        BufferedImage outro = still(owner, template, "Ada", 1.5);
        int red = outro.getRGB(160, 90);
        assertThat((red >> 16) & 0xff).as("at 1.5 s the red outro shows").isGreaterThan(200);
    }

    @Test
    void dataARenderWouldRefuseIs400WithTheReason() {
        UUID owner = UUID.randomUUID();
        String template = ownTemplate(owner);
        preview(owner, template, Map.of("data", Map.of("personalization_fields", Map.of("other", "x"))))
                .statusCode(400).contentType(ContentType.JSON)
                .body("code", org.hamcrest.Matchers.equalTo("VALIDATION_ERROR"))
                .body("message", org.hamcrest.Matchers.startsWith("personalization field 'name' is required by"));
        preview(owner, template, Map.of("data", Map.of("personalization_fields", Map.of("name", "Ada")), "time", 2))
                .statusCode(400).body("message", org.hamcrest.Matchers.containsString("time must be from 0"));
        // a number JSON allows and a double does not hold: it was a 500
        preview(owner, template, "{\"data\": {\"personalization_fields\": {\"name\": 1e400}}}")
                .statusCode(400).body("code", org.hamcrest.Matchers.equalTo("VALIDATION_ERROR"))
                .body("message", org.hamcrest.Matchers.containsString("'name' is a number beyond what a double"));
    }

    @Test
    void anAssetThatDoesNotAnswerIsA400WithinThePreviewsOwnLimit() throws IOException {
        UUID owner = UUID.randomUUID();
        String template = given().header("Authorization", TestTokens.bearer(owner)).contentType(ContentType.JSON)
                .body("""
                        {"use-case-id": "preview-photo", "name": "Photo card",
                         "canvas": {"width": 320, "height": 180, "fps": 25, "background": "#203040"},
                         "assets": {"images": [{"name": "photo"}]},
                         "segments": [{"id": "s", "duration": 1, "layers": [{"id": "p", "type": "image", "asset": 0,
                                       "x": 10, "y": 10, "width": 50, "height": 50}]}]}""")
                .post("/templates").then().statusCode(201).extract().path("template-id");
        try (AssetServer host = new AssetServer()) {
            // the render's 30 s per asset is the gateway's whole limit: the vendor got the gateway's 503, not this
            preview(owner, template, Map.of("data", Map.of("global_assets", Map.of("images",
                    List.of(host.url("/hold/photo.png"))))))
                    .statusCode(400).body("code", org.hamcrest.Matchers.equalTo("VALIDATION_ERROR"))
                    .body("message", org.hamcrest.Matchers.allOf(org.hamcrest.Matchers.containsString(
                            "/hold/photo.png could not be fetched"),
                            org.hamcrest.Matchers.matchesPattern(".* within [1-8] s$")));
        }
    }

    @Test
    void anotherVendorsTemplateReadsAsMissing() {
        UUID owner = UUID.randomUUID();
        String template = ownTemplate(owner);
        Map<String, Object> body = Map.of("data", Map.of("personalization_fields", Map.of("name", "Ada")));
        String missing = preview(UUID.randomUUID(), UUID.randomUUID().toString(), body).statusCode(404).extract()
                .path("message");
        String others = preview(UUID.randomUUID(), template, body).statusCode(404).extract().path("message");
        assertThat(others).isEqualTo(missing.replaceAll("'[^']*'", "'" + template + "'"));
    }

    /** Mean absolute difference of grey levels in a region. */
    private static double difference(BufferedImage a, BufferedImage b, int x0, int y0, int w, int h) {
        double sum = 0;
        for (int y = y0; y < y0 + h; y++) {
            for (int x = x0; x < x0 + w; x++) {
                sum += Math.abs(grey(a.getRGB(x, y)) - grey(b.getRGB(x, y)));
            }
        }
        return sum / (w * h);
    }

    private static int grey(int rgb) {
        return (((rgb >> 16) & 0xff) + ((rgb >> 8) & 0xff) + (rgb & 0xff)) / 3;
    }
}
