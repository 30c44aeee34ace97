package io.pmedia.system;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;

/** The templates fault scenarios (and a few system tests) render: registered through the operator API (idempotent: the same body is 200). */
final class ChaosTemplates {

    private static JsonPath tiny;

    private ChaosTemplates() {
    }

    /** The 1 s 320x180 template's use-case-id. */
    static synchronized String tiny() {
        return registered().getString("use-case-id");
    }

    static synchronized String tinyId() {
        return registered().getString("template-id");
    }

    private static JsonPath registered() {
        if (tiny == null) {
            tiny = register("/chaos-tiny.json");
        }
        return tiny;
    }

    /** Registers the template of a test resource (idempotent); its answer (template-id, use-case-id). */
    static JsonPath register(String resource) {
        try (InputStream in = ChaosTemplates.class.getResourceAsStream(resource)) {
            String body = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            return Stack.admin().contentType(ContentType.JSON).body(body).post("/admin/templates").then()
                    .statusCode(org.hamcrest.Matchers.oneOf(200, 201)).extract().jsonPath();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
