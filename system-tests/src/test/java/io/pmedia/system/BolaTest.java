package io.pmedia.system;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpServer;

import io.pmedia.system.Stack.Vendor;
import io.pmedia.testing.Patience;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import io.restassured.response.Response;

/**
 * Broken object level authorization, tried as an outside reviewer would, through the gateway only: vendor B names
 * vendor A's resources in every operation of the published OpenAPI document that takes an identifier or an object
 * path (and, for completeness, in every other operation), and never succeeds. Every operation of the document must
 * have a case here: a new operation fails this test until someone decides how B attacks it.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class BolaTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    private HttpServer sink;
    private final AtomicInteger pushesToA = new AtomicInteger();
    private Vendor a;
    private Vendor b;

    // A's resources
    private String image;
    private String input;
    private String request;
    private String videoUrl;
    private String thumbnailUrl;
    private String task;
    private String output;
    private String outputUrl;
    private String tryOn;
    private String campaign;
    private String campaignStart;
    private String delivery;
    private String privateTemplate;
    private String privateUseCase;
    private String ownTemplate;
    private String ownDefinition;
    private String motion;
    private ObjectNode lottie;

    @BeforeAll
    void aHasOneOfEverything() throws Exception {
        sink = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        sink.createContext("/", exchange -> {
            pushesToA.incrementAndGet();
            exchange.sendResponseHeaders(204, -1);
            exchange.close();
        });
        sink.start();
        a = Stack.onboard("bola A", "http://127.0.0.1:" + sink.getAddress().getPort() + "/push");
        b = Stack.onboard("bola B");

        image = Stack.upload(a, "photo.png", Stack.png("0x336699", 400, 800));
        input = Stack.upload(a, "customers.csv",
                "user-id,name,offer,image-url\na-1,Ada,A's secret offer,\n".getBytes(StandardCharsets.UTF_8));

        request = Stack.render(a, Map.of("personalization_fields", Map.of("name", "Ada"), "global_assets",
                Map.of("images", List.of(Stack.storeUrl(image)))));
        JsonPath rendered = Stack.finalStatus(a, request);
        assertThat(rendered.getString("status")).as(rendered.prettify()).isEqualTo("SUCCESS");
        videoUrl = rendered.getString("video-url");
        thumbnailUrl = rendered.getString("image-url");

        task = a.json(taskBody(a, input)).post("/media/task/create").then().statusCode(200).extract().path("task-id");
        JsonPath ended = Stack.finalTask(a, task);
        assertThat(ended.getString("status")).as(ended.prettify()).isEqualTo("COMPLETED");
        output = ended.getString("file-path");
        outputUrl = ended.getString("file-url");

        tryOn = a.json(tryOnBody(a, Stack.storeUrl(image))).post("/vton/request").then().statusCode(200).extract()
                .path("request-id");
        assertThat(Stack.finalTryOn(a, tryOn).getString("status")).isEqualTo("SUCCESS");

        campaign = "bola-" + UUID.randomUUID();
        campaignStart = Instant.now().plus(Duration.ofHours(1)).truncatedTo(ChronoUnit.SECONDS)
                .toString();
        a.json(Map.of("start_time", campaignStart, "end_time", Instant.now().plus(Duration.ofHours(2)).toString()))
                .post("/campaigns/" + campaign + "/schedule").then().statusCode(200);

        Patience.await().until(() -> !deliveriesOf(a).isEmpty());
        delivery = deliveriesOf(a).get(0);

        privateUseCase = "bola-private-" + UUID.randomUUID();
        ObjectNode template = (ObjectNode) JSON.readTree(Files.readString(
                Path.of(System.getProperty("pmedia.root", "..")).resolve("deploy/local/templates/greeting.json")));
        template.put("use-case-id", privateUseCase);
        template.putArray("allowed-clients").add(a.id().toString());
        privateTemplate = Stack.admin().contentType(ContentType.JSON).body(template.toString()).post("/admin/templates")
                .then().statusCode(201).extract().path("template-id");

        motion = "bola-" + UUID.randomUUID().toString().substring(0, 8);
        lottie = (ObjectNode) JSON.readTree(Files.readString(Path.of(System.getProperty("pmedia.root", ".."))
                .resolve("deploy/local/motions/confetti-burst.json")));
        a.json(Map.of("name", motion, "lottie", lottie)).post("/motions").then().statusCode(201);
        a.json(motionCard("bola-motion-" + UUID.randomUUID(), motion).toString()).post("/templates").then()
                .statusCode(201);

        template.remove("allowed-clients");
        template.put("use-case-id", "bola-own-" + UUID.randomUUID());
        ownDefinition = template.toString();
        ownTemplate = a.json(ownDefinition).post("/templates").then().statusCode(201).extract().path("template-id");
    }

    @AfterAll
    void cleanUp() {
        if (a != null) {
            Stack.delete(a);
        }
        if (b != null) {
            Stack.delete(b);
        }
        if (sink != null) {
            sink.stop(0);
        }
    }

    @Test
    void noOperationOfTheDocumentLetsOneVendorReachAnothersResources() throws Exception {
        Map<String, Runnable> cases = cases();
        Set<String> operations = operations();
        List<String> uncovered = operations.stream().filter(operation -> !cases.containsKey(operation)).toList();
        assertThat(uncovered).as("operations of the OpenAPI document without a BOLA case").isEmpty();

        List<String> failures = new ArrayList<>();
        for (String operation : operations) {
            try {
                cases.get(operation).run();
            } catch (AssertionError | RuntimeException e) {
                failures.add(operation + ": " + e.getMessage());
            }
        }
        assertThat(failures).as("cross-client successes").isEmpty();
        assertThat(pushesToA.get()).as("A's webhook saw only A's own pushes").isGreaterThanOrEqualTo(1);
    }

    /** Every operation of the published document, as "METHOD /path". */
    private Set<String> operations() throws IOException {
        JsonNode document = JSON.readTree(Stack.api().accept(ContentType.JSON).get("/q/openapi?format=json").then()
                .statusCode(200).extract().asString());
        Set<String> operations = new TreeSet<>();
        document.path("paths").fields().forEachRemaining(path -> path.getValue().fieldNames().forEachRemaining(
                method -> {
                    if (Set.of("get", "post", "put", "patch", "delete").contains(method)) {
                        operations.add(method.toUpperCase(Locale.ROOT) + " " + path.getKey());
                    }
                }));
        return operations;
    }

    /** How B attacks each operation, and what must hold afterwards. */
    private Map<String, Runnable> cases() {
        Map<String, Runnable> cases = new LinkedHashMap<>();
        cases.put("POST /auth/token", () -> Stack.api().contentType(ContentType.JSON)
                .body(Map.of("client_id", a.id().toString(), "client_secret", b.secret())).post("/auth/token").then()
                .statusCode(401));
        cases.put("GET /.well-known/jwks.json", () -> assertThat(Stack.api().get("/.well-known/jwks.json").then()
                .statusCode(200).extract().asString()).as("public keys only").doesNotContain(a.id().toString()));
        cases.put("GET /getToken", () -> Stack.api().get("/getToken?clientId=" + a.id() + "&clientSecret="
                + b.secret()).then().statusCode(401));

        cases.put("POST /media/demo", () -> {
            for (String url : List.of(Stack.storeUrl(image), thumbnailUrl, Stack.storeUrl(input))) {
                String id = Stack.render(b, Map.of("personalization_fields", Map.of("name", "Bob"), "global_assets",
                        Map.of("images", List.of(url))));
                assertNotFound(Stack.finalStatus(b, id), url, "asset ");
            }
        });
        cases.put("POST /video/demo", () -> {
            String url = Stack.storeUrl(image);
            Map<String, Object> body = Map.of("client-request-id", "bola-" + UUID.randomUUID(), "customer-id", "c",
                    "user-id", "u", "use-case-id", Stack.env().get("PMEDIA_DEMO_USE_CASE_ID"), "phrase-texts",
                    List.of("Bob"), "image-urls", List.of(url));
            String id = b.json(body).header("x-api-key", b.apiKey()).post("/video/demo").then().statusCode(200)
                    .extract().path("service-request-id");
            assertNotFound(Stack.finalStatus(b, id), url, "asset ");
        });
        cases.put("GET /status/{transactionId}", () -> {
            notFound(b.call().get("/status/" + request));
            notFound(Stack.api().header("x-api-key", b.apiKey()).get("/status/" + request));
        });

        cases.put("GET /templates", () -> assertThat(b.call().get("/templates").then().statusCode(200).extract()
                .jsonPath().getList("use-case-id", String.class)).doesNotContain(privateUseCase));
        cases.put("GET /templates/{templateId}", () -> {
            notFound(b.call().get("/templates/" + privateTemplate));
            notFound(b.call().get("/templates/" + ownTemplate));
        });
        cases.put("POST /templates/{templateId}/preview", () -> {
            Map<String, Object> data = Map.of("data", Map.of("personalization_fields", Map.of("name", "Bob")));
            notFound(b.json(data).post("/templates/" + privateTemplate + "/preview"));
            notFound(b.json(data).post("/templates/" + ownTemplate + "/preview"));
        });
        cases.put("GET /motions", () -> ownListOnly(b.call().get("/motions"), motion));
        cases.put("POST /motions", () -> {
            // B's file under A's motion's name is B's own: A's file and A's template are untouched, and B's
            // templates cannot name A's motion (it reads as one nobody registered)
            b.json(motionCard("bola-motion-" + UUID.randomUUID(), motion).toString()).post("/templates").then()
                    .statusCode(400).body("message", org.hamcrest.Matchers.containsString("unknown motion"));
            ObjectNode other = lottie.deepCopy();
            other.put("op", 10);
            b.json(Map.of("name", motion, "lottie", other)).post("/motions").then().statusCode(201);
            a.json(Map.of("name", motion, "lottie", lottie)).post("/motions").then().statusCode(200);
        });
        cases.put("POST /templates", () -> {
            // B registering A's own definition, use-case-id and all, gets a template of B's own: A's is untouched.
            String bs = b.json(ownDefinition).post("/templates").then().statusCode(201).extract().path("template-id");
            assertThat(bs).isNotEqualTo(ownTemplate);
            assertThat(a.call().get("/templates/" + ownTemplate).then().statusCode(200).extract().<Integer>path(
                    "version")).isEqualTo(1);
            assertThat(b.call().get("/templates").then().statusCode(200).extract().jsonPath()
                    .getList("template-id", String.class)).contains(bs).doesNotContain(ownTemplate, privateTemplate);
        });

        cases.put("POST /media/task/uploads", () -> assertThat(b.json(Map.of("file-name", "x.csv"))
                .post("/media/task/uploads").then().statusCode(200).extract().<String>path("file-path"))
                .contains("/inputs/" + b.id() + "/").doesNotContain(a.id().toString()));
        cases.put("POST /media/task/create", () -> {
            String key = input.substring(input.indexOf("/inputs/") + 1);
            String bucket = input.substring("s3://".length(), input.indexOf("/inputs/"));
            String outputKey = output.substring(output.indexOf("/batch/") + 1);
            for (String path : List.of(input, key, bucket + "/" + key, Stack.storeUrl(input), output, outputKey,
                    Stack.storeUrl(output), outputUrl, "inputs/" + b.id() + "/../" + key.substring("inputs/".length()),
                    "s3://" + bucket + "/inputs/" + b.id() + "/%2e%2e/" + key.substring("inputs/".length()))) {
                Response answer = b.json(taskBody(b, path)).post("/media/task/create");
                assertThat(answer.statusCode()).as(path).isEqualTo(404);
                assertThat(answer.jsonPath().getString("message")).isEqualTo("file not found: " + path);
            }
            // A row's image-url naming A's object: B's row fails as for a missing image.
            String file = Stack.upload(b, "rows.csv", ("user-id,name,image-url\nb-1,Bob," + Stack.storeUrl(image)
                    + "\n").getBytes(StandardCharsets.UTF_8));
            String id = b.json(taskBody(b, file)).post("/media/task/create").then().statusCode(200).extract()
                    .path("task-id");
            assertThat(Stack.finalTask(b, id).getString("status")).isEqualTo("FAILED");
        });
        cases.put("GET /media/task/status/{taskId}", () -> notFound(b.call().get("/media/task/status/" + task)));
        cases.put("POST /media/task/cancel/{taskId}", () -> notFound(b.call().post("/media/task/cancel/" + task)));

        cases.put("POST /vton/request", () -> {
            String url = Stack.storeUrl(image);
            String id = b.json(tryOnBody(b, url)).post("/vton/request").then().statusCode(200).extract()
                    .path("request-id");
            assertNotFound(Stack.finalTryOn(b, id), url, "model-image ");
        });
        cases.put("GET /vton/status/{requestId}", () -> notFound(b.call().get("/vton/status/" + tryOn)));

        cases.put("GET /campaigns/{campaign_id}/schedule",
                () -> notFound(b.call().get("/campaigns/" + campaign + "/schedule")));
        cases.put("POST /campaigns/{campaign_id}/schedule", () -> {
            b.json(Map.of("start_time", Instant.now().toString(), "end_time",
                    Instant.now().plus(Duration.ofHours(3)).toString())).post("/campaigns/" + campaign + "/schedule")
                    .then().statusCode(200);
            assertThat(a.call().get("/campaigns/" + campaign + "/schedule").then().statusCode(200).extract()
                    .<String>path("start_time")).as("A's campaign is untouched").isEqualTo(campaignStart);
        });

        cases.put("GET /webhooks/deliveries", () -> assertThat(deliveriesOf(b)).doesNotContain(delivery));
        cases.put("POST /webhooks/deliveries/{deliveryId}/replay",
                () -> notFound(b.call().post("/webhooks/deliveries/" + delivery + "/replay")));
        cases.put("POST /webhooks/test", () -> {
            int before = pushesToA.get();
            b.call().post("/webhooks/test");
            assertThat(pushesToA.get()).as("B's test push never reaches A's webhook").isEqualTo(before);
        });

        // The lists (issue 22): only the caller's own items, whatever the filters.
        cases.put("GET /media/requests", () -> ownListOnly(b.call().get("/media/requests?limit=100"), request));
        cases.put("GET /media/requests/{transactionId}/events",
                () -> notFound(b.call().get("/media/requests/" + request + "/events")));
        cases.put("GET /media/tasks", () -> ownListOnly(b.call().get("/media/tasks?limit=100"), task));
        cases.put("GET /vton/requests", () -> ownListOnly(b.call().get("/vton/requests?limit=100"), tryOn));
        cases.put("GET /campaigns", () -> ownListOnly(b.call().get("/campaigns?limit=100"), campaignStart));
        cases.put("GET /usage", () -> ownListOnly(b.call().get("/usage"), a.id().toString()));
        // the caller's own record only: vendor b's answer names b, never a
        cases.put("GET /account", () -> ownListOnly(b.call().get("/account"), a.id().toString()));

        // The webhook endpoint (issue 22): B's calls act on B's endpoint only; A's stays as it was.
        String sinkPort = ":" + sink.getAddress().getPort() + "/";
        cases.put("GET /webhooks/endpoint", () -> ownListOnly(b.call().get("/webhooks/endpoint"), sinkPort));
        cases.put("PUT /webhooks/endpoint", () -> {
            b.json(Map.of("url", "", "event-types", List.of("video.push"))).put("/webhooks/endpoint");
            assertThat(a.call().get("/webhooks/endpoint").then().statusCode(200).extract().<String>path("url"))
                    .contains(sinkPort);
        });
        cases.put("POST /webhooks/endpoint/rotate-secret", () -> {
            b.call().post("/webhooks/endpoint/rotate-secret");
            assertThat(a.call().get("/webhooks/endpoint").then().statusCode(200).extract()
                    .<String>path("previous-secret-valid-until")).as("A's secret was not rotated").isNull();
        });
        cases.put("POST /webhooks/endpoint/test", () -> {
            int before = pushesToA.get();
            b.call().post("/webhooks/endpoint/test");
            assertThat(pushesToA.get()).as("B's test event never reaches A's webhook").isEqualTo(before);
        });
        cases.put("POST /webhooks/deliveries/recover", () -> {
            b.json(Map.of("since", "2020-01-01T00:00:00Z")).post("/webhooks/deliveries/recover").then()
                    .statusCode(200);
            assertThat(deliveriesOf(b)).doesNotContain(delivery);
        });

        // Share links and analytics (issue 21): A's video, template and campaign are 404 to B.
        cases.put("DELETE /media/{transactionId}/share", () -> {
            notFound(b.call().delete("/media/" + request + "/share"));
            assertThat(a.call().get("/status/" + request).then().statusCode(200).extract()
                    .<String>path("share-url")).as("A's link still stands").isNotBlank();
        });
        cases.put("GET /analytics/videos/{transactionId}",
                () -> notFound(b.call().get("/analytics/videos/" + request)));
        cases.put("GET /analytics/templates/{templateId}",
                () -> notFound(b.call().get("/analytics/templates/" + ownTemplate)));
        cases.put("GET /analytics/campaigns/{campaignId}",
                () -> ownListOnly(b.call().get("/analytics/campaigns/" + campaign), request));
        cases.put("GET /analytics/campaigns/{campaignId}/videos.csv",
                () -> ownListOnly(b.call().get("/analytics/campaigns/" + campaign + "/videos.csv"), request));
        // The share pages are public by design (the link is the credential, 144 random bits): a neighbour of A's
        // share id is the same 404 as any unknown id, for every page, media redirect and beacon.
        for (String operation : List.of("GET /v/{shareId}", "GET /v/{shareId}/embed", "GET /v/{shareId}/video.mp4",
                "GET /v/{shareId}/poster.jpg", "GET /v/{shareId}/email.gif", "GET /v/{shareId}/captions.vtt",
                "POST /v/{shareId}/events", "GET /v/{shareId}/state", "POST /v/{shareId}/render")) {
            cases.put(operation, () -> {
                String url = a.call().get("/status/" + request).then().statusCode(200).extract().path("share-url");
                String share = url.substring(url.lastIndexOf('/') + 1);
                String neighbour = share.substring(0, share.length() - 1) + (share.endsWith("A") ? "B" : "A");
                String[] parts = operation.split(" ", 2);
                Response answer = Stack.api().contentType(ContentType.JSON)
                        .body("{\"type\":\"view\",\"session\":\"bola-session-1\"}")
                        .request(parts[0], parts[1].replace("{shareId}", neighbour));
                assertThat(answer.statusCode()).as(operation).isEqualTo(404);
            });
        }

        // The operator's API: a vendor's token is never an operator credential, whatever the id.
        for (String operation : List.of("GET /admin/clients", "POST /admin/clients", "GET /admin/clients/{clientId}",
                "PATCH /admin/clients/{clientId}", "DELETE /admin/clients/{clientId}",
                "POST /admin/clients/{clientId}/rotate-secret", "POST /admin/clients/{clientId}/rotate-api-key",
                "POST /admin/clients/{clientId}/rotate-webhook-secret", "GET /admin/templates",
                "POST /admin/templates", "GET /admin/templates/{useCaseId}", "POST /admin/fonts", "GET /admin/fonts",
                "POST /admin/motions", "GET /admin/motions",
                "GET /admin/usage", "GET /admin/webhooks/dead-letters",
                "POST /admin/webhooks/dead-letters/{deliveryId}/replay")) {
            cases.put(operation, () -> {
                String[] parts = operation.split(" ", 2);
                String path = parts[1].replace("{clientId}", a.id().toString()).replace("{useCaseId}",
                        privateUseCase).replace("{deliveryId}", "msg_" + "0".repeat(32));
                Response answer = b.call().contentType(ContentType.JSON).body("{\"name\":\"mine now\"}")
                        .request(parts[0], path);
                assertThat(answer.statusCode()).as(operation).isIn(401, 403);
                Stack.admin().get("/admin/clients/" + a.id()).then().statusCode(200);
            });
        }
        return cases;
    }

    /** A one-layer template of a vendor's own drawing {@code motion}. */
    private static ObjectNode motionCard(String useCase, String motion) {
        try {
            return (ObjectNode) JSON.readTree("""
                    {"use-case-id": "%s", "name": "Motion card",
                     "canvas": {"width": 320, "height": 180, "fps": 25, "background": "#000000"},
                     "segments": [{"id": "only", "duration": 1, "layers": [
                       {"type": "lottie", "motion": "%s", "width": 320, "height": 180}]}]}""".formatted(useCase,
                    motion));
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /** B's own view of a list (or a report): answered, and nothing in it names A's {@code resource}. */
    private static void ownListOnly(Response answer, String resource) {
        assertThat(answer.statusCode()).as(answer.asString()).isIn(200, 404);
        assertThat(answer.asString()).doesNotContain(resource);
    }

    private static void notFound(Response answer) {
        assertThat(answer.statusCode()).as(answer.asString()).isEqualTo(404);
        assertThat(answer.jsonPath().getString("code")).isEqualTo("NOT_FOUND");
    }

    /** A render or try-on of B that named A's object ended as if the object did not exist. */
    private static void assertNotFound(JsonPath status, String url, String what) {
        assertThat(status.getString("status")).as(status.prettify()).isEqualTo("FAILURE");
        assertThat(status.getString("message")).as(url).startsWith(what).endsWith("could not be fetched: not found");
    }

    /** The webhook-ids of a vendor's deliveries ({@code GET /webhooks/deliveries}). */
    private static List<String> deliveriesOf(Vendor vendor) {
        return vendor.call().get("/webhooks/deliveries").then().statusCode(200).extract().jsonPath()
                .getList("items.webhook-id", String.class);
    }

    private static Map<String, Object> taskBody(Vendor vendor, String filePath) {
        return Map.of("client-id", vendor.id().toString(), "campaign-id", "bola", "template-id",
                Stack.env().get("PMEDIA_DEMO_TEMPLATE_ID"), "file-name", "customers.csv", "file-path", filePath,
                "priority", 1, "row-count", 1, "expected-output-duration", 5);
    }

    private static Map<String, Object> tryOnBody(Vendor vendor, String image) {
        return Map.of("user-id", "u-1", "client-id", vendor.id().toString(), "usecase-id", "bola", "model-image",
                image, "garment-image", List.of(image), "category", "tops");
    }
}
