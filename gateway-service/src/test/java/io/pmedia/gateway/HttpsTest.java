package io.pmedia.gateway;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;

import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

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
                .then().statusCode(200).body("keys[0].kty", equalTo("RSA"));
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
