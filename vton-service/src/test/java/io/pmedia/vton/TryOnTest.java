package io.pmedia.vton;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.util.List;
import java.util.UUID;

import javax.imageio.ImageIO;

import jakarta.inject.Inject;

import org.eclipse.microprofile.config.ConfigProvider;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import io.pmedia.storage.ObjectStore;
import io.pmedia.testing.KafkaEvents;
import io.pmedia.testing.KafkaTestResource;
import io.pmedia.testing.Patience;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;

/** The built-in engine through the real database, broker and store, with images served over HTTP. */
@QuarkusTest
class TryOnTest {

    private static KafkaEvents events;

    @Inject
    ObjectStore store;

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
        Patience.await().untilAsserted(() -> assertThat(VtonApi.status(client, id)
                .statusCode(200).extract().jsonPath().getString("status")).isEqualTo("SUCCESS"));
        JsonPath json = VtonApi.status(client, id).extract().jsonPath();
        assertThat(json.<Object>get("request-id")).isEqualTo(id);
        assertThat(json.getString("message")).isEqualTo("try-on ready");
        String url = json.getString("generated-output");
        byte[] png = given().urlEncodingEnabled(false).get(url).then().statusCode(200).extract().asByteArray();
        BufferedImage output = ImageIO.read(new ByteArrayInputStream(png));
        assertThat(output.getWidth()).as("the model photo's size").isEqualTo(200);
        assertThat(output.getHeight()).isEqualTo(400);
        assertThat(output.getRGB(100, 120) | 0xff000000).as("the shirt, at the chest")
                .isEqualTo(WebDoubles.SHIRT.getRGB());
        assertThat(output.getRGB(100, 300) | 0xff000000).as("the model, below the waist")
                .isEqualTo(WebDoubles.MODEL.getRGB());
        assertThat(output.getRGB(50, 80) | 0xff000000).as("the model shows through the shirt's white background")
                .isEqualTo(WebDoubles.MODEL.getRGB());

