package io.pmedia.system;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.sun.net.httpserver.HttpServer;

import io.pmedia.testing.Patience;

/**
 * The examples of docs/openapi.yaml are true: every operation has a summary, a description and examples, and one
 * walk through the running stack sends each request example to the gateway and compares the answer with the
 * response example of its status. The examples tell one story (an operator onboards the vendor Acme, Acme renders,
 * runs a batch, dresses a model, schedules a campaign, reads its webhook deliveries, and is offboarded); the walk maps
 * the story's identifiers onto the live ones as it learns them (the example's task-id is the task this walk created).
 *
 * <p>
 * An answer matches its example when it has every field the example shows, with the same JSON type, and the same
 * value, except for the fields whose values are the server's to choose ({@link #INSTANCE}: identifiers, secrets,
 * URLs, times), whose example values stand for the live ones from then on.
 */
class OpenApiExamplesTest {

    static final ObjectMapper JSON = new ObjectMapper();
    static final Path ROOT = Path.of(System.getProperty("pmedia.root", ".."));

    /** Fields whose values the server chooses: the example's value stands for the live one. */
    static final Set<String> INSTANCE = Set.of("access_token", "client-id", "client-secret", "api-key",
            "webhook-secret", "service-request-id", "task-id", "request-id", "template-id", "file-path", "file-url",
            "upload-url", "video-url", "image-url", "stream-url", "captions-url", "generated-output", "timestamp",
            "created-at", "updated-at", "webhook-id", "event-id", "attempted-at", "next-attempt-at", "latency-ms",
            "kid", "n", "e", "previous-valid-until", "next-cursor", "size-bytes", "sha256", "owner-client-id",
            "updated_at", "attempt-count", "last-status-code", "response-body", "version", "duration-seconds",
            "keys", "payload", "message", "created_at", "ended-at", "due-at", "projected-finish", "render-seconds",
            "template-version", "share-url", "first-view-at", "last-view-at", "until", "from", "to", "start", "day",
            "at",
            // usage that depends on how the walk's renders and deliveries went (cancelled rows, retries, sizes)
            "renders", "video-seconds", "storage-bytes", "batch-rows", "webhook-deliveries",
            // and on the repeats: a try-on with another user-id is a new try-on (RepeatedRequests)
            "try-ons");

