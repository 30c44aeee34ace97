package io.pmedia.system;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import com.fasterxml.jackson.databind.JsonNode;
import com.sun.net.httpserver.HttpServer;

import io.pmedia.testing.Patience;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;

/**
 * Issue 21 through the gateway, with a real browser: a rendered video's share page plays to its end in Chromium, its
 * call to action (with a hostile name, escaped) opens its URL, the embed player is refused by a foreign origin and
 * shown by an allowed one, and the rollup then counts exactly one view, one play, the 25/50/75 % steps, one completion
 * and one click. Then: revocation, another vendor's analytics, and a batch output file whose share-url column opens
 * each row's page. A screenshot of the page is kept (system-tests/target/browser/share-page.png).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class SharePageTest {

    private static final String HOSTILE = "<img src=x onerror=alert(1)>";

    private HttpServer foreign;
    private HttpServer allowed;
    private Stack.Vendor vendor;
    private Stack.Vendor other;

    @BeforeAll
    void start() throws IOException {
        foreign = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        allowed = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        foreign.start();
        allowed.start();
        foreign.createContext("/landing", exchange -> {
            byte[] body = "<!doctype html><title>landed</title><p>landed</p>".getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "text/html");
            exchange.sendResponseHeaders(200, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        vendor = Stack.onboard("share pages");
        other = Stack.onboard("share pages other");
        Stack.admin().contentType(ContentType.JSON).body(Map.of("sharing", Map.of("embed-origins",
                List.of(origin(allowed)), "color", "#2a9d8f"))).patch("/admin/clients/" + vendor.id()).then()
                .statusCode(200);
    }

    @AfterAll
    void stop() {
        foreign.stop(0);
        allowed.stop(0);
        Stack.delete(vendor);
        Stack.delete(other);
    }

    @Test
    void aViewerWatchesClicksAndIsCountedOnce() throws Exception {
        String useCase = "share-" + UUID.randomUUID().toString().substring(0, 8);
        String landing = origin(foreign) + "/landing";
        vendor.json(Map.of("use-case-id", useCase, "name", "Your spring offer",
                "canvas", Map.of("width", 320, "height", 240, "fps", 25, "background", "#1d3557"),
                "fields", List.of(Map.of("name", "name", "required", true)),
                "segments", List.of(Map.of("id", "hello", "duration", 3, "background", Map.of("color", "#1d3557"),
                        "layers", List.of(Map.of("id", "t", "type", "text", "text", "Hello {{name}}", "size", 24,
                                "color", "#ffffff", "x", "center", "y", "center")))),
                "cta", Map.of("label", "Hi {{name}}, see your offer", "url", landing + "?n={{name}}")))
                .post("/templates").then().statusCode(201);
        String id = vendor.json(Map.of("client-request-id", "share-" + UUID.randomUUID(), "customer-id", "c-1",
                "user-id", "u-1", "use-case-id", useCase, "data", Map.of("personalization_fields",
                        Map.of("name", HOSTILE))))
                .post("/media/demo").then().statusCode(200).extract()
                .path("service-request-id");
        JsonPath status = Stack.finalStatus(vendor, id);
        assertThat(status.getString("status")).as(status.getString("message")).isEqualTo("SUCCESS");
        String shareUrl = status.getString("share-url");
        assertThat(shareUrl).matches(".*/v/[A-Za-z0-9_-]{22,}");
        Patience.await().until(() -> Stack.api().get(shareUrl.substring(
                shareUrl.indexOf("/v/"))).statusCode() == 200);

        serveFrame(foreign, "/framed", shareUrl + "/embed");
        serveFrame(allowed, "/framed", shareUrl + "/embed");
        Path screenshot = Files.createDirectories(Path.of("target", "browser")).resolve("share-page.png");
        JsonNode seen = browse(Map.of("mode", "watch", "shareUrl", shareUrl, "ctaPrefix", landing, "screenshot",
                screenshot.toAbsolutePath().toString()));

        assertThat(seen.path("error").isMissingNode()).as(seen.toString()).isTrue();
        assertThat(seen.path("status").asInt()).isEqualTo(200);
        assertThat(seen.path("title").asText()).isEqualTo("Your spring offer");
        assertThat(seen.path("ctaText").asText()).isEqualTo("Hi " + HOSTILE + ", see your offer");
        assertThat(seen.path("dialogs")).as("no script of the name ran").isEmpty();
        assertThat(seen.path("injectedImages").asInt()).isZero();
        assertThat(seen.path("ended").asBoolean()).isTrue();
        assertThat(seen.path("landed").asText()).startsWith(landing + "?n=%3Cimg");
        assertThat(screenshot).exists();

        JsonPath report = Patience.await().pollInterval(Duration.ofMillis(500))
                .until(() -> vendor.call().get("/analytics/videos/" + id).jsonPath(),
                        answer -> answer.getInt("totals.cta-clicks") == 1 && answer.getInt("totals.completions") == 1);
        assertThat(report.getInt("totals.views")).as(report.prettify()).isEqualTo(1);
        assertThat(report.getInt("totals.plays")).isEqualTo(1);
        assertThat(report.getMap("funnel")).containsEntry("0", 1).containsEntry("25", 1).containsEntry("50", 1)
                .containsEntry("75", 1).containsEntry("100", 1);
        assertThat(report.getInt("totals.cta-clicks")).isEqualTo(1);

        JsonNode framed = browse(Map.of("mode", "embed", "foreignPage", origin(foreign) + "/framed",
                "allowedPage", origin(allowed) + "/framed"));
        assertThat(framed.path("error").isMissingNode()).as(framed.toString()).isTrue();
        assertThat(framed.path("foreignFrameHasVideo").asBoolean()).as("a foreign origin may not frame the player")
                .isFalse();
        assertThat(framed.path("allowedFrameHasVideo").asBoolean()).as("an allowed origin may").isTrue();

        // Another vendor sees nothing of it; the owner revokes the link and it answers like an unknown one.
        other.call().get("/analytics/videos/" + id).then().statusCode(404);
        other.call().delete("/media/" + id + "/share").then().statusCode(404);
        vendor.call().delete("/media/" + id + "/share").then().statusCode(204);
        String path = shareUrl.substring(shareUrl.indexOf("/v/"));
        Patience.await().until(() -> Stack.api().get(path).statusCode() == 404);
        String unknownBody = Stack.api().get("/v/AAAAAAAAAAAAAAAAAAAAAAAA").then().statusCode(404).extract()
                .jsonPath().getString("message");
        assertThat(Stack.api().get(path).jsonPath().getString("message")).isEqualTo(unknownBody);
        assertThat(Stack.finalStatus(vendor, id).getString("share-url")).isNull();
    }

    @Test
    void aBatchOutputFileLinksEachRowToItsPage() throws Exception {
        String campaign = "share-" + UUID.randomUUID();
        String file = Stack.upload(vendor, "share.csv",
                "user-id,name,offer\nu-1,Ada,10%\nu-2,Grace,20%\nu-3,Lin,30%\n".getBytes(StandardCharsets.UTF_8));
        String task = vendor.json(Map.of("client-id", vendor.id().toString(), "campaign-id", campaign,
                "template-id", Stack.env().get("PMEDIA_DEMO_TEMPLATE_ID"), "file-name", "share.csv", "file-path", file,
                "priority", 1, "row-count", 3, "expected-output-duration", 30)).post("/media/task/create").then()
                .statusCode(200).extract().path("task-id");
        JsonPath done = Stack.finalTask(vendor, task);
        assertThat(done.getString("status")).isEqualTo("COMPLETED");

        HttpResponse<String> output = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(
                vendor.call().get("/media/task/status/" + task).jsonPath().getString("file-url"))).build(),
                HttpResponse.BodyHandlers.ofString());
        List<String> lines = output.body().lines().toList();
        assertThat(lines.get(0)).contains("share-url");
        int column = List.of(lines.get(0).split(",")).indexOf("share-url");
        for (String line : lines.subList(1, lines.size())) {
            String shareUrl = line.split(",")[column];
            String path = shareUrl.substring(shareUrl.indexOf("/v/"));
            Patience.await().until(() -> Stack.api().header("Accept", "text/html").get(path)
                    .statusCode() == 200);
            assertThat(Stack.api().header("Accept", "text/html").get(path).asString()).contains("<video")
                    .contains(path + "/video.mp4");
        }
        String csv = vendor.call().get("/analytics/campaigns/" + campaign + "/videos.csv").then().statusCode(200)
                .extract().asString();
        assertThat(csv.lines().count()).as(csv).isEqualTo(4);
        other.call().get("/analytics/campaigns/" + campaign).then().statusCode(404);
    }

    private static JsonNode browse(Map<String, String> input) throws Exception {
        return Browser.run("share-page.mjs", input, 180);
    }

    private static void serveFrame(HttpServer server, String path, String embedUrl) {
        server.createContext(path, exchange -> {
            byte[] body = ("<!doctype html><title>framing</title><iframe title=\"video\" src=\"" + embedUrl
                    + "\" width=\"320\" height=\"240\"></iframe>").getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "text/html");
            exchange.sendResponseHeaders(200, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
    }

    private static String origin(HttpServer server) {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }
}
