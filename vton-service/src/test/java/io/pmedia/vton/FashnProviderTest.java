package io.pmedia.vton;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.util.Map;
import java.util.UUID;

import javax.imageio.ImageIO;

import jakarta.inject.Inject;

import org.eclipse.microprofile.config.ConfigProvider;
import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;

import io.pmedia.storage.ObjectStore;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.restassured.path.json.JsonPath;
import io.restassured.response.Response;

/** The FASHN-compatible adapter against a provider double over real HTTP. */
@QuarkusTest
@TestProfile(FashnProviderTest.FashnEngine.class)
class FashnProviderTest {

    @Inject
    ObjectStore store;

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
        JsonPath json = VtonApi.finished(client,
                VtonApi.body(client, model, "\"" + shirt + "\", \"" + trousers + "\"",
                        ", \"category\": \"tops\", \"mode\": \"quality\", \"moderation_level\": \"none\","
                                + " \"segmentation_free\": false"))
                .extract().jsonPath();
        assertThat(json.getString("status")).isEqualTo("SUCCESS");
        String url = json.getString("generated-output");

        assertThat(WebDoubles.runs.size()).as("one prediction per garment").isEqualTo(before + 2);
        JsonNode first = WebDoubles.runs.get(before);
        assertThat(first.path("model_name").asText()).isEqualTo("tryon-v1.6");
        assertThat(first.path("inputs").path("model_image").asText()).isEqualTo(model);
        assertThat(first.path("inputs").path("garment_image").asText()).isEqualTo(shirt);
        assertThat(first.path("inputs").path("category").asText()).isEqualTo("tops");
        assertThat(first.path("inputs").path("mode").asText()).isEqualTo("quality");
        assertThat(first.path("inputs").path("moderation_level").asText()).isEqualTo("none");
        assertThat(first.path("inputs").path("segmentation_free").asBoolean()).isFalse();
        assertThat(first.path("inputs").path("output_format").asText()).isEqualTo("png");
        JsonNode second = WebDoubles.runs.get(before + 1);
        assertThat(second.path("inputs").path("model_image").asText())
                .as("the second garment goes on the first prediction's output")
                .isEqualTo(WebDoubles.base() + "/img/provider-output.png");
        assertThat(WebDoubles.authorizations).allMatch(value -> value.equals("Bearer " + WebDoubles.API_KEY));

        assertThat(url).as("our store, not the provider's URL").contains("/vton/" + client + "/");
        BufferedImage output = ImageIO
                .read(new ByteArrayInputStream(given().urlEncodingEnabled(false).get(url).then().statusCode(200)
                        .extract().asByteArray()));
        assertThat(output.getRGB(50, 75) | 0xff000000).isEqualTo(WebDoubles.PROVIDER.getRGB());
    }

    @Test
    void aFailedPredictionEndsTheRequestFailureWithTheProvidersReason() {
        UUID client = UUID.randomUUID();
        JsonPath json = VtonApi.finished(client, VtonApi.body(client, WebDoubles.base() + "/img/model.png",
                "\"" + WebDoubles.base() + "/img/unloadable.png\"", "")).extract().jsonPath();
        assertThat(json.getString("status")).isEqualTo("FAILURE");
        assertThat(json.getString("message"))
                .isEqualTo("the try-on provider failed: ImageLoadError: garment image could not be loaded");
    }

    @Test
    void aPrivateImageAddressIsRefusedBeforeTheProviderIsAsked() {
        UUID client = UUID.randomUUID();
        int before = WebDoubles.runs.size();
        JsonPath json = VtonApi.finished(client, VtonApi.body(client, "http://192.168.0.10/model.png",
                "\"" + WebDoubles.base() + "/img/shirt.png\"", "")).extract().jsonPath();
        assertThat(json.getString("status")).isEqualTo("FAILURE");
        assertThat(json.getString("message")).contains("model-image http://192.168.0.10/model.png is not allowed");
        assertThat(WebDoubles.runs.size()).isEqualTo(before);
    }

    @Test
    void theProviderGetsAShortLivedPresignedUrlForTheOwnersStoreImageAndNothingForAnotherClient() throws Exception {
        UUID owner = UUID.randomUUID();
        String key = "inputs/" + owner + "/" + UUID.randomUUID() + "/model.png";
        ByteArrayOutputStream png = new ByteArrayOutputStream();
        ImageIO.write(WebDoubles.model(), "png", png);
        store.put(key, png.toByteArray(), "image/png");
        String model = ConfigProvider.getConfig().getValue("pmedia.storage.endpoint", String.class) + "/"
                + store.bucket() + "/" + key;
        String shirt = "\"" + WebDoubles.base() + "/img/shirt.png\"";

        int before = WebDoubles.runs.size();
        assertThat(VtonApi.finished(owner, VtonApi.body(owner, model, shirt, ""))
                .extract().jsonPath().getString("status")).isEqualTo("SUCCESS");
        String given = WebDoubles.runs.get(before).path("inputs").path("model_image").asText();
        assertThat(given).contains(key, "X-Amz-Signature");
        assertThat(download(given).statusCode()).as("the provider can read it").isEqualTo(200);

        UUID other = UUID.randomUUID();
        int runs = WebDoubles.runs.size();
        JsonPath json = VtonApi.finished(other, VtonApi.body(other, model, shirt, "")).extract().jsonPath();
        assertThat(json.getString("status")).isEqualTo("FAILURE");
        assertThat(json.getString("message")).isEqualTo("model-image " + (model.length() <= 120
                ? model
                : model.substring(0, 117)
                        + "...")
                + " could not be fetched: not found");
        assertThat(WebDoubles.runs.size()).as("the provider is not asked").isEqualTo(runs);
    }

    private static Response download(String url) {
        return given().urlEncodingEnabled(false).get(url);
    }
}