    /** What the story's viewer opens the share page with (an HTTP library's user agent is counted as a bot). */
    static final String BROWSER = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko)"
            + " Chrome/131.0 Safari/537.36";

    /**
     * HTTP/1.1: over plain http the JDK client otherwise offers an h2c upgrade, and the gateway answers 500 to a
     * bodiless POST that arrives with one on its own JAX-RS endpoints (the rotate calls; reported separately).
     */
    final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    final JsonNode document;
    final Map<String, JsonNode> operations = new LinkedHashMap<>();
    final Map<String, String> operationPaths = new LinkedHashMap<>();
    final Map<String, String> operationMethods = new LinkedHashMap<>();
    final Set<String> walked = new LinkedHashSet<>();
    /** The mutating operations the walk sent again ({@link RepeatedRequests}). */
    final Set<String> repeated = new LinkedHashSet<>();
    /** Example value -> live value. */
    final Map<String, String> live = new LinkedHashMap<>();
    String vendorToken;
    String vendorApiKey;
    /** What the story's webhook receiver (the vendor's webhook-url) got. */
    final List<String> pushes = new java.util.concurrent.CopyOnWriteArrayList<>();

    OpenApiExamplesTest() throws IOException {
        document = new ObjectMapper(new YAMLFactory()).readTree(ROOT.resolve("docs/openapi.yaml").toFile());
        document.path("paths").fields().forEachRemaining(path -> path.getValue().fields().forEachRemaining(op -> {
            if (op.getValue().has("operationId")) {
                String id = op.getValue().get("operationId").asText();
                operations.put(id, op.getValue());
                operationPaths.put(id, path.getKey());
                operationMethods.put(id, op.getKey().toUpperCase(Locale.ROOT));
            }
        }));
    }

    @Test
    void everyOperationHasASummaryADescriptionAndExamples() {
        List<String> missing = new ArrayList<>();
        operations.forEach((id, operation) -> {
            if (operation.path("summary").asText().isBlank()) {
                missing.add(id + ": summary");
            }
            if (operation.path("description").asText().isBlank()) {
                missing.add(id + ": description");
            }
            JsonNode body = operation.at("/requestBody/content/application~1json");
            if (!body.isMissingNode() && example(body) == null) {
                missing.add(id + ": request example");
            }
            for (JsonNode parameter : parameters(id)) {
                if (parameter.path("required").asBoolean() && !parameter.has("example")) {
                    missing.add(id + ": example of parameter " + parameter.path("name").asText());
                }
            }
            boolean success = false;
            for (Iterator<Map.Entry<String, JsonNode>> it = operation.path("responses").fields(); it.hasNext();) {
                Map.Entry<String, JsonNode> response = it.next();
                JsonNode json = response.getValue().at("/content/application~1json");
                // A share page's media paths answer a redirect by design (redocly.yaml): their success is a 302.
                if (response.getKey().startsWith("2") || response.getKey().startsWith("3")) {
                    success = true;
                    if (!json.isMissingNode() && example(json) == null) {
                        missing.add(id + ": example of response " + response.getKey());
                    }
                }
            }
            assertThat(success).as(id + " documents a success answer").isTrue();
            if (!operationMethods.get(id).equals("GET")) {
                JsonNode rule = operation.path("x-pmedia-repeat");
                List<String> outcomes = RepeatedRequests.outcomes(rule);
                if (outcomes.isEmpty() || !RepeatedRequests.AGAIN.containsAll(outcomes)) {
                    missing.add(id + ": x-pmedia-repeat (what the same request again answers: one or more of "
                            + RepeatedRequests.AGAIN + ")");
                }
                if (rule.has("vary") && !RepeatedRequests.VARIED.contains(rule.path("varied").asText())) {
                    missing.add(id + ": x-pmedia-repeat varied (one of " + RepeatedRequests.VARIED + ")");
                }
            }
        });
        assertThat(missing).as("operations of docs/openapi.yaml without what a reader needs").isEmpty();
    }

    @Test
    void everyExampleIsWhatTheServerAnswers() throws Exception {
        Map<String, String> env = Stack.env();
        HttpServer hooks = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        hooks.createContext("/", exchange -> {
            pushes.add(new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
            exchange.sendResponseHeaders(202, -1);
            try (OutputStream ignored = exchange.getResponseBody()) {
                // no body
            }
        });
        hooks.start();
        try {
            // What the story names that this machine decides: the vendor's webhook, the shared sample template, a font.
            live.put("https://hooks.acme.example/pmedia",
                    "http://127.0.0.1:" + hooks.getAddress().getPort() + "/pmedia");
            live.put("6f1d2c3b-4a5e-4f60-8a7b-9c0d1e2f3a4b", env.get("PMEDIA_DEMO_TEMPLATE_ID"));
            live.put(fontExample(), Base64.getEncoder().encodeToString(
                    Files.readAllBytes(Path.of("/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf"))));
            walk(env);
        } finally {
            hooks.stop(0);
        }
        assertThat(walked).as("operations the walk sent (add a step for a new operation)")
                .containsExactlyInAnyOrderElementsOf(operations.keySet());
        assertThat(repeated).as("mutating operations the walk sent again").containsExactlyInAnyOrderElementsOf(
                operations.keySet().stream().filter(id -> !operationMethods.get(id).equals("GET")).toList());
    }

    private void walk(Map<String, String> env) throws Exception {
        String admin = env.get("PMEDIA_ADMIN_TOKEN");
        JsonNode onboarded = call("createClient", admin, 201);
        call("listClients", admin, 200);
        call("getClient", admin, 200);
        call("updateClient", admin, 200);
        call("createToken", null, 200);
        vendorToken = live.get(exampleOf("createToken", "200").path("access_token").asText());
        vendorApiKey = onboarded.path("api-key").asText();
        call("getAccount", vendorToken, 200); // the vendor's own record, as updateClient left it
        call("getTokenEarlierForm", null, 200);
        call("getJwks", null, 200);
        // The vendor's webhook endpoint as onboarded (video pushes only); it subscribes to batch and try-on ends too.
        call("getWebhookEndpoint", vendorToken, 200);
        call("replaceWebhookEndpoint", vendorToken, 200);

        call("listTemplates", vendorToken, 200);
        call("getTemplate", vendorToken, 200);
        call("registerOwnTemplate", vendorToken, 201);
        call("previewTemplate", vendorToken, 200);
        call("registerMotion", vendorToken, 201);
        call("listMotions", vendorToken, 200);

        call("createMedia", vendorToken, 200);
        awaitStatus("getMediaStatus", "SUCCESS");
        call("createVideoEarlierForm", vendorToken, 200);
        call("listMediaRequests", vendorToken, 200);
        call("getRequestTimeline", vendorToken, 200);

        // A customer opens the video's share page (once engagement-service has its link), and the page reports a view.
        String shareUrl = live.get(exampleOf("getMediaStatus", "200").path("share-url").asText());
        live.put(parameterExample("sharePage", "shareId"), shareUrl.substring(shareUrl.lastIndexOf('/') + 1));
        awaitCall("sharePage", null, 200);
        // The page issues a view token to this page view; the beacons of the story carry it (docs/sharing.md).
        String page = http.send(HttpRequest.newBuilder(URI.create(shareUrl)).header("User-Agent", BROWSER).build(),
                HttpResponse.BodyHandlers.ofString()).body();
        Matcher token = Pattern.compile("data-view-token=\"([^\"]+)\"").matcher(page);
        assertThat(token.find()).as("the share page issues a view token").isTrue();
        JsonNode beacon = requestExample("recordViewerEvent");
        live.put(beacon.path("token").asText(), token.group(1));
        live.put(beacon.path("session").asText(), token.group(1).substring(0, token.group(1).indexOf('.')));
        call("sharePageEmbed", null, 200);
        call("shareVideo", null, 302);
        call("sharePoster", null, 302);
        awaitCall("shareEmailGif", null, 302); // made on first request: on a loaded machine past the gateway's timeout
        call("shareCaptions", null, 404); // the greeting template does not speak
        // A video rendered at once: its state is ready, and a retry asks for nothing (render on first view aside).
        call("shareRenderState", null, 200);
        call("shareRenderRetry", null, 200);
        call("recordViewerEvent", null, 202);

        // The batch: the upload URL, the file put there (as curl -T would), the task, its end; then one to cancel.
        JsonNode upload = call("createTaskUpload", vendorToken, 200);
        put(upload.path("upload-url").asText(),
                "user-id,name,offer\nu-1,Ada,20% off\nu-2,Grace,\nu-3,Linus,free shipping\n");
        call("createTask", vendorToken, 200);
        awaitStatus("getTaskStatus", "COMPLETED");
        call("listTasks", vendorToken, 200);
        JsonNode second = send("createTask", vendorToken, substitute(requestExample("createTask")));
        live.put(exampleOf("cancelTask", "200").path("task-id").asText(), second.path("body").path("task-id").asText());
        call("cancelTask", vendorToken, 200);

        // Try-on: the story's image URLs are the vendor's own objects here (nothing outside the machine is fetched).
        live.put("https://images.acme.example/model.png", storeUrl(upload("model.png", image("400x800", "0x1e3cc8"))));
        live.put("https://images.acme.example/shirt.png", storeUrl(upload("shirt.png", image("200x160", "0xdc1414"))));
        call("createTryOn", vendorToken, 200);
        awaitStatus("getTryOnStatus", "SUCCESS");
        call("listTryOns", vendorToken, 200);

        call("scheduleCampaign", vendorToken, 200);
        call("getCampaignSchedule", vendorToken, 200);
        call("listCampaigns", vendorToken, 200);

        call("testWebhook", vendorToken, 200);
        call("testWebhookEndpoint", vendorToken, 200);
        Patience.await().until(() -> pushes.size() >= 3);
        awaitCall("listWebhookDeliveries", vendorToken, 200);
        call("replayWebhookDelivery", vendorToken, 200);
        call("rotateWebhookEndpointSecret", vendorToken, 200);
        call("recoverWebhookDeliveries", vendorToken, 200);

        // What the viewers did (the rollup is a few seconds behind), and what Acme used; then the link is revoked.
        awaitCall("videoAnalytics", vendorToken, 200);
        awaitCall("templateAnalytics", vendorToken, 200);
        awaitCall("campaignAnalytics", vendorToken, 200);
        call("campaignVideosCsv", vendorToken, 200);
        awaitCall("getUsage", vendorToken, 200);
        call("revokeShare", vendorToken, 204);
        // engagement-service learns of it from media's status event
        Patience.await().pollInterval(Duration.ofMillis(500))
                .until(() -> send("sharePage", null, null).path("status").asInt() == 404);

        JsonNode fontBody = substitute(requestExample("registerFont"));
        JsonNode font = send("registerFont", admin, fontBody);
        compare("registerFont", font.path("status").asInt(), font.path("body"));
        repeat("registerFont", admin, fontBody, font.path("body"));
        call("listFonts", admin, 200);
        // a shared motion of the story's name may be there from an earlier walk on this stack: 201 or 200
        JsonNode motionBody = substitute(requestExample("registerSharedMotion"));
        JsonNode motion = send("registerSharedMotion", admin, motionBody);
        compare("registerSharedMotion", motion.path("status").asInt(), motion.path("body"));
        repeat("registerSharedMotion", admin, motionBody, motion.path("body"));
        call("listSharedMotions", admin, 200);
        JsonNode templateBody = substitute(requestExample("registerTemplate"));
        JsonNode template = send("registerTemplate", admin, templateBody);
        compare("registerTemplate", template.path("status").asInt(), template.path("body"));
        repeat("registerTemplate", admin, templateBody, template.path("body"));
        call("listAllTemplates", admin, 200);
        call("getAnyTemplate", admin, 200);
        awaitCall("listUsage", admin, 200);
        // The operator's dead letters (none: Acme's endpoint took every push), and the test event replayed once more.
        call("listDeadLetters", admin, 200);
        call("replayDeadLetter", admin, 200);

        call("rotateClientSecret", admin, 200);
        call("rotateClientApiKey", admin, 200);
        call("rotateClientWebhookSecret", admin, 200);
        call("deleteClient", admin, 204);
    }

    // --- one operation -------------------------------------------------------------------------------------------

    /** Sends the operation's request example and checks the answer against the example of {@code status}. */
    private JsonNode call(String id, String token, int status) throws Exception {
        JsonNode body = substitute(requestExample(id));
        JsonNode answer = send(id, token, body);
        assertThat(answer.path("status").asInt()).as(id + " answered " + answer.path("body")).isEqualTo(status);
        compare(id, status, answer.path("body"));
        repeat(id, token, body, answer.path("body"));
        return answer.path("body");
    }

    /**
     * A mutating operation sent again as its {@code x-pmedia-repeat} says ({@link RepeatedRequests}); what that made
     * anew is cleaned up (a second client is deleted).
     */
    private void repeat(String id, String token, JsonNode body, JsonNode first) throws Exception {
        if (operationMethods.get(id).equals("GET")) {
            return;
        }
        JsonNode rule = operations.get(id).path("x-pmedia-repeat");
        repeated.add(id);
        for (JsonNode made : RepeatedRequests.check(id, rule, body, first, again -> send(id, token, again))) {
            if (id.equals("createClient")) {
                HttpResponse<String> deleted = http.send(HttpRequest.newBuilder(URI.create(Stack.gateway()
                        + "/admin/clients/" + made.path("client-id").asText())).header("Authorization", "Bearer "
                                + token)
                        .DELETE().build(), HttpResponse.BodyHandlers.ofString());
                assertThat(deleted.statusCode()).as("deleting the repeat's client").isEqualTo(204);
            }
        }
    }

    /**
     * {@link #call} until the answer matches its example: for what other services learn from events (share pages,
     * analytics, usage, the delivery log).
     */
    private JsonNode awaitCall(String id, String token, int status) {
        JsonNode[] answer = new JsonNode[1];
        Patience.await().pollInterval(Duration.ofMillis(500)).untilAsserted(() -> {
            Map<String, String> before = new LinkedHashMap<>(live);
            try {
                answer[0] = call(id, token, status);
            } catch (AssertionError e) {
                live.clear();
                live.putAll(before);
                throw e;
            }
        });
        return answer[0];
    }

    private void awaitStatus(String id, String wanted) {
        Patience.await().pollInterval(Duration.ofMillis(500)).until(() -> {
            JsonNode answer = send(id, vendorToken, null);
            assertThat(answer.path("status").asInt()).as(id + ": " + answer.path("body")).isEqualTo(200);
            String now = answer.path("body").path("status").asText();
            assertThat(now).as(id).isNotIn("FAILURE", "FAILED");
            if (!now.equals(wanted)) {
                return false;
            }
            compare(id, 200, answer.path("body"));
            return true;
        });
    }

    private void compare(String id, int status, JsonNode actual) {
        walked.add(id);
        JsonNode response = resolve(operations.get(id).path("responses").path(Integer.toString(status)));
        assertThat(response.isMissingNode()).as(id + " documents its " + status + " answer").isFalse();
        JsonNode json = response.at("/content/application~1json");
        if (json.isMissingNode() || example(json) == null) {
            return;
        }
        List<String> problems = new ArrayList<>();
        match(example(json), actual, id + " " + status, "", problems);
        assertThat(problems).as("the example of " + id + " " + status + " against the server's answer " + actual)
                .isEmpty();
    }

    private void match(JsonNode example, JsonNode actual, String where, String field, List<String> problems) {
        if (INSTANCE.contains(field) && example.isContainerNode()) {
            if (example.getNodeType() != actual.getNodeType()) {
                problems.add(where + ": " + example.getNodeType() + " in the example, " + actual.getNodeType());
            }
            return;
        }
        if (example.isObject()) {
            if (!actual.isObject()) {
                problems.add(where + ": an object in the example, " + actual.getNodeType() + " from the server");
                return;
            }
            example.fields().forEachRemaining(entry -> {
                if (!actual.has(entry.getKey())) {
                    problems.add(where + "." + entry.getKey() + ": in the example, not in the answer");
                } else {
                    match(entry.getValue(), actual.get(entry.getKey()), where + "." + entry.getKey(),
                            entry.getKey(), problems);
                }
            });
            return;
        }
        if (example.isArray()) {
            if (!actual.isArray() || (example.size() > 0 && actual.size() == 0)) {
                problems.add(where + ": a non-empty array in the example, " + actual + " from the server");
                return;
            }
            if (example.size() == 0) {
                return;
            }
            // Each element shown must match some element of the answer (lists are newest first, of any length).
            for (JsonNode shown : example) {
                List<String> best = null;
                for (JsonNode candidate : actual) {
                    List<String> attempt = new ArrayList<>();
                    Map<String, String> before = new LinkedHashMap<>(live);
                    match(shown, candidate, where + "[]", field, attempt);
                    if (attempt.isEmpty()) {
                        best = attempt;
                        break;
                    }
                    live.clear();
                    live.putAll(before);
                    if (best == null || attempt.size() < best.size()) {
                        best = attempt;
                    }
                }
                problems.addAll(best);
            }
            return;
        }
        if (INSTANCE.contains(field)) {
            if (example.isTextual() && actual.isTextual() && !example.asText().isEmpty()) {
                live.putIfAbsent(example.asText(), actual.asText());
            }
            if (!example.isNull() && !actual.isNull() && example.getNodeType() != actual.getNodeType()) {
                problems.add(where + ": " + example.getNodeType() + " in the example, " + actual.getNodeType());
            }
            return;
        }
        JsonNode expected = example.isTextual() ? TextNode.valueOf(substituteText(example.asText())) : example;
        if (!expected.equals(actual) && !(expected.isNumber() && actual.isNumber()
                && expected.decimalValue().compareTo(actual.decimalValue()) == 0)) {
            problems.add(where + ": the example says " + example + ", the server " + actual);
        }
    }

    // --- requests ------------------------------------------------------------------------------------------------

    /** Sends an operation with its parameters' examples (substituted) and {@code body}; answers {status, body}. */
    private JsonNode send(String id, String token, JsonNode body) throws Exception {
        String path = operationPaths.get(id);
        StringBuilder query = new StringBuilder();
        for (JsonNode parameter : parameters(id)) {
            if (!parameter.has("example")) {
                continue;
            }
            String value = substituteText(parameter.get("example").asText());
            String name = parameter.path("name").asText();
            switch (parameter.path("in").asText()) {
                case "path" -> path = path.replace("{" + name + "}", URLEncoder.encode(value, StandardCharsets.UTF_8));
                case "query" -> query.append(query.isEmpty() ? "?" : "&").append(name).append('=')
                        .append(URLEncoder.encode(value, StandardCharsets.UTF_8));
                default -> fail("a parameter in " + parameter.path("in").asText() + " of " + id);
            }
        }
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(Stack.gateway() + path + query))
                .method(operationMethods.get(id), body == null
                        ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofString(JSON.writeValueAsString(body)));
        if (body != null) {
            request.header("Content-Type", "application/json");
        }
        if (path.startsWith("/v/")) {
            request.header("User-Agent", BROWSER);
        }
        String security = operations.get(id).has("security") ? operations.get(id).get("security").toString() : "";
        if (token != null && !security.equals("[]")) {
            request.header("Authorization", "Bearer " + token);
        }
        if (security.contains("apiKey") && vendorApiKey != null) {
            request.header("x-api-key", substituteText(vendorApiKey));
        }
        HttpResponse<String> response = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
        ObjectNode answer = JsonNodeFactory.instance.objectNode().put("status", response.statusCode());
        String contentType = response.headers().firstValue("Content-Type").orElse("");
        answer.set("body", contentType.startsWith("application/json") && !response.body().isEmpty()
                ? JSON.readTree(response.body())
                : TextNode.valueOf(contentType));
        return answer;
    }

    private JsonNode requestExample(String id) {
        JsonNode json = operations.get(id).at("/requestBody/content/application~1json");
        return json.isMissingNode() ? null : example(json);
    }

    private JsonNode exampleOf(String id, String status) {
        return example(resolve(operations.get(id).path("responses").path(status)).at("/content/application~1json"));
    }

    private String parameterExample(String id, String name) {
        return parameters(id).stream().filter(parameter -> parameter.path("name").asText().equals(name)).findFirst()
                .orElseThrow().path("example").asText();
    }

    private List<JsonNode> parameters(String id) {
        List<JsonNode> all = new ArrayList<>();
        document.path("paths").path(operationPaths.get(id)).path("parameters").forEach(all::add);
        operations.get(id).path("parameters").forEach(all::add);
        return all;
    }

    private static JsonNode example(JsonNode media) {
        if (media.has("example")) {
            return media.get("example");
        }
        Iterator<JsonNode> named = media.path("examples").elements();
        return named.hasNext() ? named.next().path("value") : null;
    }

    private JsonNode resolve(JsonNode node) {
        String ref = node.path("$ref").asText();
        return ref.isEmpty() ? node : document.at(ref.substring(1));
    }

    private JsonNode substitute(JsonNode node) {
        if (node == null) {
            return null;
        }
        if (node.isTextual()) {
            return TextNode.valueOf(substituteText(node.asText()));
        }
        if (node.isObject()) {
            ObjectNode copy = JsonNodeFactory.instance.objectNode();
            node.fields().forEachRemaining(entry -> copy.set(entry.getKey(), substitute(entry.getValue())));
            return copy;
        }
        if (node.isArray()) {
            ArrayNode copy = JsonNodeFactory.instance.arrayNode();
            node.forEach(element -> copy.add(substitute(element)));
            return copy;
        }
        return node;
    }

    private String substituteText(String text) {
        String whole = live.get(text);
        if (whole != null) {
            return whole;
        }
        String result = text;
        for (Map.Entry<String, String> entry : live.entrySet()) {
            if (entry.getKey().length() >= 8) {
                result = result.replace(entry.getKey(), entry.getValue());
            }
        }
        return result;
    }

    private String fontExample() {
        return requestExample("registerFont").path("file").asText();
    }

    // --- files for the batch and the try-on ----------------------------------------------------------------------

    private void put(String url, String content) throws Exception {
        HttpResponse<String> response = http.send(HttpRequest.newBuilder(URI.create(url)).header("Content-Type",
                "text/csv").PUT(HttpRequest.BodyPublishers.ofString(content)).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).as("PUT to the upload-url: " + response.body()).isEqualTo(200);
    }

    private String upload(String name, byte[] content) throws Exception {
        HttpResponse<String> answer = http.send(HttpRequest.newBuilder(URI.create(Stack.gateway()
                + "/media/task/uploads")).header("Authorization", "Bearer " + vendorToken)
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"file-name\":\"" + name + "\"}")).build(),
                HttpResponse.BodyHandlers.ofString());
        JsonNode where = JSON.readTree(answer.body());
        HttpResponse<String> put = http.send(HttpRequest.newBuilder(URI.create(where.path("upload-url").asText()))
                .header("Content-Type", "application/octet-stream").PUT(HttpRequest.BodyPublishers.ofByteArray(content))
                .build(), HttpResponse.BodyHandlers.ofString());
        assertThat(put.statusCode()).isEqualTo(200);
        return where.path("file-path").asText();
    }

    private static String storeUrl(String filePath) {
        return Stack.s3Endpoint() + "/" + filePath.substring("s3://".length());
    }

    private static byte[] image(String size, String color) throws Exception {
        Path file = Files.createTempFile("example", ".png");
        Process ffmpeg = new ProcessBuilder("ffmpeg", "-v", "error", "-y", "-f", "lavfi", "-i",
                "color=c=" + color + ":s=" + size, "-frames:v", "1", file.toString()).redirectErrorStream(true).start();
        assertThat(ffmpeg.waitFor()).isZero();
        byte[] bytes = Files.readAllBytes(file);
        Files.delete(file);
        return bytes;
    }

    static String unique() {
        return UUID.randomUUID().toString();
    }
}
