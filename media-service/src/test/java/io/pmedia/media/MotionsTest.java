package io.pmedia.media;

import static io.pmedia.media.MediaApi.awaitFinal;
import static io.pmedia.media.MediaApi.body;
import static io.pmedia.media.MediaApi.request;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.not;

import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.util.Map;
import java.util.UUID;

import javax.imageio.ImageIO;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

import io.pmedia.testing.TestTokens;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.response.ValidatableResponse;

/**
 * Lottie files registered as motions (POST /motions, the vendor's own; POST /admin/motions, shared) and drawn by the
 * graphics engine in templates' lottie layers, their placeholders filled, through the real database, store and
 * render workers.
 */
@QuarkusTest
class MotionsTest {

    static final ObjectMapper MAPPER = new ObjectMapper();

    static ObjectNode hello() throws Exception {
        try (InputStream in = MotionsTest.class.getResourceAsStream("/motions/hello.json")) {
            return (ObjectNode) MAPPER.readTree(in);
        }
    }

    static ValidatableResponse register(String authorization, String path, String name, Object lottie) {
        return given().header("Authorization", authorization).contentType(ContentType.JSON)
                .body(Map.of("name", name, "lottie", lottie)).post(path).then().log().ifValidationFails();
    }

    static ValidatableResponse registerOwnTemplate(UUID client, String definition) {
        return given().header("Authorization", TestTokens.bearer(client)).contentType(ContentType.JSON)
                .body(definition).post("/templates").then().log().ifValidationFails();
    }

    static String card(String useCase, String motion, String extra) {
        return """
                {"use-case-id": "%s", "name": "Motion card",
                 "canvas": {"width": 320, "height": 180, "fps": 25, "background": "#101820"},
                 "fields": [{"name": "name", "required": true}],
                 "segments": [{"id": "only", "duration": 2, "layers": [
                   {"id": "hello", "type": "lottie", "motion": "%s", "x": 0, "y": 0, "width": 320, "height": 180,
                    "text": {"NAME": "Hi {{name}}"}%s}]}]}""".formatted(useCase, motion, extra);
    }

    @Test
    void aVendorsMotionIsKeptByNameCheckedAndItsOwn() throws Exception {
        UUID vendor = UUID.randomUUID();
        UUID other = UUID.randomUUID();
        String name = "hello-" + UUID.randomUUID().toString().substring(0, 8);
        register(TestTokens.bearer(vendor), "/motions", name, hello()).statusCode(201)
                .body("name", equalTo(name)).body("shared", equalTo(false)).body("width", equalTo(320))
                .body("text-layers", contains("NAME")).body("slots.accent", equalTo("color"));
        register(TestTokens.bearer(vendor), "/motions", name, hello()).statusCode(200);
        ObjectNode changed = hello();
        changed.put("op", 40);
        register(TestTokens.bearer(vendor), "/motions", name, changed).statusCode(409)
                .body("code", equalTo("CONFLICT"));
        // another vendor may use the same name for a file of its own
        register(TestTokens.bearer(other), "/motions", name, changed).statusCode(201);

        ObjectNode malformed = hello();
        malformed.put("w", "wide");
        register(TestTokens.bearer(vendor), "/motions", "bad-" + name, malformed).statusCode(400)
                .body("code", equalTo("VALIDATION_ERROR")).body("message", containsString("/w"));
        given().header("Authorization", TestTokens.bearer(vendor)).contentType(ContentType.JSON)
                .body(Map.of("name", "bad-" + name)).post("/motions").then().statusCode(400)
                .body("message", containsString("lottie: required"));
        register(TestTokens.bearer(vendor), "/motions", "Not A Name", hello()).statusCode(400)
                .body("message", containsString("name:"));

        given().header("Authorization", TestTokens.bearer(vendor)).get("/motions").then().statusCode(200)
                .body("name", hasItem(name)).body("find { it.name == '" + name + "' }.sha256",
                        not(equalTo(null)));
        // a vendor's motion is its own: another's templates cannot name it, and its list does not show it
        given().header("Authorization", TestTokens.bearer(UUID.randomUUID())).get("/motions").then()
                .statusCode(200).body("name", not(hasItem(name)));
        registerOwnTemplate(UUID.randomUUID(), card("motion-" + name, name, "")).statusCode(400)
                .body("message", containsString("unknown motion '" + name + "'"));
        registerOwnTemplate(vendor, card("motion-" + name, name, "")).statusCode(201);
        // nor may a shared template name it
        MediaApi.registerTemplate(card("shared-motion-" + name, name, "")).statusCode(400)
                .body("message", containsString("unknown motion"));
        // placeholders the file has not are named
        registerOwnTemplate(vendor, card("motion-typo-" + name, name, ", \"colors\": {\"accnt\": \"#00ff00\"}"))
                .statusCode(400).body("message", containsString("colors.accnt: the motion has no colour slot"));
        registerOwnTemplate(vendor, card("motion-color-" + name, name, ", \"colors\": {\"accent\": \"green\"}"))
                .statusCode(400).body("message", containsString("colors.accent: a colour #rrggbb"));
    }

