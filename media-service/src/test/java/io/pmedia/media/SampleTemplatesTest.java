package io.pmedia.media;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.oneOf;

import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import javax.imageio.ImageIO;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import io.pmedia.testing.TestTokens;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;

/**
 * The gallery as ./pmedia up registers it: every sample motion of deploy/local/motions as a shared motion, then
 * every sample template of deploy/local/templates, through the real service (validator, database, store); each
 * previews a frame, and the lottie ones draw their motion.
 */
@QuarkusTest
class SampleTemplatesTest {

    static final ObjectMapper JSON = new ObjectMapper();
    static final Path TEMPLATES = Path.of("../deploy/local/templates");
    static final Path MOTIONS = Path.of("../deploy/local/motions");
    /** The gallery issue 36 names: a vendor would show these to its boss. */
    static final List<String> GALLERY = List.of("welcome", "product-launch", "year-in-review", "order-confirmation",
            "event-invitation", "birthday", "vertical-short", "name-card");

    @Test
    void everySampleRegistersAndTheGalleryIsComplete() throws Exception {
        String operator = "Bearer " + TestTokens.operator();
        try (var files = Files.list(MOTIONS)) {
            for (Path file : files.filter(f -> f.toString().endsWith(".json")).sorted().toList()) {
                String name = file.getFileName().toString().replace(".json", "");
                given().header("Authorization", operator).contentType(ContentType.JSON)
                        .body("{\"name\": \"" + name + "\", \"lottie\": " + Files.readString(file) + "}")
                        .post("/admin/motions").then().log().ifValidationFails().statusCode(oneOf(200, 201));
            }
        }
        UUID demo = UUID.randomUUID();
        int lottie = 0;
        int speaking = 0;
        for (String id : GALLERY) {
            String json = Files.readString(TEMPLATES.resolve(id + ".json"))
                    .replace("@PMEDIA_DEMO_CLIENT_ID@", demo.toString())
                    .replace("@PMEDIA_SAMPLE_ASSETS@", "https://samples.example");
            MediaApi.registerTemplate(json).statusCode(oneOf(200, 201));
            lottie += json.contains("\"type\": \"lottie\"") ? 1 : 0;
            speaking += json.contains("\"type\": \"speech\"") ? 1 : 0;
        }
        assertThat(lottie).as("samples with Lottie motion").isGreaterThanOrEqualTo(3);
        assertThat(speaking).as("samples that speak").isGreaterThanOrEqualTo(2);
        try (var files = Files.list(TEMPLATES)) {
            for (Path file : files.filter(f -> f.toString().endsWith(".json")).toList()) {
                MediaApi.registerTemplate(Files.readString(file).replace("@PMEDIA_DEMO_CLIENT_ID@", demo.toString())
                        .replace("@PMEDIA_SAMPLE_ASSETS@", "https://samples.example")).statusCode(oneOf(200, 201));
            }
        }
    }

    @Test
    void theLottieSamplesDrawTheirMotion() throws Exception {
        everySampleRegistersAndTheGalleryIsComplete();
        UUID client = UUID.randomUUID();
        for (String id : List.of("birthday", "order-confirmation", "year-in-review")) {
            ObjectNode template = (ObjectNode) JSON.readTree(Files.readString(TEMPLATES.resolve(id + ".json")));
            String with = MediaApi.registerTemplate(template.toString()).extract().path("template-id");
            // the same template without its lottie layers, under another use case
            template.put("use-case-id", id + "-still-" + UUID.randomUUID().toString().substring(0, 8));
            int[] box = null;
            for (JsonNode segment : template.get("segments")) {
                var layers = (ArrayNode) segment.get("layers");
                for (int i = layers.size() - 1; i >= 0; i--) {
                    JsonNode layer = layers.get(i);
                    if ("lottie".equals(layer.path("type").asText())) {
                        box = new int[]{layer.get("x").asInt(), layer.get("y").asInt(), layer.get("width").asInt(),
                                layer.get("height").asInt()};
                        layers.remove(i);
                    }
                }
            }
            String without = MediaApi.registerTemplate(template.toString()).statusCode(201).extract()
                    .path("template-id");
            BufferedImage drawn = preview(client, with, "Ada");
            BufferedImage still = preview(client, without, "Ada");
            // the preview may be smaller than the canvas: the box scaled to it
            double scale = (double) drawn.getWidth() / template.get("canvas").get("width").asInt();
            int x0 = (int) (box[0] * scale);
            int y0 = (int) (box[1] * scale);
            int x1 = Math.min(drawn.getWidth(), (int) ((box[0] + box[2]) * scale));
            int y1 = Math.min(drawn.getHeight(), (int) ((box[1] + box[3]) * scale));
            long differing = 0;
            for (int y = y0; y < y1; y++) {
                for (int x = x0; x < x1; x++) {
                    differing += Math.abs((drawn.getRGB(x, y) & 0xff) - (still.getRGB(x, y) & 0xff)) > 40 ? 1 : 0;
                }
            }
            assertThat(differing).as(id + ": its motion draws in its box").isGreaterThan(200);
        }
    }

    private static BufferedImage preview(UUID client, String templateId, String name) throws Exception {
        byte[] jpeg = given().header("Authorization", TestTokens.bearer(client)).contentType(ContentType.JSON)
                .body(Map.of("data", Map.of("personalization_fields", Map.of("name", name, "order", "A-1042")),
                        "time", 3.0))
                .post("/templates/" + templateId + "/preview").then().log().ifValidationFails().statusCode(200)
                .extract().asByteArray();
        return ImageIO.read(new ByteArrayInputStream(jpeg));
    }
}
