package io.pmedia.testing;

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

import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;

/**
 * A real S3-compatible store for tests: S3Proxy with its filesystem backend, run as its own process on a free port
 * with a temporary directory, and a bucket {@value #BUCKET}. The runnable jar comes from the local Maven repository
 * (platform-testing's build fetches it). One process per test JVM, stopped when the JVM exits.
 */
public class S3ProxyTestResource implements QuarkusTestResourceLifecycleManager {

    public static final String BUCKET = "pmedia-test";

    private static String endpoint;

    @Override
    public Map<String, String> start() {
        return Map.of(
                "pmedia.storage.endpoint", endpoint(),
                "pmedia.storage.bucket", BUCKET,
                "pmedia.storage.access-key", "test",
                "pmedia.storage.secret-key", "test-secret",
                "pmedia.storage.region", "us-east-1");
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

    private static String launch() throws Exception {
        int port;
        try (ServerSocket socket = new ServerSocket(0)) {
            port = socket.getLocalPort();
        }
        Path dir = Files.createTempDirectory("pmedia-s3proxy");
        Path data = Files.createDirectories(dir.resolve("data"));
        String url = "http://127.0.0.1:" + port;
        Path conf = dir.resolve("s3proxy.conf");
        Files.writeString(conf, String.join("\n",
                "s3proxy.endpoint=" + url,
                "s3proxy.authorization=none",
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
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (true) {
            if (!process.isAlive()) {
                throw new IllegalStateException("S3Proxy exited: " + Files.readString(dir.resolve("s3proxy.log")));
            }
            try {
                if (request("PUT", url + "/" + BUCKET) < 500) {
                    return url;
                }
            } catch (IOException notYet) {
                // not listening yet
            }
            if (System.nanoTime() > deadline) {
                process.destroyForcibly();
                throw new IllegalStateException("S3Proxy did not start within 60 s");
            }
            Thread.sleep(100);
        }
    }

    private static int request(String method, String url) throws IOException {
        HttpURLConnection connection = (HttpURLConnection) URI.create(url).toURL().openConnection();
        connection.setRequestMethod(method);
        connection.setConnectTimeout(1000);
        connection.setReadTimeout(5000);
        int status = connection.getResponseCode();
        connection.disconnect();
        return status;
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