    @Test
    void anOperatorsMotionIsSharedAndOnlyTheOperatorRegistersOne() throws Exception {
        String name = "shared-" + UUID.randomUUID().toString().substring(0, 8);
        register(TestTokens.bearer(UUID.randomUUID()), "/admin/motions", name, hello()).statusCode(403);
        register("Bearer " + TestTokens.operator(), "/admin/motions", name, hello()).statusCode(201)
                .body("shared", equalTo(true));
        given().header("Authorization", "Bearer " + TestTokens.operator()).get("/admin/motions").then()
                .statusCode(200).body("name", hasItem(name));
        MediaApi.registerTemplate(card("shared-" + name, name, "")).statusCode(201);
        registerOwnTemplate(UUID.randomUUID(), card("own-" + name, name, "")).statusCode(201);
    }

    @Test
    void aSharedTemplateDrawsTheSharedMotionThoughTheVendorHasOneOfTheSameName() throws Exception {
        String name = "shared-" + UUID.randomUUID().toString().substring(0, 8);
        register("Bearer " + TestTokens.operator(), "/admin/motions", name, hello()).statusCode(201);
        String templateId = MediaApi.registerTemplate(card("shared-card-" + name, name, "")).statusCode(201)
                .extract().path("template-id");
        // the vendor's own file under the same name has no NAME text layer: drawn in the shared template, the render
        // would fail (the review's case: a vendor's motion stood in for the operator's in a shared template)
        UUID vendor = UUID.randomUUID();
        ObjectNode textless = hello();
        com.fasterxml.jackson.databind.node.ArrayNode layers = MAPPER.createArrayNode();
        textless.withArray("layers").forEach(layer -> {
            if (layer.path("ty").asInt() != 5) {
                layers.add(layer);
            }
        });
        textless.set("layers", layers);
        register(TestTokens.bearer(vendor), "/motions", name, textless).statusCode(201);

        preview(vendor, templateId, "Ada");
        String id = request(vendor, body("shared-motion-1", "shared-card-" + name, Map.of("personalization_fields",
                Map.of("name", "Ada")))).statusCode(200).extract().path("service-request-id");
        assertThat(awaitFinal(vendor, id).getString("status")).as("the shared file, rendered by the worker")
                .isEqualTo("SUCCESS");
        // the vendor's own template of that name draws the vendor's file
        registerOwnTemplate(vendor, card("own-card-" + name, name, "")).statusCode(400)
                .body("message", containsString("NAME"));
    }

    @Test
    void theRenderDrawsTheMotionWithItsPlaceholdersFilled() throws Exception {
        UUID vendor = UUID.randomUUID();
        String name = "hello-" + UUID.randomUUID().toString().substring(0, 8);
        register(TestTokens.bearer(vendor), "/motions", name, hello()).statusCode(201);
        String templateId = registerOwnTemplate(vendor,
                card("motion-" + name, name, ", \"colors\": {\"accent\": \"#00ff00\"}")).statusCode(201)
                .extract().path("template-id");

        BufferedImage ada = preview(vendor, templateId, "Ada");
        BufferedImage zoe = preview(vendor, templateId, "Zoë Ngata");
        assertThat(differing(ada, zoe, 0, 0, 320, 70)).as("the name layer shows the request's name")
                .isGreaterThan(100);
        assertThat(differing(ada, zoe, 0, 100, 320, 80)).as("the square is the same for both").isZero();
        int centre = ada.getRGB(160, 120);
        assertThat((centre >> 8) & 0xff).as("the colour slot is the template's green").isGreaterThan(180);
        assertThat((centre >> 16) & 0xff).isLessThan(80);

        String id = request(vendor, body("motion-1", "motion-" + name, Map.of("personalization_fields",
                Map.of("name", "Ada")))).statusCode(200).extract().path("service-request-id");
        assertThat(awaitFinal(vendor, id).getString("status")).isEqualTo("SUCCESS");
    }

    private static BufferedImage preview(UUID client, String templateId, String name) throws Exception {
        byte[] jpeg = given().header("Authorization", TestTokens.bearer(client)).contentType(ContentType.JSON)
                .body(Map.of("data", Map.of("personalization_fields", Map.of("name", name)), "time", 1.0))
                .post("/templates/" + templateId + "/preview").then().statusCode(200).extract().asByteArray();
        return ImageIO.read(new ByteArrayInputStream(jpeg));
    }

    private static long differing(BufferedImage a, BufferedImage b, int x0, int y0, int width, int height) {
        long differing = 0;
        for (int y = y0; y < y0 + height; y++) {
            for (int x = x0; x < x0 + width; x++) {
                int pa = a.getRGB(x, y);
                int pb = b.getRGB(x, y);
                int delta = Math.abs((pa & 0xff) - (pb & 0xff)) + Math.abs((pa >> 8 & 0xff) - (pb >> 8 & 0xff))
                        + Math.abs((pa >> 16 & 0xff) - (pb >> 16 & 0xff));
                differing += delta > 60 ? 1 : 0;
            }
        }
        return differing;
    }
}
