package io.pmedia.testing;

import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.io.InputStream;
import java.net.HttpURLConnection;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.Map;
import java.util.Properties;

import org.awaitility.core.ConditionTimeoutException;

import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;

import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.BucketAlreadyOwnedByYouException;

/**
 * A real S3-compatible store for tests: S3Proxy with its filesystem backend, run as its own process on a free port
 * with a temporary directory, and a bucket {@value #BUCKET}. Like the local stack's store (and AWS S3) it checks
 * signatures: only requests signed with {@value #ACCESS_KEY} / {@value #SECRET_KEY}, or presigned with them, are
 * served; anonymous ones are refused. The runnable jar comes from the local Maven repository (platform-testing's
 * build fetches it). One process per test JVM, stopped when the JVM exits.
 */
public class S3ProxyTestResource implements QuarkusTestResourceLifecycleManager {

    public static final String BUCKET = "pmedia-test";
    public static final String ACCESS_KEY = "test";
    public static final String SECRET_KEY = "test-secret";
    public static final String REGION = "us-east-1";

    private static String endpoint;

    @Override
    public Map<String, String> start() {
        return Map.of(
                "pmedia.storage.endpoint", endpoint(),
                "pmedia.storage.bucket", BUCKET,
                "pmedia.storage.access-key", ACCESS_KEY,
                "pmedia.storage.secret-key", SECRET_KEY,
                "pmedia.storage.region", REGION);
    }

    @Override
    public void stop() {
        // Shared by every test class of the JVM; the shutdown hook stops the process.
    }

    public static synchronized String endpoint() {
        if (endpoint == null) {
            try {
                endpoint = launch();
            } catch (Exception e) {
                throw new IllegalStateException("cannot start S3Proxy for tests: " + e.getMessage(), e);
            }
        }
        return endpoint;
    }

    /** A client signing with the test credentials (path-style, as S3Proxy needs). The caller closes it. */
    public static S3Client client() {
        return S3Client.builder()
                .endpointOverride(URI.create(endpoint()))
                .region(Region.of(REGION))
                .credentialsProvider(
                        StaticCredentialsProvider.create(AwsBasicCredentials.create(ACCESS_KEY, SECRET_KEY)))
                .forcePathStyle(true)
                .httpClientBuilder(UrlConnectionHttpClient.builder())
                .build();
    }

    private static String launch() throws Exception {
        int port;
        try (ServerSocket socket = new ServerSocket(0)) {
            port = socket.getLocalPort();
        }
        Path dir = Files.createTempDirectory("pmedia-s3proxy");
        Path data = Files.createDirectories(dir.resolve("data"));
        String url = "http://127.0.0.1:" + port;
        Path conf = dir.resolve("s3proxy.conf");
        // The same settings as the local stack's deploy/local/s3proxy.conf, with the test credentials.
        Files.writeString(conf, String.join("\n",
                "s3proxy.endpoint=" + url,
                "s3proxy.authorization=aws-v2-or-v4",
                "s3proxy.identity=" + ACCESS_KEY,
                "s3proxy.credential=" + SECRET_KEY,
                "s3proxy.ignore-unknown-headers=true",
                "jclouds.provider=filesystem",
                "jclouds.filesystem.basedir=" + data,
                ""));
        String java = ProcessHandle.current().info().command().orElse("java");
        Process process = new ProcessBuilder(java, "-Xmx256m", "-jar", jar().toString(), "--properties",
                conf.toString())
                .redirectErrorStream(true)
                .redirectOutput(dir.resolve("s3proxy.log").toFile())
                .start();
        Runtime.getRuntime().addShutdownHook(new Thread(process::destroy, "s3proxy-test-shutdown"));
        try {
            await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(100)).until(() -> {
                if (!process.isAlive()) {
                    throw new IllegalStateException(
                            "S3Proxy exited: " + Files.readString(dir.resolve("s3proxy.log")));
                }
                return answers(url);
            });
        } catch (ConditionTimeoutException e) {
            process.destroyForcibly();
            throw new IllegalStateException("S3Proxy did not start within 60 s", e);
        }
        endpoint = url;
        try (S3Client s3 = client()) {
            s3.createBucket(request -> request.bucket(BUCKET));
        } catch (BucketAlreadyOwnedByYouException alreadyThere) {
            // not possible on a fresh directory, harmless anyway
        }
        return url;
    }

    /** Whether S3Proxy serves HTTP yet (any answer: an anonymous request is refused with 403). */
    private static boolean answers(String url) {
        try {
            HttpURLConnection connection = (HttpURLConnection) URI.create(url + "/").toURL().openConnection();
            connection.setConnectTimeout(1000);
            connection.setReadTimeout(5000);
            int status = connection.getResponseCode();
            connection.disconnect();
            return status > 0;
        } catch (IOException notYet) {
            return false;
        }
    }

    private static Path jar() throws IOException {
        Properties props = new Properties();
        try (InputStream in = S3ProxyTestResource.class.getResourceAsStream("/pmedia-testing.properties")) {
            props.load(in);
        }
        String version = props.getProperty("s3proxy.version");
        String repo = System.getProperty("maven.repo.local",
                Paths.get(System.getProperty("user.home"), ".m2", "repository").toString());
        Path jar = Paths.get(repo, "org", "gaul", "s3proxy", version,
                "s3proxy-" + version + "-jar-with-dependencies.jar");
        if (!Files.isRegularFile(jar)) {
            throw new IllegalStateException("S3Proxy jar not found at " + jar
                    + "; build platform-testing first (./mvnw install -pl platform-testing)");
        }
        return jar;
    }
}
