package io.pmedia.system;

import static io.restassured.RestAssured.given;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;

import io.pmedia.testing.Patience;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import io.restassured.response.Response;
import io.restassured.specification.RequestSpecification;

/**
 * The running local stack as its own `.pmedia/local.env` describes it (contracts.md), and what every system test does
 * with it: onboarding vendors through the operator API, getting tokens, uploading files, waiting for outcomes.
 */
final class Stack {

    private static Map<String, String> env;

    private Stack() {
    }

    static synchronized Map<String, String> env() {
        if (env == null) {
            Path file = Path.of(System.getProperty("pmedia.root", "..")).resolve(".pmedia/local.env");
            Map<String, String> values = new HashMap<>();
            try {
                for (String line : Files.readAllLines(file)) {
                    int equals = line.indexOf('=');
                    if (equals > 0 && !line.startsWith("#")) {
                        values.put(line.substring(0, equals), line.substring(equals + 1));
                    }
                }
            } catch (IOException e) {
                throw new UncheckedIOException("no local stack: " + file + " (run ./pmedia up)", e);
            }
            env = Map.copyOf(values);
        }
        return env;
    }

    static String gateway() {
        return env().get("PMEDIA_GATEWAY_URL");
    }

    /** Whether the stack's broker authenticates clients and enforces the KafkaUsers' ACLs (PMEDIA_KAFKA_ACLS=1). */
    static boolean kafkaAcls() {
        return "1".equals(env().get("PMEDIA_KAFKA_ACLS"));
    }

    /**
     * Client settings for the stack's broker as {@code principal}: a KafkaUser of deploy/k8s (a test that publishes
     * what a service publishes does it as that service's user) or {@code admin}. With ACLs, the principal's
     * configuration from {@code .pmedia/keys/kafka/} (SASL, its password); without, the bootstrap servers alone.
     */
    static Properties kafka(String principal) {
        Properties properties = new Properties();
        if (kafkaAcls()) {
            Path file = Path.of(System.getProperty("pmedia.root", "..")).resolve(".pmedia/keys/kafka")
                    .resolve(principal + ".properties");
            try (var in = Files.newInputStream(file)) {
                properties.load(in);
            } catch (IOException e) {
                throw new UncheckedIOException("no Kafka credentials for " + principal + ": " + file, e);
            }
        }
        properties.put("bootstrap.servers", env().getOrDefault("PMEDIA_KAFKA_BOOTSTRAP", "127.0.0.1:9092"));
        return properties;
    }

    static String adminToken() {
        return env().get("PMEDIA_ADMIN_TOKEN");
    }

    static String s3Endpoint() {
        return env().get("PMEDIA_S3_ENDPOINT");
    }

    static RequestSpecification api() {
        return given().baseUri(gateway()).urlEncodingEnabled(false);
    }

    static RequestSpecification admin() {
        return api().header("Authorization", "Bearer " + adminToken());
    }

    /** A vendor onboarded for one test, with a token. */
    record Vendor(UUID id, String secret, String apiKey, String token) {

        RequestSpecification call() {
            return api().header("Authorization", "Bearer " + token);
        }

        RequestSpecification json(Object body) {
            return call().contentType(ContentType.JSON).body(body);
        }
    }

    static Vendor onboard(String name) {
        return onboard(name, null);
    }

    static Vendor onboard(String name, String webhookUrl) {
        Map<String, Object> body = new HashMap<>();
        body.put("name", name);
        if (webhookUrl != null) {
            body.put("webhook-url", webhookUrl);
        }
        JsonPath created = admin().contentType(ContentType.JSON).body(body).post("/admin/clients").then()
                .statusCode(201).extract().jsonPath();
        UUID id = UUID.fromString(created.getString("client-id"));
        String secret = created.getString("client-secret");
        String token = api().contentType(ContentType.JSON)
                .body(Map.of("client_id", id.toString(), "client_secret", secret)).post("/auth/token").then()
                .statusCode(200).extract().path("access_token");
        return new Vendor(id, secret, created.getString("api-key"), token);
    }

