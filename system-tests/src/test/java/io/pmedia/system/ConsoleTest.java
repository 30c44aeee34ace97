package io.pmedia.system;

import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;

import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;

import javax.imageio.ImageIO;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import com.fasterxml.jackson.databind.JsonNode;
import com.sun.net.httpserver.HttpServer;

import io.restassured.http.ContentType;

/**
 * Issue 22's console through the gateway, in a real browser (system-tests/browser/console.mjs): a vendor signs in,
 * builds a template whose preview follows the text, renders it and plays the video to its end, runs a 3-row batch to
 * 100 % and downloads its output, replays a failed webhook delivery and sees its second attempt; the operator onboards
 * and revokes a vendor. Every page has no serious or critical axe-core violation and no CSP violation; a screenshot
 * of each is kept under system-tests/target/browser/.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ConsoleTest {

    private HttpServer hook;
    private final AtomicInteger hookCalls = new AtomicInteger();
    private Stack.Vendor vendor;

    @BeforeAll
    void start() throws IOException {
        // The webhook endpoint the vendor sets in the console: it fails its first call and accepts the next ones.
        hook = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        hook.createContext("/hook", exchange -> {
            exchange.getRequestBody().readAllBytes();
            exchange.sendResponseHeaders(hookCalls.incrementAndGet() == 1 ? 500 : 204, -1);
            exchange.close();
        });
        hook.start();
        vendor = Stack.onboard("console");
    }

    @AfterAll
    void stop() {
        hook.stop(0);
        Stack.delete(vendor);
    }

    /** A plain image of one colour, as base64 PNG. */
    private static String png(int width, int height, int rgb) throws IOException {
        BufferedImage image = new BufferedImage(width, height, BufferedImage.TYPE_INT_RGB);
        java.awt.Graphics2D graphics = image.createGraphics();
        graphics.setColor(new java.awt.Color(rgb));
        graphics.fillRect(0, 0, width, height);
        graphics.dispose();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ImageIO.write(image, "png", out);
        return Base64.getEncoder().encodeToString(out.toByteArray());
    }

    @Test
    void aVendorAndTheOperatorDoTheirWorkInTheConsole() throws Exception {
        Path artifacts = Files.createDirectories(Path.of("target", "browser")).toAbsolutePath();
        String useCase = "console-" + UUID.randomUUID().toString().substring(0, 8);
        String campaign = "console-campaign-" + UUID.randomUUID().toString().substring(0, 8);
        JsonNode seen = browse(Map.ofEntries(Map.entry("base", Stack.gateway()),
                Map.entry("clientId", vendor.id().toString()), Map.entry("secret", vendor.secret()),
                Map.entry("adminToken", Stack.adminToken()), Map.entry("useCase", useCase),
                Map.entry("campaign", campaign), Map.entry("csv", "user-id,name\nu-1,Ada\nu-2,Grace\nu-3,Lin\n"),
                Map.entry("artifacts", artifacts.toString()),
                Map.entry("hook", "http://127.0.0.1:" + hook.getAddress().getPort() + "/hook"),
                Map.entry("modelPng", png(400, 800, 0x1e3cc8)), Map.entry("garmentPng", png(200, 160, 0xdc1414))));

        assertThat(seen.path("error").isMissingNode()).as(seen.toString()).isTrue();
        assertThat(seen.path("status").asInt()).isEqualTo(200);
        assertThat(seen.path("csp").asText()).startsWith("default-src 'self'").contains("script-src 'self'")
                .doesNotContain("unsafe-inline").contains("frame-ancestors 'none'");
        assertThat(seen.path("cspViolations")).as("nothing the page does is refused by its CSP").isEmpty();
        assertThat(seen.path("pageErrors")).as(seen.path("console").toString()).isEmpty();
        assertThat(seen.path("wrongSecretMessage").asText()).contains("401");

        // The template: the editor shows where its JSON is broken; the preview follows the text.
        assertThat(seen.path("jsonProblem").asText()).contains("line 1");
        assertThat(seen.path("preview").path("before").asText()).contains("Ada");
        assertThat(seen.path("preview").path("after").asText()).contains("Grace Hopper");
        assertThat(seen.path("preview").path("changed").asBoolean()).as("another still for other text").isTrue();
        String templateId = seen.path("templateId").asText();
        assertThat(vendor.call().get("/templates/" + templateId).then().statusCode(200).extract().jsonPath()
                .getString("use-case-id")).isEqualTo(useCase);

        // The test render played to its end, and it is the request the API knows.
        assertThat(seen.path("renderStatus").asText()).as(seen.path("renderMessage").asText()).isEqualTo("SUCCESS");
        assertThat(seen.path("videoEnded").asBoolean()).isTrue();
        assertThat(seen.path("poster").asText()).isNotEmpty();
        assertThat(Stack.finalStatus(vendor, seen.path("requestId").asText()).getString("status"))
                .isEqualTo("SUCCESS");

        // The batch: 3 rows to 100 %, the output file downloaded with a line per row.
        JsonNode batch = seen.path("batch");
        assertThat(batch.path("status").asText()).as(batch.toString()).isEqualTo("COMPLETED");
        assertThat(batch.path("percent").asText()).isEqualTo("100");
        assertThat(batch.path("progress").get(0).asInt()).isEqualTo(3);
        List<String> output = batch.path("output").asText().lines().toList();
        assertThat(output).hasSize(4);
        assertThat(output.subList(1, 4)).allSatisfy(line -> assertThat(line).contains("SUCCESS"));

        // The campaign scheduled in the console renders on first view: the list shows it, and the API has it.
        assertThat(seen.path("campaignRow").asText()).contains(campaign).contains("on-view");
        vendor.call().get("/campaigns/" + campaign + "/schedule").then().statusCode(200).body("render",
                equalTo("on-view"));

        // The endpoint set in the console; its failed test delivery replayed: two attempts, the endpoint called twice.
        assertThat(vendor.call().get("/webhooks/endpoint").jsonPath().getString("url")).endsWith("/hook");
        assertThat(seen.path("attemptsBefore").asText()).isEqualTo("1");
        assertThat(seen.path("attemptsAfter").asText()).isEqualTo("2");
        assertThat(hookCalls.get()).isEqualTo(2);
        assertThat(vendor.call().get("/webhooks/deliveries?limit=100").jsonPath()
                .getInt("items.find { it.'webhook-id' == '" + seen.path("webhookId").asText() + "' }.attempt-count"))
                .isEqualTo(2);

        // The try-on made from two uploaded files: its inputs are the vendor's own objects, and it rendered.
        assertThat(seen.path("tryOn").path("status").asText()).as(seen.path("tryOn").toString()).isEqualTo("SUCCESS");
        String tryOn = seen.path("tryOn").path("id").asText();
        vendor.call().get("/vton/status/" + tryOn).then().statusCode(200).body("status", equalTo("SUCCESS"));
        // The request's page shows its timeline: accepted, its render job, its end and its share link.
        List<String> timeline = new ArrayList<>();
        seen.path("timeline").forEach(line -> timeline.add(line.asText()));
        assertThat(timeline).as(seen.path("timeline").toString()).anyMatch(line -> line.contains("status PROCESSING"))
                .anyMatch(line -> line.contains("render job")).anyMatch(line -> line.contains("status SUCCESS"))
                .anyMatch(line -> line.contains("share link ACTIVE"));
        assertThat(seen.path("viewsShown").asText()).as("home shows the views from the analytics").matches("[0-9]+");
        // The stream plays in hls.js served by the console itself (when the render was slow enough to show it).
        assertThat(seen.path("hlsSupported").asBoolean()).as("hls.js loads under the console's CSP").isTrue();
        if (seen.hasNonNull("streamPlayer")) {
            assertThat(seen.path("streamPlayer").asText()).isEqualTo("hls.js");
        }
        assertThat(seen.path("narrowOverflow").asInt()).as("nothing wider than 360 px").isLessThanOrEqualTo(0);
        assertThat(seen.path("storageAfterSignOut").asInt()).as("no token kept anywhere").isZero();

        // The operator onboarded a vendor, then revoked it: its secret no longer gets a token.
        String onboarded = seen.path("onboarded").path("clientId").asText();
        assertThat(onboarded).matches("[0-9a-f-]{36}");
        Stack.admin().get("/admin/clients/" + onboarded).then().statusCode(404);
        Stack.api().contentType(ContentType.JSON).body(Map.of("client_id", onboarded, "client_secret",
                seen.path("onboarded").path("secret").asText())).post("/auth/token").then().statusCode(401);

        // Every page: no serious or critical accessibility violation, and its screenshot.
        List<String> pages = new ArrayList<>();
        seen.path("pages").fields().forEachRemaining(page -> {
            pages.add(page.getKey());
            assertThat(page.getValue().path("serious")).as(page.getKey() + ": " + page.getValue()).isEmpty();
            assertThat(artifacts.resolve("console-" + page.getKey() + ".png")).exists();
        });
        assertThat(pages).contains("sign-in", "home", "templates", "template-editor", "test-render", "requests",
                "request", "batch", "webhooks", "webhook-replayed", "try-on", "campaigns", "home-dark-360", "operator",
                "operator-confirm");
    }

    private static JsonNode browse(Map<String, String> input) throws Exception {
        return Browser.run("console.mjs", input, 600);
    }
}
