package io.pmedia.gateway;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;

import java.net.URI;
import java.net.URL;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManager;
import javax.net.ssl.X509TrustManager;

import org.junit.jupiter.api.Test;

import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;

/** HTTPS through the TLS registry, with a certificate generated for the test as ./pmedia up does. */
@QuarkusTest
@TestProfile(HttpsTest.WithCertificate.class)
class HttpsTest {

    @TestHTTPResource(value = "/.well-known/jwks.json", tls = true)
    URL httpsJwks;

    @Test
    void gatewayAnswersOverHttps() {
        given().relaxedHTTPSValidation().get(httpsJwks.toString())
                .then().statusCode(200).body("keys[0].kty", equalTo("RSA"))
                .header("Strict-Transport-Security", "max-age=31536000")
                .header("X-Content-Type-Options", "nosniff");
    }

    /**
     * HTTP/2 keeps the HTTP/1.1 rules: a header block up to the configured 20 KiB is taken, a larger one is 431 with
     * the error body (not a bodyless 431, a GOAWAY or a reset stream), whatever its size up to the codec's cap.
     */
    @Test
    void http2TakesTheSameHeadersAsHttp11AndRefusesLargerOnesWithTheErrorBody() throws Exception {
        HttpClient http2 = HttpClient.newBuilder().version(HttpClient.Version.HTTP_2).sslContext(trustingEveryone())
                .connectTimeout(Duration.ofSeconds(10)).build();
        for (HttpClient.Version version : List.of(HttpClient.Version.HTTP_2, HttpClient.Version.HTTP_1_1)) {
            HttpClient client = version == HttpClient.Version.HTTP_2
                    ? http2
                    : HttpClient.newBuilder().version(version).sslContext(trustingEveryone()).build();
            HttpResponse<String> small = client.send(request(8_000), HttpResponse.BodyHandlers.ofString());
            assertThat(small.version()).isEqualTo(version);
            assertThat(small.statusCode()).as(version + ", one 8,000-byte header").isEqualTo(200);
            assertThat(small.headers().firstValue("Strict-Transport-Security")).hasValue("max-age=31536000");
            for (int size : List.of(21_000, 30_000, 70_000, 200_000)) {
                HttpResponse<String> large = client.send(request(size), HttpResponse.BodyHandlers.ofString());
                assertThat(large.statusCode()).as(version + ", a " + size + "-byte header").isEqualTo(431);
                assertThat(large.headers().firstValue("Content-Type")).hasValueSatisfying(
                        type -> assertThat(type).startsWith("application/json"));
                assertThat(large.body()).contains("\"error\":true", "\"code\":\"BAD_REQUEST\"",
                        "the limit is 20480");
            }
        }
    }

    @Test
    void http2PostWithoutABodyIsReadAsAnEmptyBody() throws Exception {
        // no content-length, an empty stream: the edge reads it, and Quarkus REST read it again (500, "Request has
        // already been read"); the operator's rotate calls, which take no body, all failed so over HTTP/2
        HttpClient http2 = HttpClient.newBuilder().version(HttpClient.Version.HTTP_2).sslContext(trustingEveryone())
                .connectTimeout(Duration.ofSeconds(10)).build();
        HttpResponse<String> answer = http2.send(HttpRequest.newBuilder(httpsJwks.toURI().resolve("/auth/token"))
                .header("Content-Type", "application/json").timeout(Duration.ofSeconds(30))
                .POST(HttpRequest.BodyPublishers.fromPublisher(HttpRequest.BodyPublishers.noBody())).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(answer.version()).isEqualTo(HttpClient.Version.HTTP_2);
        assertThat(answer.statusCode()).as(answer.body()).isEqualTo(400);
        assertThat(answer.body()).contains("\"code\":\"VALIDATION_ERROR\"", "client_id and client_secret");
        // and one with bytes is read as sent (it was the same 500)
        HttpResponse<String> small = http2.send(HttpRequest.newBuilder(httpsJwks.toURI().resolve("/auth/token"))
                .header("Content-Type", "application/json").timeout(Duration.ofSeconds(30))
                .POST(HttpRequest.BodyPublishers.fromPublisher(HttpRequest.BodyPublishers.ofString(
                        "{\"client_id\": \"nobody\", \"client_secret\": \"x\"}")))
                .build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(small.statusCode()).as(small.body()).isEqualTo(401);
    }

    private HttpRequest request(int headerBytes) {
        return HttpRequest.newBuilder(URI.create(httpsJwks.toString())).header("X-Padding", "p".repeat(headerBytes))
                .timeout(Duration.ofSeconds(30)).GET().build();
    }

    private static SSLContext trustingEveryone() throws Exception {
        X509TrustManager everyone = new X509TrustManager() {
            @Override
            public void checkClientTrusted(X509Certificate[] chain, String authType) {
            }

            @Override
            public void checkServerTrusted(X509Certificate[] chain, String authType) {
            }

            @Override
            public X509Certificate[] getAcceptedIssuers() {
                return new X509Certificate[0];
            }
        };
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(null, new TrustManager[]{everyone}, new SecureRandom());
        return context;
    }

    public static class WithCertificate implements QuarkusTestProfile {

        @Override
        public Map<String, String> getConfigOverrides() {
            try {
                Path dir = Files.createTempDirectory("pmedia-test-tls");
                Process openssl = new ProcessBuilder("openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes",
                        "-days", "1", "-subj", "/CN=localhost", "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1",
                        "-keyout", dir.resolve("key.pem").toString(), "-out", dir.resolve("cert.pem").toString())
                        .redirectErrorStream(true).start();
                if (openssl.waitFor() != 0) {
                    throw new IllegalStateException(new String(openssl.getInputStream().readAllBytes()));
                }
                return Map.of(
                        "quarkus.http.tls-configuration-name", "gateway",
                        "quarkus.tls.gateway.key-store.pem.0.cert", dir.resolve("cert.pem").toString(),
                        "quarkus.tls.gateway.key-store.pem.0.key", dir.resolve("key.pem").toString());
            } catch (Exception e) {
                throw new IllegalStateException("cannot generate a test certificate with openssl", e);
            }
        }
    }
}
