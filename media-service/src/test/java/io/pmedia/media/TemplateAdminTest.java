package io.pmedia.media;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.UUID;

import org.junit.jupiter.api.Test;

import io.pmedia.testing.TestTokens;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;

/** Registering templates is idempotent and versioned; vendors see what they may render. */
@QuarkusTest
class TemplateAdminTest {

    @Test
    void registeringTheSameDefinitionTwiceChangesNothingAndAChangeIsANewVersion() {
        String useCase = "versioned-" + UUID.randomUUID().toString().substring(0, 8);
        String v1 = MediaApi.TINY.replace("\"tiny\"", "\"" + useCase + "\"");
        JsonPath json = MediaApi.registerTemplate(v1).statusCode(201).extract().jsonPath();
        assertThat(json.<Object>get("use-case-id")).isEqualTo(useCase);
        assertThat(json.getInt("version")).isEqualTo(1);
        assertThat(json.<Object>get("required-fields")).isEqualTo(java.util.List.of("name"));
        String templateId = json.getString("template-id");
        JsonPath json2 = MediaApi.registerTemplate(v1).statusCode(200).extract().jsonPath();
        assertThat(json2.getInt("version")).isEqualTo(1);
        assertThat(json2.<Object>get("template-id")).isEqualTo(templateId);
        JsonPath json3 = MediaApi.registerTemplate(v1.replace("\"Tiny\"", "\"Tiny 2\"")).statusCode(201).extract()
                .jsonPath();
        assertThat(json3.getInt("version")).isEqualTo(2);
        assertThat(json3.<Object>get("template-id")).isEqualTo(templateId);
        JsonPath json4 = given().header("Authorization", "Bearer " + TestTokens.operator())
                .get("/admin/templates/" + useCase)
                .then().statusCode(200).extract().jsonPath();
        assertThat(json4.getInt("version")).isEqualTo(2);
        assertThat(json4.getString("name")).isEqualTo("Tiny 2");
        JsonPath json5 = given().header("Authorization", "Bearer " + TestTokens.operator()).get("/admin/templates")
                .then()
                .statusCode(200).extract().jsonPath();
        assertThat(json5.<Object>get("findAll { it.'use-case-id' == '" + useCase + "' }.version"))
                .isEqualTo(java.util.List.of(2));
        assertThat(json5.getInt("find { it.'use-case-id' == '" + useCase + "' }.definition.canvas.width"))
                .isEqualTo(320);
    }

    @Test
    void anInvalidTemplateIsRefusedWithEveryProblem() {
        JsonPath json = MediaApi.registerTemplate("""
                {"use-case-id": "broken", "name": "b", "canvas": {"width": 100, "height": 100, "fps": 99},
                 "segments": [{"id": "a", "duration": 1, "layers": [{"type": "text", "text": "{{who}}"}]}]}""")
                .statusCode(400).extract().jsonPath();
        assertThat(json.getString("code")).isEqualTo("VALIDATION_ERROR");
        assertThat(json.getString("message")).contains("canvas.fps");
        assertThat(json.getString("message")).contains("segments[0].layers[0].text: {{who}} is not a declared field");
    }

    @Test
    void aMisspeltKeyOrAWrongTypeIsReportedWithItsPath() {
        JsonPath json = MediaApi.registerTemplate(MediaApi.TINY.replace("\"fade\": 0.2", "\"fade_in\": 0.2"))
                .statusCode(400).extract().jsonPath();
        assertThat(json.getString("code")).isEqualTo("VALIDATION_ERROR");
        assertThat(json.getString("message")).contains("fade_in");
        JsonPath json2 = MediaApi.registerTemplate(MediaApi.TINY.replace("\"width\": 320", "\"width\": \"wide\""))
                .statusCode(400).extract().jsonPath();
        assertThat(json2.getString("code")).isEqualTo("VALIDATION_ERROR");
        assertThat(json2.getString("message")).contains("canvas.width");
        assertThat(MediaApi.registerTemplate("[]").statusCode(400)
                .extract().jsonPath().getString("code")).isEqualTo("VALIDATION_ERROR");
        assertThat(MediaApi.registerTemplate("{\"use-case-id\":").statusCode(400)
                .extract().jsonPath().getString("code")).isEqualTo("BAD_REQUEST");
    }

