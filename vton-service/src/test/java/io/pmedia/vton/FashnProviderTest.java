package io.pmedia.vton;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.util.Map;
import java.util.UUID;

import javax.imageio.ImageIO;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;

import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;

/** The FASHN-compatible adapter against a provider double over real HTTP. */
@QuarkusTest
@TestProfile(FashnProviderTest.FashnEngine.class)
class FashnProviderTest {

    public static class FashnEngine implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("pmedia.vton.engine", "fashn");
        }
    }

    @Test
    void eachGarmentIsOnePredictionChainedOnTheLastOutputWhichIsKeptInOurStore() throws Exception {
        UUID client = UUID.randomUUID();
        String model = WebDoubles.base() + "/img/model.png";
        String shirt = WebDoubles.base() + "/img/shirt.png";
        String trousers = WebDoubles.base() + "/img/trousers.png";
        int before = WebDoubles.runs.size();
        String url = VtonApi.finished(client, VtonApi.body(client, model, "\"" + shirt + "\", \"" + trousers + "\"",
                ", \"category\": \"tops\", \"mode\": \"quality\", \"moderation_level\": \"none\","
                        + " \"segmentation_free\": false"))
                .body("status", equalTo("SUCCESS")).extract().path("generated-output");

        assertEquals(before + 2, WebDoubles.runs.size(), "one prediction per garment");
        JsonNode first = WebDoubles.runs.get(before);
        assertEquals("tryon-v1.6", first.path("model_name").asText());
        assertEquals(model, first.path("inputs").path("model_image").asText());
        assertEquals(shirt, first.path("inputs").path("garment_image").asText());
        assertEquals("tops", first.path("inputs").path("category").asText());
        assertEquals("quality", first.path("inputs").path("mode").asText());
        assertEquals("none", first.path("inputs").path("moderation_level").asText());
        assertEquals(false, first.path("inputs").path("segmentation_free").asBoolean());
        assertEquals("png", first.path("inputs").path("output_format").asText());
        JsonNode second = WebDoubles.runs.get(before + 1);
        assertEquals(WebDoubles.base() + "/img/provider-output.png", second.path("inputs").path("model_image").asText(),
                "the second garment goes on the first prediction's output");
        assertTrue(WebDoubles.authorizations.stream().allMatch(value -> value.equals("Bearer " + WebDoubles.API_KEY)));

        assertTrue(url.contains("/vton/" + client + "/"), "our store, not the provider's URL: " + url);
        BufferedImage output = ImageIO.read(new ByteArrayInputStream(given().get(url).then().statusCode(200)
                .extract().asByteArray()));
        assertEquals(WebDoubles.PROVIDER.getRGB(), output.getRGB(50, 75) | 0xff000000);
    }

    @Test
    void aFailedPredictionEndsTheRequestFailureWithTheProvidersReason() {
        UUID client = UUID.randomUUID();
        VtonApi.finished(client, VtonApi.body(client, WebDoubles.base() + "/img/model.png",
                "\"" + WebDoubles.base() + "/img/unloadable.png\"", ""))
                .body("status", equalTo("FAILURE"))
                .body("message",
                        equalTo("the try-on provider failed: ImageLoadError: garment image could not be loaded"));
    }

    @Test
    void aPrivateImageAddressIsRefusedBeforeTheProviderIsAsked() {
        UUID client = UUID.randomUUID();
        int before = WebDoubles.runs.size();
        VtonApi.finished(client, VtonApi.body(client, "http://192.168.0.10/model.png",
                "\"" + WebDoubles.base() + "/img/shirt.png\"", ""))
                .body("status", equalTo("FAILURE"))
                .body("message", containsString("model-image http://192.168.0.10/model.png is not allowed"));
        assertEquals(before, WebDoubles.runs.size());
    }
}
