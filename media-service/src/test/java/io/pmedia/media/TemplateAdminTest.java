package io.pmedia.media;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.hasKey;
import static org.hamcrest.Matchers.notNullValue;

import java.util.UUID;

import org.junit.jupiter.api.Test;

import io.pmedia.testing.TestTokens;
import io.quarkus.test.junit.QuarkusTest;

/** Registering templates is idempotent and versioned; vendors see what they may render. */
@QuarkusTest
class TemplateAdminTest {

    @Test
    void registeringTheSameDefinitionTwiceChangesNothingAndAChangeIsANewVersion() {
        String useCase = "versioned-" + UUID.randomUUID().toString().substring(0, 8);
        String v1 = MediaApi.TINY.replace("\"tiny\"", "\"" + useCase + "\"");
        String templateId = MediaApi.registerTemplate(v1).statusCode(201)
                .body("use-case-id", equalTo(useCase)).body("version", equalTo(1))
                .body("required-fields", equalTo(java.util.List.of("name")))
                .extract().path("template-id");
        MediaApi.registerTemplate(v1).statusCode(200).body("version", equalTo(1))
                .body("template-id", equalTo(templateId));
        MediaApi.registerTemplate(v1.replace("\"Tiny\"", "\"Tiny 2\"")).statusCode(201)
                .body("version", equalTo(2)).body("template-id", equalTo(templateId));
        given().header("Authorization", "Bearer " + TestTokens.operator()).get("/admin/templates/" + useCase)
                .then().statusCode(200).body("version", equalTo(2)).body("name", equalTo("Tiny 2"));
        given().header("Authorization", "Bearer " + TestTokens.operator()).get("/admin/templates").then()
                .statusCode(200)
                .body("findAll { it.'use-case-id' == '" + useCase + "' }.version", equalTo(java.util.List.of(2)))
                .body("find { it.'use-case-id' == '" + useCase + "' }.definition.canvas.width", equalTo(320));
    }

    @Test
    void anInvalidTemplateIsRefusedWithEveryProblem() {
        MediaApi.registerTemplate("""
                {"use-case-id": "broken", "name": "b", "canvas": {"width": 100, "height": 100, "fps": 99},
                 "segments": [{"id": "a", "duration": 1, "layers": [{"type": "text", "text": "{{who}}"}]}]}""")
                .statusCode(400).body("code", equalTo("VALIDATION_ERROR"))
                .body("message", containsString("canvas.fps"))
                .body("message", containsString("segments[0].layers[0].text: {{who}} is not a declared field"));
    }

    @Test
    void aMisspeltKeyOrAWrongTypeIsReportedWithItsPath() {
        MediaApi.registerTemplate(MediaApi.TINY.replace("\"fade\": 0.2", "\"fade_in\": 0.2")).statusCode(400)
                .body("code", equalTo("VALIDATION_ERROR")).body("message", containsString("fade_in"));
        MediaApi.registerTemplate(MediaApi.TINY.replace("\"width\": 320", "\"width\": \"wide\"")).statusCode(400)
                .body("code", equalTo("VALIDATION_ERROR")).body("message", containsString("canvas.width"));
        MediaApi.registerTemplate("[]").statusCode(400).body("code", equalTo("VALIDATION_ERROR"));
        MediaApi.registerTemplate("{\"use-case-id\":").statusCode(400).body("code", equalTo("BAD_REQUEST"));
    }

    @Test
    void theOpenApiDocumentDescribesTheInterfaceNames() {
        given().get("/q/openapi?format=json").then().statusCode(200)
                .body("paths.'/media/demo'.post", notNullValue())
                .body("paths.'/video/demo'.post", notNullValue())
                .body("paths.'/status/{transactionId}'.get", notNullValue())
                .body("components.schemas.RealtimeMediaRequest.properties", hasKey("client-request-id"))
                .body("components.schemas.RealtimeMediaStatus.properties", hasKey("video-url"))
                .body("components.schemas.RealtimeMediaAcceptance.properties.status.enum", hasItem("FAILURE"))
                .body("components.schemas.FrameSegment.properties.segment_id.description", notNullValue())
                .body("components.schemas.MediaData.properties", hasKey("personalization_fields"));
    }

    @Test
    void aVendorReadsOneUsableTemplateWithItsDefinitionAndAnotherVendorsPrivateOneIsNotFound() {
        String useCase = "private-" + UUID.randomUUID().toString().substring(0, 8);
        UUID owner = UUID.randomUUID();
        String definition = MediaApi.TINY.replace("\"tiny\"", "\"" + useCase + "\"")
                .replaceFirst("\\{", "{\"allowed-clients\": [\"" + owner + "\"], ");
        String templateId = MediaApi.registerTemplate(definition).statusCode(201).extract().path("template-id");
        given().header("Authorization", TestTokens.bearer(owner)).get("/templates/" + templateId).then()
                .statusCode(200).body("use-case-id", equalTo(useCase)).body("version", equalTo(1))
                .body("definition.canvas.width", equalTo(320));
        given().header("Authorization", TestTokens.bearer(UUID.randomUUID())).get("/templates/" + templateId)
                .then().statusCode(404).body("code", equalTo("NOT_FOUND"));
        given().header("Authorization", TestTokens.bearer(owner)).get("/templates/" + UUID.randomUUID()).then()
                .statusCode(404);
        given().header("Authorization", TestTokens.bearer(owner)).get("/templates/not-a-uuid").then()
                .statusCode(404);
    }

    @Test
    void vendorsListTheTemplatesTheyMayUseAndOperatorsOnlyMayRegister() {
        MediaApi.registerTemplate(MediaApi.TINY);
        given().header("Authorization", TestTokens.bearer(UUID.randomUUID())).get("/templates")
                .then().statusCode(200).body("use-case-id", hasItem("tiny"))
                .body("find { it.'use-case-id' == 'tiny' }.required-fields", equalTo(java.util.List.of("name")))
                .body("find { it.'use-case-id' == 'tiny' }.definition", equalTo(null));
        given().header("Authorization", TestTokens.bearer(UUID.randomUUID()))
                .contentType("application/json").body(MediaApi.TINY).post("/admin/templates")
                .then().statusCode(403).body("code", equalTo("FORBIDDEN"));
    }
}
