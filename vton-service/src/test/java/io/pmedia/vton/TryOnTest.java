package io.pmedia.vton;

import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.nullValue;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.time.Duration;
import java.util.List;
import java.util.UUID;

import javax.imageio.ImageIO;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import io.pmedia.testing.KafkaEvents;
import io.pmedia.testing.KafkaTestResource;
import io.quarkus.test.junit.QuarkusTest;

/** The built-in engine through the real database, broker and store, with images served over HTTP. */
@QuarkusTest
class TryOnTest {

    private static KafkaEvents events;

    @BeforeAll
    static void listen() {
        events = KafkaEvents.of(KafkaTestResource.bootstrapServers(), "pmedia.vton.status");
    }

    @AfterAll
    static void close() {
        events.close();
    }

    @Test
    void theGarmentIsPlacedOnTheModelAndTheImageIsStoredAndPublished() throws Exception {
        UUID client = UUID.randomUUID();
        String id = VtonApi.create(client, VtonApi.body(client, WebDoubles.base() + "/img/model.png",
                "\"" + WebDoubles.base() + "/img/shirt.png\"", ", \"category\": \"tops\"")).statusCode(200)
                .extract().path("request-id");
        await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> VtonApi.status(client, id).statusCode(200)
                .body("status", equalTo("SUCCESS")));
        String url = VtonApi.status(client, id).body("request-id", equalTo(id)).body("message", equalTo("try-on ready"))
                .extract().path("generated-output");
        byte[] png = given().get(url).then().statusCode(200).extract().asByteArray();
        BufferedImage output = ImageIO.read(new ByteArrayInputStream(png));
        assertEquals(200, output.getWidth(), "the model photo's size");
        assertEquals(400, output.getHeight());
        assertEquals(WebDoubles.SHIRT.getRGB(), output.getRGB(100, 120) | 0xff000000, "the shirt, at the chest");
        assertEquals(WebDoubles.MODEL.getRGB(), output.getRGB(100, 300) | 0xff000000, "the model, below the waist");
        assertEquals(WebDoubles.MODEL.getRGB(), output.getRGB(50, 80) | 0xff000000,
                "the model shows through the shirt's white background");

        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertEquals(List.of("PROCESSING", "SUCCESS"),
                events.withKey(id).stream().map(event -> event.data().path("status").asText()).toList()));
    }

    @Test
    void jpegIsWrittenWhenAskedFor() {
        UUID client = UUID.randomUUID();
        String url = VtonApi.finished(client, VtonApi.body(client, WebDoubles.base() + "/img/model.png",
                "\"" + WebDoubles.base() + "/img/shirt.png\"", ", \"output_format\": \"jpeg\""))
                .body("status", equalTo("SUCCESS")).extract().path("generated-output");
        byte[] jpeg = given().get(url).then().statusCode(200).extract().asByteArray();
        assertEquals(0xFF, jpeg[0] & 0xFF);
        assertEquals(0xD8, jpeg[1] & 0xFF);
    }

    @Test
    void imagesThatCannotBeUsedEndTheRequestFailureWithTheReason() {
        UUID client = UUID.randomUUID();
        String shirt = "\"" + WebDoubles.base() + "/img/shirt.png\"";
        VtonApi.finished(client, VtonApi.body(client, "http://10.1.2.3/model.png", shirt, ""))
                .body("status", equalTo("FAILURE")).body("generated-output", nullValue())
                .body("message", containsString("model-image http://10.1.2.3/model.png could not be fetched"))
                .body("message", containsString("private"));
        VtonApi.finished(client, VtonApi.body(client, WebDoubles.base() + "/img/missing.png", shirt, ""))
                .body("status", equalTo("FAILURE")).body("message", containsString("answered HTTP 404"));
        VtonApi.finished(client, VtonApi.body(client, WebDoubles.base() + "/img/model.png",
                "\"" + WebDoubles.base() + "/img/text\"", ""))
                .body("status", equalTo("FAILURE")).body("message", containsString("garment-image[0]"));
        VtonApi.finished(client, VtonApi.body(client, WebDoubles.base() + "/img/model.png",
                "\"" + WebDoubles.base() + "/img/junk.bin\"", ""))
                .body("status", equalTo("FAILURE"))
                .body("message", containsString("garment-image[0] is not an image this service can read"));
    }

    @Test
    void anImageServedAsGenericBinaryIsDecodedAndUsed() {
        UUID client = UUID.randomUUID();
        VtonApi.finished(client, VtonApi.body(client, WebDoubles.base() + "/img/model.png",
                "\"" + WebDoubles.base() + "/img/shirt.bin\"", "")).body("status", equalTo("SUCCESS"));
    }

    @Test
    void badRequestsAreRefusedWithTheFieldNamed() {
        UUID client = UUID.randomUUID();
        String model = WebDoubles.base() + "/img/model.png";
        String shirt = "\"" + WebDoubles.base() + "/img/shirt.png\"";
        record Case(String body, String message) {
        }
        for (Case c : List.of(
                new Case(VtonApi.body(client, model, shirt, "").replace("\"user-id\": \"+15551234567\",", ""),
                        "field 'user-id' is required"),
                new Case(VtonApi.body(client, "ftp://x/model.png", shirt, ""),
                        "field 'model-image' must be an http(s)"),
                new Case(VtonApi.body(client, model, "", ""), "field 'garment-image' is required"),
                new Case(VtonApi.body(client, model, shirt, ", \"category\": \"hats\""),
                        "field 'category' must be one of"),
                new Case(VtonApi.body(client, model, shirt, ", \"mode\": \"fast\""), "field 'mode'"),
                new Case(VtonApi.body(client, model, shirt, ", \"moderation_level\": \"strict\""),
                        "field 'moderation_level'"),
                new Case(VtonApi.body(client, model, shirt, ", \"output_format\": \"gif\""), "field 'output_format'"),
                new Case(VtonApi.body(UUID.randomUUID(), model, shirt, ""), "field 'client-id'"))) {
            VtonApi.create(client, c.body()).statusCode(400).body("error", equalTo(true))
                    .body("code", equalTo("VALIDATION_ERROR")).body("message", containsString(c.message()));
        }
        VtonApi.create(client, VtonApi.body(client, model, shirt, ", \"segmentation_free\": \"yes\"")).statusCode(400)
                .body("code", equalTo("BAD_REQUEST")).body("message", containsString("segmentation_free"));
    }

    @Test
    void anotherClientsRequestIsNotFound() {
        UUID owner = UUID.randomUUID();
        String id = VtonApi.create(owner, VtonApi.body(owner, WebDoubles.base() + "/img/model.png",
                "\"" + WebDoubles.base() + "/img/shirt.png\"", "")).statusCode(200).extract().path("request-id");
        VtonApi.status(UUID.randomUUID(), id).statusCode(404).body("code", equalTo("NOT_FOUND"));
        VtonApi.status(owner, "not-an-id").statusCode(404).body("code", equalTo("NOT_FOUND"));
    }
}
