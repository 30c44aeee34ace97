package io.pmedia.storage;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Optional;
import java.util.UUID;

import org.junit.jupiter.api.Test;

import io.pmedia.testing.S3ProxyTestResource;

/** Against a real S3Proxy process: what goes in comes out, also through the URL a vendor is given. */
class ObjectStoreTest {

    private final ObjectStore store = new ObjectStore(config(Optional.empty()));

    @Test
    void storedObjectIsReadableThroughThePresignedUrl() throws Exception {
        String key = "test/" + UUID.randomUUID() + ".txt";
        store.put(key, "hello O'Brien".getBytes(StandardCharsets.UTF_8), "text/plain");

        assertThat(store.size(key)).contains(13L);
        try (InputStream in = store.open(key).orElseThrow()) {
            assertThat(new String(in.readAllBytes(), StandardCharsets.UTF_8)).isEqualTo("hello O'Brien");
        }
        String url = store.publicUrl(key);
        assertThat(url).contains("X-Amz-Signature").contains(key);
        HttpResponse<String> download = HttpClient.newHttpClient().send(
                HttpRequest.newBuilder(URI.create(url)).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(download.statusCode()).isEqualTo(200);
        assertThat(download.body()).isEqualTo("hello O'Brien");

        store.delete(key);
        assertThat(store.size(key)).isEmpty();
        assertThat(store.open(key)).isEmpty();
    }

    @Test
    void cdnBaseUrlReplacesPresigning() {
        ObjectStore cdn = new ObjectStore(config(Optional.of("https://cdn.example/media")));
        assertThat(cdn.publicUrl("a/b.mp4")).isEqualTo("https://cdn.example/media/a/b.mp4");
    }

    private static StorageConfig config(Optional<String> publicBase) {
        String endpoint = S3ProxyTestResource.endpoint();
        return new StorageConfig() {
            public Optional<URI> endpoint() {
                return Optional.of(URI.create(endpoint));
            }

            public String bucket() {
                return "storage-test";
            }

            public String region() {
                return "us-east-1";
            }

            public String accessKey() {
                return "test";
            }

            public String secretKey() {
                return "test-secret";
            }

            public boolean pathStyle() {
                return true;
            }

            public Duration presignTtl() {
                return Duration.ofMinutes(5);
            }

            public Optional<String> publicBaseUrl() {
                return publicBase;
            }

            public boolean createBucket() {
                return true;
            }
        };
    }
}
