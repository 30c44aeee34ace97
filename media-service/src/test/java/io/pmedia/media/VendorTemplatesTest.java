package io.pmedia.media;

import static io.pmedia.media.MediaApi.awaitFinal;
import static io.pmedia.media.MediaApi.body;
import static io.pmedia.media.MediaApi.download;
import static io.pmedia.media.MediaApi.request;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.pmedia.media.render.ffmpeg.FfmpegRunner;
import io.pmedia.testing.TestTokens;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import io.restassured.response.ValidatableResponse;

/**
 * Vendors manage their own templates (POST /templates): owned by the caller, versioned, validated like the
 * operator's, rendered through the real workers, and invisible to every other vendor.
 */
@QuarkusTest
class VendorTemplatesTest {

    /** A vendor's own template: one 1.5 s segment at 256x144, the name on a coloured canvas. */
    private static String own(String useCase, String background) {
        return """
                {"use-case-id": "%s", "name": "Own card",
                 "canvas": {"width": 256, "height": 144, "fps": 25, "background": "%s"},
                 "fields": [{"name": "name", "required": true}],
                 "segments": [{"id": "only", "duration": 1.5, "layers": [
                   {"id": "hello", "type": "text", "text": "Hi {{name}}", "size": 20}]}]}"""
                .formatted(useCase, background);
    }

    private static ValidatableResponse register(UUID client, String definition) {
        return given().header("Authorization", TestTokens.bearer(client)).contentType(ContentType.JSON)
                .body(definition).post("/templates").then().log().ifValidationFails();
    }

    private static JsonPath list(UUID client) {
        return given().header("Authorization", TestTokens.bearer(client)).get("/templates").then().statusCode(200)
                .extract().jsonPath();
    }

    @Test
    void aVendorRegistersAndRendersItsOwnTemplateAndNoOtherVendorCanSeeOrUseIt(@TempDir Path dir) throws Exception {
        UUID owner = UUID.randomUUID();
        UUID other = UUID.randomUUID();
        String useCase = "own-" + UUID.randomUUID().toString().substring(0, 8);

        JsonPath created = register(owner, own(useCase, "#203040")).statusCode(201).extract().jsonPath();
        String templateId = created.getString("template-id");
        assertThat(created.getInt("version")).isEqualTo(1);
        assertThat(created.getString("owner-client-id")).isEqualTo(owner.toString());
        assertThat(register(owner, own(useCase, "#203040")).statusCode(200).extract().jsonPath().getInt("version"))
                .isEqualTo(1);
        JsonPath changed = register(owner, own(useCase, "#304050")).statusCode(201).extract().jsonPath();
        assertThat(changed.getInt("version")).isEqualTo(2);
        assertThat(changed.getString("template-id")).isEqualTo(templateId);

        assertThat(list(owner).getList("template-id")).contains(templateId);
        assertThat(list(other).getList("template-id")).doesNotContain(templateId);
        given().header("Authorization", TestTokens.bearer(owner)).get("/templates/" + templateId).then()
                .statusCode(200);
        JsonPath hidden = given().header("Authorization", TestTokens.bearer(other)).get("/templates/" + templateId)
                .then().statusCode(404).extract().jsonPath();
        assertThat(hidden.getString("code")).isEqualTo("NOT_FOUND");
        assertThat(hidden.getString("message")).isEqualTo("template '" + templateId + "' not found");

        String id = request(owner, body("own-1", useCase, Map.of("personalization_fields", Map.of("name", "Ada"))))
                .statusCode(200).extract().path("service-request-id");
        JsonPath status = awaitFinal(owner, id);
        assertThat(status.getString("status")).isEqualTo("SUCCESS");
        FfmpegRunner.Probe video = FfmpegRunner.locate(null)
                .probe(download(status.getString("video-url"), dir, "own.mp4"));
        assertThat(video.width()).isEqualTo(256);
        assertThat(video.durationSeconds()).isCloseTo(1.5, within(0.1));

        JsonPath refused = request(other, body("other-1", useCase,
                Map.of("personalization_fields", Map.of("name", "Eve")))).statusCode(200).extract().jsonPath();
        assertThat(refused.getString("status")).isEqualTo("FAILURE");
        assertThat(refused.getString("message")).isEqualTo("unknown use-case-id '" + useCase + "'");
    }

    @Test
    void aVendorsOwnTemplateShadowsASharedOneOfTheSameUseCaseForThatVendorOnly() {
        String useCase = "shadow-" + UUID.randomUUID().toString().substring(0, 8);
        String shared = MediaApi.registerTemplate(own(useCase, "#000000")).statusCode(201).extract()
                .path("template-id");
        UUID owner = UUID.randomUUID();
        String mine = register(owner, own(useCase, "#ffffff")).statusCode(201).extract().path("template-id");
        assertThat(mine).isNotEqualTo(shared);

        JsonPath ownersView = list(owner);
        assertThat(ownersView.getList("findAll { it.'use-case-id' == '" + useCase + "' }.template-id"))
                .isEqualTo(List.of(mine));
        assertThat(list(UUID.randomUUID())
                .getList("findAll { it.'use-case-id' == '" + useCase + "' }.template-id")).isEqualTo(List.of(shared));
        JsonPath operatorsView = given().header("Authorization", "Bearer " + TestTokens.operator())
                .get("/admin/templates/" + useCase).then().statusCode(200).extract().jsonPath();
        assertThat(operatorsView.getString("template-id")).isEqualTo(shared);
    }

    @Test
    void aVendorTemplateIsValidatedLikeTheOperatorsAndNamesNoOtherClients() {
        UUID owner = UUID.randomUUID();
        JsonPath invalid = register(owner, own("bad-fps", "#000000").replace("\"fps\": 25", "\"fps\": 99"))
                .statusCode(400).extract().jsonPath();
        assertThat(invalid.getString("code")).isEqualTo("VALIDATION_ERROR");
        assertThat(invalid.getString("message")).contains("canvas.fps");

        JsonPath shared = register(owner, own("sharing", "#000000")
                .replaceFirst("\\{", "{\"allowed-clients\": [\"" + UUID.randomUUID() + "\"], "))
                .statusCode(400).extract().jsonPath();
        assertThat(shared.getString("code")).isEqualTo("VALIDATION_ERROR");
        assertThat(shared.getString("message")).contains("allowed-clients");

        assertThat(list(owner).getList("use-case-id")).doesNotContain("bad-fps", "sharing");
    }
}