    @Test
    void theOpenApiDocumentDescribesTheInterfaceNames() {
        JsonPath json = given().get("/q/openapi?format=json").then().statusCode(200).extract().jsonPath();
        assertThat(json.<Object>get("paths.'/media/demo'.post")).isNotNull();
        assertThat(json.<Object>get("paths.'/video/demo'.post")).isNotNull();
        assertThat(json.<Object>get("paths.'/status/{transactionId}'.get")).isNotNull();
        assertThat(json.getMap("components.schemas.RealtimeMediaRequest.properties")).containsKey("client-request-id");
        assertThat(json.getMap("components.schemas.RealtimeMediaStatus.properties")).containsKey("video-url");
        assertThat(json.getList("components.schemas.RealtimeMediaAcceptance.properties.status.enum"))
                .contains("FAILURE");
        assertThat(json.<Object>get("components.schemas.FrameSegment.properties.segment_id.description")).isNotNull();
        assertThat(json.getMap("components.schemas.MediaData.properties")).containsKey("personalization_fields");
    }

    @Test
    void aVendorReadsOneUsableTemplateWithItsDefinitionAndAnotherVendorsPrivateOneIsNotFound() {
        String useCase = "private-" + UUID.randomUUID().toString().substring(0, 8);
        UUID owner = UUID.randomUUID();
        String definition = MediaApi.TINY.replace("\"tiny\"", "\"" + useCase + "\"")
                .replaceFirst("\\{", "{\"allowed-clients\": [\"" + owner + "\"], ");
        String templateId = MediaApi.registerTemplate(definition).statusCode(201).extract().path("template-id");
        JsonPath json = given().header("Authorization", TestTokens.bearer(owner)).get("/templates/" + templateId).then()
                .statusCode(200).extract().jsonPath();
        assertThat(json.<Object>get("use-case-id")).isEqualTo(useCase);
        assertThat(json.getInt("version")).isEqualTo(1);
        assertThat(json.getInt("definition.canvas.width")).isEqualTo(320);
        assertThat(given().header("Authorization", TestTokens.bearer(UUID.randomUUID())).get("/templates/" + templateId)
                .then().statusCode(404)
                .extract().jsonPath().getString("code")).isEqualTo("NOT_FOUND");
        given().header("Authorization", TestTokens.bearer(owner)).get("/templates/" + UUID.randomUUID()).then()
                .statusCode(404);
        given().header("Authorization", TestTokens.bearer(owner)).get("/templates/not-a-uuid").then()
                .statusCode(404);
    }

    @Test
    void vendorsListTheTemplatesTheyMayUseAndOperatorsOnlyMayRegister() {
        MediaApi.registerTemplate(MediaApi.TINY);
        JsonPath json = given().header("Authorization", TestTokens.bearer(UUID.randomUUID())).get("/templates")
                .then().statusCode(200).extract().jsonPath();
        assertThat(json.getList("use-case-id")).contains("tiny");
        assertThat(json.<Object>get("find { it.'use-case-id' == 'tiny' }.required-fields"))
                .isEqualTo(java.util.List.of("name"));
        assertThat(json.<Object>get("find { it.'use-case-id' == 'tiny' }.definition")).isNull();
        assertThat(given().header("Authorization", TestTokens.bearer(UUID.randomUUID()))
                .contentType("application/json").body(MediaApi.TINY).post("/admin/templates")
                .then().statusCode(403)
                .extract().jsonPath().getString("code")).isEqualTo("FORBIDDEN");
    }
}
