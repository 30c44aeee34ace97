package io.pmedia.storage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpRequest.BodyPublishers;
import java.net.http.HttpResponse;
import java.net.http.HttpResponse.BodyHandlers;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;

import org.junit.jupiter.api.Test;

import io.pmedia.testing.S3ProxyTestResource;
import io.quarkus.runtime.configuration.DurationConverter;
import io.smallrye.config.SmallRyeConfigBuilder;

import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.http.SdkHttpMethod;
import software.amazon.awssdk.http.SdkHttpRequest;
import software.amazon.awssdk.http.auth.aws.signer.AwsV4FamilyHttpSigner.AuthLocation;
import software.amazon.awssdk.http.auth.aws.signer.AwsV4HttpSigner;
import software.amazon.awssdk.http.auth.spi.signer.HttpSigner;
import software.amazon.awssdk.services.s3.model.S3Exception;

/**
 * The store checks signatures like AWS S3 (contracts.md, "Vendor data in object storage"), against the same S3Proxy
 * every service's tests use: nothing is served anonymously, only what a presigned URL names, with its method, until it
 * expires. Would break if S3Proxy ran with {@code s3proxy.authorization=none} or a version that accepts unsigned
 * {@code x-amz-} headers.
 */
class ObjectStoreAccessTest {

    private static final HttpClient HTTP = HttpClient.newHttpClient();

    private final ObjectStore store = new ObjectStore(config(Map.of()));
    private final String bucketUrl = S3ProxyTestResource.endpoint() + "/" + S3ProxyTestResource.BUCKET;

    @Test
    void anonymousRequestsAreRefused() throws Exception {
        String key = "inputs/" + UUID.randomUUID() + "/secret.csv";
        store.put(key, bytes("user-id,name\nu-1,Ada\n"), "text/csv");
        String object = bucketUrl + "/" + key;

        assertThat(status(HttpRequest.newBuilder(URI.create(object)).GET())).as("GET").isEqualTo(403);
        assertThat(status(HttpRequest.newBuilder(URI.create(object)).method("HEAD", BodyPublishers.noBody())))
                .as("HEAD").isEqualTo(403);
        assertThat(status(HttpRequest.newBuilder(URI.create(object)).PUT(BodyPublishers.ofString("overwritten"))))
                .as("PUT over an object").isEqualTo(403);
        assertThat(status(HttpRequest.newBuilder(URI.create(bucketUrl + "/inputs/" + UUID.randomUUID() + "/new.csv"))
                .PUT(BodyPublishers.ofString("new")))).as("PUT of a new object").isEqualTo(403);
        assertThat(status(HttpRequest.newBuilder(URI.create(object)).DELETE())).as("DELETE").isEqualTo(403);
        assertThat(status(HttpRequest.newBuilder(URI.create(bucketUrl)).GET())).as("LIST").isEqualTo(403);
        assertThat(status(HttpRequest.newBuilder(URI.create(bucketUrl + "?list-type=2&prefix=inputs/")).GET()))
                .as("LIST v2").isEqualTo(403);
        assertThat(status(HttpRequest.newBuilder(URI.create(S3ProxyTestResource.endpoint() + "/")).GET()))
                .as("list buckets").isEqualTo(403);

        assertThat(text(store.open(key).orElseThrow())).isEqualTo("user-id,name\nu-1,Ada\n");
    }

    @Test
    void wrongCredentialsAreRefused() {
        ObjectStore impostor = new ObjectStore(config(Map.of("pmedia.storage.secret-key", "not-the-secret")));
        String key = "media/" + UUID.randomUUID() + "/x.txt";

        assertThatThrownBy(() -> impostor.put(key, bytes("x"), "text/plain"))
                .isInstanceOfSatisfying(S3Exception.class, e -> assertThat(e.statusCode()).isEqualTo(403));
        assertThat(store.size(key)).isEmpty();
    }

    @Test
    void aPresignedGetServesItsObjectOnlyWithItsMethod() throws Exception {
        String key = "media/" + UUID.randomUUID() + "/video.txt";
        store.put(key, bytes("rendered"), "text/plain");
        String url = store.publicUrl(key);

        HttpResponse<String> download = HTTP.send(HttpRequest.newBuilder(URI.create(url)).build(),
                BodyHandlers.ofString());
        assertThat(download.statusCode()).isEqualTo(200);
        assertThat(download.body()).isEqualTo("rendered");

        assertThat(status(HttpRequest.newBuilder(URI.create(url)).PUT(BodyPublishers.ofString("overwritten"))))
                .as("PUT with a GET signature").isEqualTo(403);
        assertThat(status(HttpRequest.newBuilder(URI.create(url)).DELETE())).as("DELETE with a GET signature")
                .isEqualTo(403);
        assertThat(status(HttpRequest.newBuilder(URI.create(url.replace("/video.txt?", "/other.txt?"))).GET()))
                .as("another key with this signature").isEqualTo(403);
        assertThat(text(store.open(key).orElseThrow())).isEqualTo("rendered");
    }

