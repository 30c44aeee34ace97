package io.pmedia.system;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.UUID;
import java.util.function.UnaryOperator;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import com.sun.net.httpserver.HttpServer;

import io.pmedia.testing.Patience;
import io.restassured.http.ContentType;
import io.restassured.response.Response;
import io.restassured.specification.RequestSpecification;

/**
 * A walk of every operation of docs/openapi.yaml through a Prism validating proxy (issue 20): the happy path of each
 * with real resources (a rendered video, a task, a try-on, a delivery the vendor's missing webhook skipped, an
 * onboarded client), their usual errors, and for any operation not walked by hand a request drawn from its schema.
 * The assertion: Prism finds no answer that departs from the document (enums, nullability, required fields, status
 * codes), and no walked request either.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ContractWalkTest {

    private PrismProxy prism;
    private Stack.Vendor vendor;
    private HttpServer hook;
    private final Set<String> walked = new LinkedHashSet<>();
    private final List<String> violations = new ArrayList<>();

    @BeforeAll
    void start() throws IOException {
        prism = PrismProxy.start();
        vendor = Stack.onboard("contract walk");
        hook = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        hook.createContext("/", exchange -> {
            exchange.sendResponseHeaders(204, -1);
            exchange.close();
        });
        hook.start();
    }

    @AfterAll
    void stop() {
        prism.close();
        hook.stop(0);
        Stack.delete(vendor);
    }

    @Test
    void everyOperationAnswersAsTheDocumentSays() {
        walkVendorCalls();
        walkOperatorCalls();
        walkTheRestFromTheirSchemas();

        assertThat(violations).as("answers that depart from docs/openapi.yaml (Prism, log: " + prism.log() + ")")
                .isEmpty();
        assertThat(walked).as("operations walked")
                .containsAll(OpenApiDocument.load().operations().stream().map(Object::toString).toList());
    }

    private void walkVendorCalls() {
        String useCase = Stack.env().get("PMEDIA_DEMO_USE_CASE_ID");
        String templateId = Stack.env().get("PMEDIA_DEMO_TEMPLATE_ID");
        call("POST /auth/token", spec -> spec.contentType(ContentType.JSON)
                .body(Map.of("client_id", vendor.id().toString(), "client_secret", vendor.secret())), "/auth/token");
        call("POST /auth/token", spec -> spec.contentType(ContentType.URLENC).formParam("grant_type",
                "client_credentials").formParam("client_id", vendor.id().toString())
                .formParam("client_secret", vendor.secret()), "/auth/token");
        call("GET /.well-known/jwks.json", spec -> spec, "/.well-known/jwks.json");
        call("GET /getToken", spec -> spec, "/getToken?clientId=" + vendor.id() + "&clientSecret="
                + vendor.secret());

        // A realtime request to SUCCESS, in both forms; its delivery is SKIPPED (no webhook-url yet).
        String id = call("POST /media/demo", spec -> bearer(spec).contentType(ContentType.JSON).body(Map.of(
                "client-request-id", "walk-" + UUID.randomUUID(), "customer-id", "c-1", "user-id", "u-1",
                "use-case-id", useCase, "data", Map.of("personalization_fields", Map.of("name", "Walk")))),
                "/media/demo").jsonPath().getString("service-request-id");
        String shareUrl = Stack.finalStatus(vendor, id).getString("share-url");
        call("GET /status/{transactionId}", this::bearer, "/status/" + id);
        walkShareCalls(id, shareUrl.substring(shareUrl.indexOf("/v/")), templateId);
        call("GET /status/{transactionId}", spec -> spec.header("x-api-key", vendor.apiKey()), "/status/" + id);
        call("GET /status/{transactionId}", this::bearer, "/status/" + UUID.randomUUID());
        call("POST /video/demo", spec -> bearer(spec).header("x-api-key", vendor.apiKey())
                .contentType(ContentType.JSON).body(Map.of("client-request-id", "walk-" + UUID.randomUUID(),
                        "customer-id", "c-1", "user-id", "u-1", "use-case-id", useCase, "phrase-texts",
                        List.of("Walk"))),
                "/video/demo");

        call("GET /templates", this::bearer, "/templates");
        call("GET /templates/{templateId}", this::bearer, "/templates/" + templateId);
        call("GET /templates/{templateId}", this::bearer, "/templates/" + UUID.randomUUID());
        String own = call("POST /templates", spec -> bearer(spec).contentType(ContentType.JSON)
                .body(Map.of("use-case-id", "walk-" + UUID.randomUUID().toString().substring(0, 8), "name", "Walk",
                        "canvas", Map.of("width", 320, "height", 240, "fps", 25, "background", "#112233"),
                        "segments", List.of(Map.of("id", "one", "duration", 1, "background",
                                Map.of("color", "#112233"))))),
                "/templates").jsonPath().getString("template-id");
        call("POST /templates/{templateId}/preview", spec -> bearer(spec).contentType(ContentType.JSON)
                .body(Map.of("data", Map.of("personalization_fields", Map.of("name", "Walk")))),
                "/templates/" + templateId + "/preview");
        call("POST /templates/{templateId}/preview", spec -> bearer(spec).contentType(ContentType.JSON)
                .body(Map.of()), "/templates/" + own + "/preview");

        // A batch task: upload, create, status, cancel.
        String file = Stack.upload(vendor, "walk.csv", "user-id,name\nu-1,Ada\n".getBytes(StandardCharsets.UTF_8));
        call("POST /media/task/uploads", spec -> bearer(spec).contentType(ContentType.JSON)
                .body(Map.of("file-name", "walk.csv")), "/media/task/uploads");
        String task = call("POST /media/task/create", spec -> bearer(spec).contentType(ContentType.JSON).body(Map.of(
                "client-id", vendor.id().toString(), "campaign-id", "walk", "template-id", templateId, "file-name",
                "walk.csv", "file-path", file, "priority", 1, "row-count", 1, "expected-output-duration", 10)),
                "/media/task/create").jsonPath().getString("task-id");
        call("GET /media/task/status/{taskId}", this::bearer, "/media/task/status/" + task);
        call("POST /media/task/cancel/{taskId}", this::bearer, "/media/task/cancel/" + task);
        call("GET /media/task/status/{taskId}", this::bearer, "/media/task/status/" + task);
        invalid("POST /media/task/cancel/{taskId}", this::bearer, "/media/task/cancel/not-a-uuid");

        // A try-on to its end.
        String model = Stack.storeUrl(Stack.upload(vendor, "model.png", Stack.png("gray", 96, 160)));
        String tryOn = call("POST /vton/request", spec -> bearer(spec).contentType(ContentType.JSON).body(Map.of(
                "user-id", "u-1", "client-id", vendor.id().toString(), "usecase-id", "uc", "model-image", model,
                "garment-image", List.of(model))), "/vton/request").jsonPath().getString("request-id");
        Stack.finalTryOn(vendor, tryOn);
        call("GET /vton/status/{requestId}", this::bearer, "/vton/status/" + tryOn);

        call("POST /campaigns/{campaign_id}/schedule", spec -> bearer(spec).contentType(ContentType.JSON)
                .body(Map.of("start_time", "2030-01-01T00:00:00Z", "end_time", "2030-02-01T00:00:00Z")),
                "/campaigns/walk/schedule");
        call("GET /campaigns/{campaign_id}/schedule", this::bearer, "/campaigns/walk/schedule");
        call("GET /campaigns/{campaign_id}/schedule", this::bearer, "/campaigns/nothing-here/schedule");

        // The delivery log with the SKIPPED delivery of the request above, then with a real one.
        Patience.await().until(() -> vendor.call()
                .get("/webhooks/deliveries").asString().contains("\"SKIPPED\""));
        call("GET /webhooks/deliveries", this::bearer, "/webhooks/deliveries");
        call("POST /webhooks/test", this::bearer, "/webhooks/test");
        Stack.admin().contentType(ContentType.JSON).body(Map.of("webhook-url", "http://127.0.0.1:"
                + hook.getAddress().getPort() + "/hook")).patch("/admin/clients/" + vendor.id()).then()
                .statusCode(200);
        call("POST /webhooks/test", this::bearer, "/webhooks/test");
        var page = call("GET /webhooks/deliveries", this::bearer, "/webhooks/deliveries?limit=5").jsonPath();
        String delivery = page.getString("items[0].webhook-id") != null
                ? page.getString("items[0].webhook-id")
                : page.getString("deliveries[0].webhook-id");
        if (delivery != null) {
            call("POST /webhooks/deliveries/{deliveryId}/replay", this::bearer,
                    "/webhooks/deliveries/" + delivery + "/replay");
        }
    }

    /** The share page of the request above, its media, a beacon, the analytics, then its revocation. */
    private void walkShareCalls(String id, String page, String templateId) {
        Patience.await()
                .until(() -> Stack.api().get(page).statusCode() == 200);
        call("GET /v/{shareId}", spec -> spec.header("Accept", "text/html"), page);
        call("GET /v/{shareId}/embed", spec -> spec.header("Accept", "text/html"), page + "/embed");
        redirect("GET /v/{shareId}/video.mp4", page + "/video.mp4");
        redirect("GET /v/{shareId}/poster.jpg", page + "/poster.jpg");
        // The email GIF is made on its first ask; on a loaded machine that takes longer than the gateway waits, and
        // the ask answers 503 with Retry-After (documented). The walk checks the answer once it exists.
        Patience.await()
                .pollInterval(java.time.Duration.ofSeconds(2))
                .until(() -> Stack.api().redirects().follow(false).get(page + "/email.gif").statusCode() != 503);
        redirect("GET /v/{shareId}/email.gif", page + "/email.gif");
        call("GET /v/{shareId}/captions.vtt", spec -> spec, page + "/captions.vtt");
        // A beacon as the page sends it: with the view token of a page load (docs/sharing.md, "What counts").
        String html = Stack.api().header("Accept", "text/html").get(page).then().statusCode(200).extract().asString();
        Matcher token = Pattern.compile("data-view-token=\"([^\"]+)\"").matcher(html);
        assertThat(token.find()).as("the page carries a view token").isTrue();
        call("POST /v/{shareId}/events", spec -> spec.contentType(ContentType.JSON).body(Map.of("type", "view",
                "session", token.group(1).split("\\.")[0], "token", token.group(1))), page + "/events");
        call("GET /analytics/videos/{transactionId}", this::bearer, "/analytics/videos/" + id);
        call("GET /analytics/templates/{templateId}", this::bearer, "/analytics/templates/" + templateId);
        call("GET /analytics/campaigns/{campaignId}", this::bearer, "/analytics/campaigns/no-such-campaign");
        call("GET /analytics/campaigns/{campaignId}/videos.csv", this::bearer,
                "/analytics/campaigns/no-such-campaign/videos.csv");
        call("DELETE /media/{transactionId}/share", this::bearer, "/media/" + id + "/share");
        call("GET /v/{shareId}", spec -> spec.header("Accept", "text/html"), "/v/AAAAAAAAAAAAAAAAAAAAAAAA");
        call("GET /v/{shareId}", spec -> spec, "/v/AAAAAAAAAAAAAAAAAAAAAAAA");
    }

    private void walkOperatorCalls() {
        String client = call("POST /admin/clients", spec -> admin(spec).contentType(ContentType.JSON)
                .body(Map.of("name", "walk client", "allowed-ips", List.of("127.0.0.1"))), "/admin/clients")
                .jsonPath().getString("client-id");
        call("GET /admin/clients", this::admin, "/admin/clients");
        call("GET /admin/clients/{clientId}", this::admin, "/admin/clients/" + client);
        call("PATCH /admin/clients/{clientId}", spec -> admin(spec).contentType(ContentType.JSON)
                .body(Map.of("name", "walk client renamed")), "/admin/clients/" + client);
        call("POST /admin/clients/{clientId}/rotate-secret", this::admin, "/admin/clients/" + client
                + "/rotate-secret");
        call("POST /admin/clients/{clientId}/rotate-api-key", this::admin, "/admin/clients/" + client
                + "/rotate-api-key");
        call("POST /admin/clients/{clientId}/rotate-webhook-secret", this::admin, "/admin/clients/" + client
                + "/rotate-webhook-secret");
        call("DELETE /admin/clients/{clientId}", this::admin, "/admin/clients/" + client);
        call("GET /admin/clients/{clientId}", this::admin, "/admin/clients/" + client);

        call("GET /admin/fonts", this::admin, "/admin/fonts");
        call("POST /admin/fonts", spec -> admin(spec).contentType(ContentType.JSON).body(Map.of("name",
                "walk-" + new Random().nextInt(1_000_000), "file", Base64.getEncoder().encodeToString(
                        "not a font".getBytes(StandardCharsets.UTF_8)))),
                "/admin/fonts");
        call("GET /admin/templates", this::admin, "/admin/templates");
        call("GET /admin/templates/{useCaseId}", this::admin, "/admin/templates/"
                + Stack.env().get("PMEDIA_DEMO_USE_CASE_ID"));
        call("POST /admin/templates", spec -> admin(spec).contentType(ContentType.JSON)
                .body(Map.of("use-case-id", "walk")), "/admin/templates");
    }

    /** Operations not walked above: one request drawn from the schema, with the credentials they take. */
    private void walkTheRestFromTheirSchemas() {
        OpenApiDocument document = OpenApiDocument.load();
        SchemaValues values = new SchemaValues(document, new Random(ContractFuzzTest.SEED));
        for (OpenApiDocument.Operation operation : document.operations()) {
            if (walked.contains(operation.toString())) {
                continue;
            }
            String target = operation.path();
            for (OpenApiDocument.Parameter parameter : operation.parameters()) {
                if (parameter.in().equals("path")) {
                    target = target.replace("{" + parameter.name() + "}", values.valid(parameter.schema()).asText());
                }
            }
            var body = operation.jsonBody() == null ? null : values.valid(operation.jsonBody());
            call(operation.toString(), spec -> {
                RequestSpecification withCredentials = operation.takes("adminToken")
                        ? admin(spec)
                        : operation.isPublic() ? spec : bearer(spec);
                return body == null
                        ? withCredentials
                        : withCredentials.contentType(ContentType.JSON).body(body.toString());
            }, target);
        }
    }

    private RequestSpecification bearer(RequestSpecification spec) {
        return spec.header("Authorization", "Bearer " + vendor.token());
    }

    /**
     * A stable media URL answers a redirect to a short-lived presigned one. Prism's proxy follows redirects (it would
     * report the object's 200 against the documented 302), so these are asked of the gateway directly.
     */
    private void redirect(String operation, String target) {
        Response response = Stack.api().redirects().follow(false).get(target);
        walked.add(operation);
        assertThat(response.statusCode()).as(operation + " " + target + ": " + response.asString()).isEqualTo(302);
        assertThat(response.header("Location")).as(operation).startsWith("http");
    }

    private RequestSpecification admin(RequestSpecification spec) {
        return spec.header("Authorization", "Bearer " + Stack.adminToken());
    }

    /** One call through Prism; its own and its answer's departures from the document are kept. */
    private Response call(String operation, UnaryOperator<RequestSpecification> request, String target) {
        return call(operation, request, target, false);
    }

    /** A call that breaks the document on purpose: only its answer's departures are kept. */
    private Response invalid(String operation, UnaryOperator<RequestSpecification> request, String target) {
        return call(operation, request, target, true);
    }

    private Response call(String operation, UnaryOperator<RequestSpecification> request, String target,
            boolean answerOnly) {
        String method = operation.substring(0, operation.indexOf(' '));
        Response response = request.apply(given().baseUri(prism.url()).urlEncodingEnabled(false)).request(method,
                target);
        walked.add(operation);
        assertThat(response.statusCode()).as(operation + " " + target + ": " + response.asString()).isLessThan(500);
        for (String violation : PrismProxy.violations(response.header("sl-violations"), answerOnly)) {
            violations.add(operation + " (" + target + " -> " + response.statusCode() + ") " + violation);
        }
        return response;
    }
}
