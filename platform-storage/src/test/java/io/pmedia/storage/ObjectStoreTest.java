package io.pmedia.storage;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
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
    void aPresignedPutUploadsWithAPlainHttpPut() throws Exception {
        String key = "inputs/" + UUID.randomUUID() + "/upload/customers.csv";
        String url = store.presignPut(key, Duration.ofMinutes(15));

        HttpResponse<String> upload = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(url))
                .PUT(HttpRequest.BodyPublishers.ofString("user-id,name\nu-1,Ada\n")).build(),
                HttpResponse.BodyHandlers.ofString());

        assertThat(upload.statusCode()).isEqualTo(200);
        try (InputStream in = store.open(key).orElseThrow()) {
            assertThat(new String(in.readAllBytes(), StandardCharsets.UTF_8)).isEqualTo("user-id,name\nu-1,Ada\n");
        }
    }

    @Test
    void aVendorNamesItsOwnObjectInEveryAcceptedSpelling() {
        UUID a = UUID.randomUUID();
        String key = "inputs/" + a + "/9f1c/customers file.csv";
        String endpoint = S3ProxyTestResource.endpoint();
        String localhost = endpoint.replace("127.0.0.1", "localhost");

        assertThat(List.of(
                "s3://storage-test/" + key,
                "storage-test/" + key,
                key,
                "/" + key,
                "  " + key + "  ",
                endpoint + "/storage-test/inputs/" + a + "/9f1c/customers%20file.csv",
                localhost + "/storage-test/inputs/" + a + "/9f1c/customers%20file.csv",
                store.publicUrl(key)))
                .allSatisfy(spelling -> assertThat(store.ownedKey(a, spelling)).as(spelling).contains(key));
    }

    @Test
    void anotherVendorsObjectIsNeverOwnedWhateverTheSpelling() {
        UUID a = UUID.randomUUID();
        UUID b = UUID.randomUUID();
        String key = "inputs/" + a + "/9f1c/customers.csv";
        String endpoint = S3ProxyTestResource.endpoint();

        assertThat(List.of(
                "s3://storage-test/" + key,
                "storage-test/" + key,
                key,
                endpoint + "/storage-test/" + key,
                store.publicUrl(key),
                "batch/" + a + "/task/output.csv",
                "inputs/" + b + "/../" + a + "/9f1c/customers.csv",
                endpoint + "/storage-test/inputs/" + b + "/%2e%2e/" + a + "/9f1c/customers.csv",
                "inputs/" + b + "//" + a + "/x.csv"))
                .allSatisfy(spelling -> assertThat(store.ownedKey(b, spelling)).as(spelling).isEmpty());
        assertThat(List.of(
                "s3://other-bucket/" + key,
                "other-bucket/" + key,
                "inputs/" + a.toString().toUpperCase(Locale.ROOT) + "/x.csv",
                "inputs/" + a,
                "inputs/" + a + "/",
                "inputs/" + a + "/x\u0000.csv",
                "https://example.com/storage-test/" + key,
                endpoint.replace(":", ":1") + "/storage-test/" + key,
                ""))
                .allSatisfy(spelling -> assertThat(store.ownedKey(a, spelling)).as(spelling).isEmpty());
    }

    @Test
    void storeUrlsAreRecognisedByAddressNotOnlyByName() {
        String endpoint = S3ProxyTestResource.endpoint();
        assertThat(store.addresses(URI.create(endpoint + "/storage-test/x"))).isTrue();
        assertThat(store.addresses(URI.create(endpoint.replace("127.0.0.1", "localhost") + "/any"))).isTrue();
        assertThat(store.addresses(URI.create("https://example.com/storage-test/x"))).isFalse();
    }

    @Test
    void cdnBaseUrlReplacesPresigning() {
        ObjectStore cdn = new ObjectStore(config(Optional.of("https://cdn.example/media")));
        assertThat(cdn.publicUrl("a/b.mp4")).isEqualTo("https://cdn.example/media/a/b.mp4");

        UUID a = UUID.randomUUID();
        String key = "media/" + a + "/r1/video.mp4";
        assertThat(cdn.ownedKey(a, cdn.publicUrl(key))).contains(key);
        assertThat(cdn.ownedKey(UUID.randomUUID(), cdn.publicUrl(key))).isEmpty();
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