    @Test
    void aPresignedPutUploadsOnlyItsKeyAndNoUnsignedExtras() throws Exception {
        String secret = "inputs/" + UUID.randomUUID() + "/customers.csv";
        store.put(secret, bytes("another vendor's customers"), "text/csv");
        String key = "inputs/" + UUID.randomUUID() + "/upload/customers.csv";
        String url = store.presignPut(key, Duration.ofMinutes(15));

        assertThat(status(HttpRequest.newBuilder(URI.create(url)).PUT(BodyPublishers.ofString("user-id\nu-1\n"))))
                .isEqualTo(200);
        assertThat(text(store.open(key).orElseThrow())).isEqualTo("user-id\nu-1\n");

        assertThat(status(HttpRequest.newBuilder(URI.create(url.replace("/upload/customers.csv?", "/upload/x.csv?")))
                .PUT(BodyPublishers.ofString("x")))).as("another key with this signature").isEqualTo(403);
        // A server-side copy through the upload URL: the header is not part of the signature, so it is refused
        // (S3Proxy 4.1.0 performed the copy).
        assertThat(status(HttpRequest.newBuilder(URI.create(url))
                .header("x-amz-copy-source", "/" + S3ProxyTestResource.BUCKET + "/" + secret)
                .PUT(BodyPublishers.noBody()))).as("PUT with an unsigned x-amz-copy-source").isEqualTo(403);
        assertThat(text(store.open(key).orElseThrow())).isEqualTo("user-id\nu-1\n");
    }

    @Test
    void anExpiredPresignedUrlIsRefused() throws Exception {
        String key = "media/" + UUID.randomUUID() + "/old.txt";
        store.put(key, bytes("old"), "text/plain");
        URI object = URI.create(bucketUrl + "/" + key);

        assertThat(status(HttpRequest.newBuilder(presignedGet(object, Instant.now())).GET()))
                .as("signed now, valid 60 s").isEqualTo(200);
        assertThat(status(HttpRequest.newBuilder(presignedGet(object, Instant.now().minus(Duration.ofMinutes(10))))
                .GET())).as("signed 10 minutes ago, valid 60 s").isEqualTo(403);
    }

    /** A GET presigned for 60 s as if signed at {@code signedAt} (the SDK's presigner always signs "now"). */
    private static URI presignedGet(URI object, Instant signedAt) {
        SdkHttpRequest request = SdkHttpRequest.builder().method(SdkHttpMethod.GET).uri(object).build();
        return AwsV4HttpSigner.create().sign(signing -> signing
                .identity(AwsBasicCredentials.create(S3ProxyTestResource.ACCESS_KEY, S3ProxyTestResource.SECRET_KEY))
                .request(request)
                .putProperty(AwsV4HttpSigner.SERVICE_SIGNING_NAME, "s3")
                .putProperty(AwsV4HttpSigner.REGION_NAME, S3ProxyTestResource.REGION)
                .putProperty(AwsV4HttpSigner.AUTH_LOCATION, AuthLocation.QUERY_STRING)
                .putProperty(AwsV4HttpSigner.EXPIRATION_DURATION, Duration.ofSeconds(60))
                .putProperty(AwsV4HttpSigner.PAYLOAD_SIGNING_ENABLED, false)
                .putProperty(AwsV4HttpSigner.DOUBLE_URL_ENCODE, false)
                .putProperty(AwsV4HttpSigner.NORMALIZE_PATH, false)
                .putProperty(HttpSigner.SIGNING_CLOCK, Clock.fixed(signedAt, ZoneOffset.UTC)))
                .request().getUri();
    }

    private static int status(HttpRequest.Builder request) throws Exception {
        return HTTP.send(request.build(), BodyHandlers.discarding()).statusCode();
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    private static String text(InputStream in) throws Exception {
        try (in) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    /** The configuration a service gets from {@link S3ProxyTestResource}, through the real mapping and defaults. */
    private static StorageConfig config(Map<String, String> overrides) {
        Map<String, String> values = new HashMap<>(new S3ProxyTestResource().start());
        values.putAll(overrides);
        return new SmallRyeConfigBuilder().withMapping(StorageConfig.class).withDefaultValues(values)
                .withConverter(Duration.class, 200, new DurationConverter()).build()
                .getConfigMapping(StorageConfig.class);
    }
}
