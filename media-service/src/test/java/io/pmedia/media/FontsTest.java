package io.pmedia.media;

import static io.pmedia.media.MediaApi.awaitFinal;
import static io.pmedia.media.MediaApi.body;
import static io.pmedia.media.MediaApi.request;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;

import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.Map;
import java.util.UUID;

import javax.imageio.ImageIO;

import org.junit.jupiter.api.Test;

import io.pmedia.testing.TestTokens;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.response.ValidatableResponse;

/**
 * Fonts an operator registers (POST /admin/fonts): checked as fonts, kept per name, usable by templates, drawn by the
 * real render workers from the object store.
 */
@QuarkusTest
class FontsTest {

    static final Path SERIF = Path.of("/usr/share/fonts/truetype/dejavu/DejaVuSerif-Bold.ttf");
    static final Path MONO = Path.of("/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf");

    private static ValidatableResponse upload(String token, String name, String file) {
        return given().header("Authorization", "Bearer " + token).contentType(ContentType.JSON)
                .body(Map.of("name", name, "file", file)).post("/admin/fonts").then().log().ifValidationFails();
    }

    private static String base64(Path file) throws Exception {
        return Base64.getEncoder().encodeToString(Files.readAllBytes(file));
    }

    private static String card(String useCase, String font) {
        return """
                {"use-case-id": "%s", "name": "Font card",
                 "canvas": {"width": 320, "height": 180, "fps": 25, "background": "#203040"},
                 "fields": [{"name": "name", "required": true}],
                 "segments": [{"id": "only", "duration": 1, "layers": [
                   {"id": "hello", "type": "text", "text": "Hello {{name}}", "size": 40, "font": "%s"}]}]}"""
                .formatted(useCase, font);
    }

    @Test
    void aRegisteredFontIsKeptByNameAndChecked() throws Exception {
        String name = "brand-" + UUID.randomUUID().toString().substring(0, 8);
        String operator = TestTokens.operator();
        upload(operator, name, base64(SERIF)).statusCode(201).body("name", equalTo(name))
                .body("family", equalTo("DejaVu Serif")).body("format", equalTo("ttf"));
        upload(operator, name, base64(SERIF)).statusCode(200);
        upload(operator, name, base64(MONO)).statusCode(409).body("code", equalTo("CONFLICT"));
        upload(operator, "other-" + name, "not base64 !").statusCode(400)
                .body("message", equalTo("file: not base64"));
        upload(operator, "other-" + name, Base64.getEncoder().encodeToString(new byte[64])).statusCode(400)
                .body("message", equalTo("file: not a TrueType (.ttf) or OpenType (.otf) font"));
        upload(operator, "sans", base64(SERIF)).statusCode(400).body("message", containsString("built-in"));
        upload(TestTokens.bearer(UUID.randomUUID()).substring("Bearer ".length()), "x-" + name, base64(SERIF))
                .statusCode(403);
        given().header("Authorization", "Bearer " + operator).get("/admin/fonts").then().statusCode(200)
                .body("name", org.hamcrest.Matchers.hasItem(name));
    }

    @Test
    void templatesNameRegisteredFontsAndTheWorkersDrawWithThem() throws Exception {
        String font = "brand-" + UUID.randomUUID().toString().substring(0, 8);
        upload(TestTokens.operator(), font, base64(SERIF)).statusCode(201);
        String useCase = "font-" + font;
        MediaApi.registerTemplate(card(useCase, font)).statusCode(201);
        MediaApi.registerTemplate(card("nofont-" + font, "not-registered")).statusCode(400)
                .body("message", containsString("unknown font 'not-registered' (fonts: sans,"))
                .body("message", containsString(font));

        UUID client = UUID.randomUUID();
        String id = request(client, body("font-1", useCase, Map.of("personalization_fields", Map.of("name", "Ada"))))
                .statusCode(200).extract().path("service-request-id");
        assertThat(awaitFinal(client, id).getString("status")).isEqualTo("SUCCESS");

        String templateId = MediaApi.registerTemplate(card(useCase, font)).extract().path("template-id");
        String sansId = MediaApi.registerTemplate(card("sans-" + font, "sans")).extract().path("template-id");
        BufferedImage brand = preview(client, templateId);
        BufferedImage sans = preview(client, sansId);
        long differing = 0;
        for (int y = 0; y < 180; y++) {
            for (int x = 0; x < 320; x++) {
                differing += Math.abs((brand.getRGB(x, y) & 0xff) - (sans.getRGB(x, y) & 0xff)) > 40 ? 1 : 0;
            }
        }
        assertThat(differing).as("the serif bold font draws other pixels than the sans").isGreaterThan(200);
    }

    private static BufferedImage preview(UUID client, String templateId) throws Exception {
        byte[] jpeg = given().header("Authorization", TestTokens.bearer(client)).contentType(ContentType.JSON)
                .body(Map.of("data", Map.of("personalization_fields", Map.of("name", "Ada"))))
                .post("/templates/" + templateId + "/preview").then().statusCode(200).extract().asByteArray();
        return ImageIO.read(new ByteArrayInputStream(jpeg));
    }
}