    static void delete(Vendor vendor) {
        admin().delete("/admin/clients/" + vendor.id());
    }

    /** Uploads {@code content} through POST /media/task/uploads; returns its file-path ({@code s3://...}). */
    static String upload(Vendor vendor, String fileName, byte[] content) {
        JsonPath answer = vendor.json(Map.of("file-name", fileName)).post("/media/task/uploads").then()
                .statusCode(200).extract().jsonPath();
        try {
            HttpResponse<String> put = HttpClient.newHttpClient().send(
                    HttpRequest.newBuilder(URI.create(answer.getString("upload-url")))
                            .PUT(HttpRequest.BodyPublishers.ofByteArray(content)).build(),
                    HttpResponse.BodyHandlers.ofString());
            if (put.statusCode() != 200) {
                throw new IllegalStateException("upload of " + fileName + " answered " + put.statusCode());
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
        return answer.getString("file-path");
    }

    /** The store's own URL of an object named {@code s3://<bucket>/<key>}. */
    static String storeUrl(String s3Path) {
        return s3Endpoint() + "/" + s3Path.substring("s3://".length());
    }

    /** A realtime request of the demo template; returns its service-request-id. */
    static String render(Vendor vendor, Map<String, Object> data) {
        Map<String, Object> body = Map.of("client-request-id", "sys-" + UUID.randomUUID(), "customer-id", "c-1",
                "user-id", "u-1", "use-case-id", env().get("PMEDIA_DEMO_USE_CASE_ID"), "data", data);
        return vendor.json(body).post("/media/demo").then().statusCode(200).extract().path("service-request-id");
    }

    /** The realtime status once it is final. */
    static JsonPath finalStatus(Vendor vendor, String id) {
        JsonPath[] last = new JsonPath[1];
        Patience.await().pollInterval(Duration.ofMillis(500)).until(() -> {
            Response status = vendor.call().get("/status/" + id);
            last[0] = status.jsonPath();
            return status.statusCode() == 200 && !"PROCESSING".equals(last[0].getString("status"));
        });
        return last[0];
    }

    /** The try-on status once it is final. */
    static JsonPath finalTryOn(Vendor vendor, String id) {
        JsonPath[] last = new JsonPath[1];
        Patience.await().pollInterval(Duration.ofMillis(500)).until(() -> {
            Response status = vendor.call().get("/vton/status/" + id);
            last[0] = status.jsonPath();
            return status.statusCode() == 200 && !"PROCESSING".equals(last[0].getString("status"));
        });
        return last[0];
    }

    /** The batch task status once it has ended. */
    static JsonPath finalTask(Vendor vendor, String id) {
        JsonPath[] last = new JsonPath[1];
        Patience.await().pollInterval(Duration.ofMillis(500)).until(() -> {
            Response status = vendor.call().get("/media/task/status/" + id);
            last[0] = status.jsonPath();
            return status.statusCode() == 200
                    && List.of("COMPLETED", "FAILED").contains(last[0].getString("status"));
        });
        return last[0];
    }

    /** A small PNG (ffmpeg is on every machine the stack runs on). */
    static byte[] png(String color, int width, int height) {
        try {
            Path file = Files.createTempFile("pmedia-system", ".png");
            Process ffmpeg = new ProcessBuilder("ffmpeg", "-v", "error", "-y", "-f", "lavfi", "-i",
                    "color=c=" + color + ":s=" + width + "x" + height, "-frames:v", "1", file.toString())
                    .redirectErrorStream(true).start();
            if (ffmpeg.waitFor() != 0) {
                throw new IllegalStateException("ffmpeg: " + new String(ffmpeg.getInputStream().readAllBytes()));
            }
            byte[] bytes = Files.readAllBytes(file);
            Files.delete(file);
            return bytes;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