        Patience.await().untilAsserted(() -> assertThat(events.withKey(id).stream()
                .map(event -> event.data().path("status").asText())).containsExactly("PROCESSING", "SUCCESS"));
    }

    @Test
    void jpegIsWrittenWhenAskedFor() {
        UUID client = UUID.randomUUID();
        JsonPath json = VtonApi.finished(client,
                VtonApi.body(client, WebDoubles.base() + "/img/model.png",
                        "\"" + WebDoubles.base() + "/img/shirt.png\"", ", \"output_format\": \"jpeg\""))
                .extract().jsonPath();
        assertThat(json.getString("status")).isEqualTo("SUCCESS");
        String url = json.getString("generated-output");
        byte[] jpeg = given().urlEncodingEnabled(false).get(url).then().statusCode(200).extract().asByteArray();
        assertThat(jpeg[0] & 0xFF).isEqualTo(0xFF);
        assertThat(jpeg[1] & 0xFF).isEqualTo(0xD8);
    }

    @Test
    void imagesThatCannotBeUsedEndTheRequestFailureWithTheReason() {
        UUID client = UUID.randomUUID();
        String shirt = "\"" + WebDoubles.base() + "/img/shirt.png\"";
        JsonPath json = VtonApi.finished(client, VtonApi.body(client, "http://10.1.2.3/model.png", shirt, "")).extract()
                .jsonPath();
        assertThat(json.getString("status")).isEqualTo("FAILURE");
        assertThat(json.<Object>get("generated-output")).isNull();
        assertThat(json.getString("message")).contains("model-image http://10.1.2.3/model.png could not be fetched");
        assertThat(json.getString("message")).contains("does not resolve to a public address");
        JsonPath json2 = VtonApi
                .finished(client, VtonApi.body(client, WebDoubles.base() + "/img/missing.png", shirt, "")).extract()
                .jsonPath();
        assertThat(json2.getString("status")).isEqualTo("FAILURE");
        assertThat(json2.getString("message")).contains("answered HTTP 404");
        JsonPath json3 = VtonApi.finished(client, VtonApi.body(client, WebDoubles.base() + "/img/model.png",
                "\"" + WebDoubles.base() + "/img/text\"", "")).extract().jsonPath();
        assertThat(json3.getString("status")).isEqualTo("FAILURE");
        assertThat(json3.getString("message")).contains("garment-image[0]");
        JsonPath json4 = VtonApi.finished(client, VtonApi.body(client, WebDoubles.base() + "/img/model.png",
                "\"" + WebDoubles.base() + "/img/junk.bin\"", "")).extract().jsonPath();
        assertThat(json4.getString("status")).isEqualTo("FAILURE");
        assertThat(json4.getString("message")).contains("garment-image[0] is not an image this service can read");
    }

    @Test
    void anImageServedAsGenericBinaryIsDecodedAndUsed() {
        UUID client = UUID.randomUUID();
        assertThat(VtonApi.finished(client, VtonApi.body(client, WebDoubles.base() + "/img/model.png",
                "\"" + WebDoubles.base() + "/img/shirt.bin\"", ""))
                .extract().jsonPath().getString("status")).isEqualTo("SUCCESS");
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
                // ill-formed where the fetcher would refuse them: accepted, they failed only when the try-on ran
                new Case(VtonApi.body(client, "http:///model.png", shirt, ""), "field 'model-image' is not a URL"
                        + " that can be fetched: 'http:///model.png' has no host"),
                new Case(VtonApi.body(client, "http://127.0.0.1:99999/model.png", shirt, ""), "no valid port"),
                new Case(VtonApi.body(client, "http://user:pw@127.0.0.1/model.png", shirt, ""),
                        "must not carry credentials"),
                new Case(VtonApi.body(client, model, "", ""), "field 'garment-image' is required"),
                new Case(VtonApi.body(client, model, shirt, ", \"category\": \"hats\""),
                        "field 'category' must be one of"),
                new Case(VtonApi.body(client, model, shirt, ", \"mode\": \"fast\""), "field 'mode'"),
                new Case(VtonApi.body(client, model, shirt, ", \"moderation_level\": \"strict\""),
                        "field 'moderation_level'"),
                new Case(VtonApi.body(client, model, shirt, ", \"output_format\": \"gif\""),
                        "field 'output_format'"))) {
            JsonPath json = VtonApi.create(client, c.body()).statusCode(400).extract().jsonPath();
            assertThat(json.getBoolean("error")).isTrue();
            assertThat(json.getString("code")).isEqualTo("VALIDATION_ERROR");
            assertThat(json.getString("message")).contains(c.message());
        }
        JsonPath json2 = VtonApi.create(client, VtonApi.body(client, model, shirt, ", \"segmentation_free\": \"yes\""))
                .statusCode(400).extract().jsonPath();
        assertThat(json2.getString("code")).isEqualTo("BAD_REQUEST");
        assertThat(json2.getString("message")).contains("segmentation_free");
        JsonPath json3 = VtonApi.create(client, VtonApi.body(UUID.randomUUID(), model, shirt, "")).statusCode(403)
                .extract().jsonPath();
        assertThat(json3.getString("code")).isEqualTo("FORBIDDEN");
        assertThat(json3.getString("message")).contains("client-id");
    }

    @Test
    void imagesInThePlatformStoreAreUsedForTheirOwnerOnlyAndReadLikeMissingOnesForOthers() throws Exception {
        UUID owner = UUID.randomUUID();
        UUID other = UUID.randomUUID();
        String model = storeImage(owner, "model.png", WebDoubles.model());
        String shirt = storeImage(owner, "shirt.png", WebDoubles.shirt());
        assertThat(VtonApi.finished(owner, VtonApi.body(owner, model, "\"" + shirt + "\"", ", \"category\": \"tops\""))
                .extract().jsonPath().getString("status")).isEqualTo("SUCCESS");

        String missing = model.replace(owner.toString(), other.toString());
        for (String url : List.of(model, store.publicUrl(model.substring(model.indexOf("/inputs/") + 1)), missing)) {
            JsonPath json = VtonApi
                    .finished(other, VtonApi.body(other, url, "\"" + WebDoubles.base() + "/img/shirt.png\"", ""))
                    .extract().jsonPath();
            assertThat(json.getString("status")).isEqualTo("FAILURE");
            assertThat(json.getString("message")).isEqualTo("model-image " + (url.length() <= 120
                    ? url
                    : url.substring(0, 117)
                            + "...")
                    + " could not be fetched: not found");
        }
    }

    /** Puts an image into {@code client}'s input namespace; returns its URL on the store's endpoint. */
    private String storeImage(UUID client, String name, BufferedImage image) throws Exception {
        String key = "inputs/" + client + "/" + UUID.randomUUID() + "/" + name;
        ByteArrayOutputStream png = new ByteArrayOutputStream();
        ImageIO.write(image, "png", png);
        store.put(key, png.toByteArray(), "image/png");
        return ConfigProvider.getConfig().getValue("pmedia.storage.endpoint", String.class) + "/" + store.bucket()
                + "/" + key;
    }

    @Test
    void anotherClientsRequestIsNotFound() {
        UUID owner = UUID.randomUUID();
        String id = VtonApi.create(owner, VtonApi.body(owner, WebDoubles.base() + "/img/model.png",
                "\"" + WebDoubles.base() + "/img/shirt.png\"", "")).statusCode(200).extract().path("request-id");
        assertThat(VtonApi.status(UUID.randomUUID(), id).statusCode(404)
                .extract().jsonPath().getString("code")).isEqualTo("NOT_FOUND");
        assertThat(VtonApi.status(owner, "not-an-id").statusCode(404)
                .extract().jsonPath().getString("code")).isEqualTo("NOT_FOUND");
    }
}
