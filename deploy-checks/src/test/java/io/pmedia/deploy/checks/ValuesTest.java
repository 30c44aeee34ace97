package io.pmedia.deploy.checks;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * prod is configured from one file, deploy/k8s/overlays/prod/values.env: every value there appears in no other file
 * of the overlay, and a copy of deploy/k8s with every value changed renders with the new values in their places and
 * none of the old ones left.
 */
class ValuesTest {

    static final Path PROD = Manifests.root().resolve("deploy/k8s/overlays/prod");

    static Map<String, String> values(String text) {
        Map<String, String> values = new LinkedHashMap<>();
        text.lines().map(String::strip).filter(l -> !l.isEmpty() && !l.startsWith("#")).forEach(l -> values.put(
                l.substring(0, l.indexOf('=')), l.substring(l.indexOf('=') + 1)));
        return values;
    }

    @Test
    void noValueOfValuesEnvIsRepeatedElsewhereInTheOverlay() throws IOException {
        Map<String, String> values = values(Manifests.read(PROD.resolve("values.env")));
        assertThat(values).containsKeys("HOST", "REGISTRY", "TAG", "MEDIA_BUCKET", "BACKUP_PATH", "ISSUER");
        try (Stream<Path> files = Files.list(PROD)) {
            files.filter(f -> !f.getFileName().toString().equals("values.env")).forEach(f -> {
                String text = Manifests.read(f);
                values.forEach((k, v) -> assertThat(text).as("%s repeats %s", f.getFileName(), k).doesNotContain(v));
            });
        }
    }

    @Test
    void changingValuesEnvAloneReconfiguresProd(@TempDir Path tmp) throws Exception {
        Path copy = tmp.resolve("k8s");
        copyTree(Manifests.root().resolve("deploy/k8s"), copy);
        Map<String, String> changed = Map.ofEntries(Map.entry("HOST", "media.vendor-platform.test"),
                Map.entry("ISSUER", "acme-issuer-test"), Map.entry("REGISTRY", "registry.test:5443/team/pmedia"),
                Map.entry("TAG", "9.8.7"), Map.entry("S3_ENDPOINT", "https://objects.test"),
                Map.entry("S3_REGION", "region-test-1"), Map.entry("MEDIA_BUCKET", "bucket-media-test"),
                Map.entry("BACKUP_PATH", "s3://bucket-backups-test/pg"),
                Map.entry("OTLP_ENDPOINT", "http://collector.tracing-test:4317"),
                Map.entry("TRUSTED_PROXIES", "172.31.0.0/16"));
        Path env = copy.resolve("overlays/prod/values.env");
        Map<String, String> original = values(Files.readString(env));
        assertThat(changed.keySet()).as("every value of values.env is changed here").isEqualTo(original.keySet());
        StringBuilder text = new StringBuilder();
        changed.forEach((k, v) -> text.append(k).append('=').append(v).append('\n'));
        Files.writeString(env, text);

        String rendered = render(copy.resolve("overlays/prod"));
        assertThat(rendered).contains("host: media.vendor-platform.test", "- media.vendor-platform.test",
                "PMEDIA_JWT_ISSUER: https://media.vendor-platform.test/gateway",
                "PMEDIA_SHARE_BASE_URL: https://media.vendor-platform.test", "name: acme-issuer-test",
                "image: registry.test:5443/team/pmedia/gateway-service:9.8.7",
                "image: registry.test:5443/team/pmedia/engagement-service:9.8.7",
                "PMEDIA_S3_ENDPOINT: https://objects.test", "PMEDIA_S3_REGION: region-test-1",
                "PMEDIA_S3_BUCKET: bucket-media-test", "destinationPath: s3://bucket-backups-test/pg",
                "PMEDIA_OTLP_ENDPOINT: http://collector.tracing-test:4317", "PMEDIA_TRUSTED_PROXIES: 172.31.0.0/16");
        // The old values are gone (the tag after its colon; the proxies' range where they were set, as the same
        // private range stays in the NetworkPolicies' exceptions).
        original.forEach((k, v) -> assertThat(rendered).as("the old %s is gone", k).doesNotContain(switch (k) {
            case "TAG" -> ":" + v;
            case "TRUSTED_PROXIES" -> "PMEDIA_TRUSTED_PROXIES: " + v;
            default -> v;
        }));
        assertThat(rendered).doesNotContain("pmedia-values");
    }

    private static String render(Path dir) throws Exception {
        Process kubectl = new ProcessBuilder("kubectl", "kustomize", dir.toString()).redirectErrorStream(true).start();
        String out = new String(kubectl.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(kubectl.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(kubectl.exitValue()).as(out).isZero();
        return out;
    }

    private static void copyTree(Path from, Path to) throws IOException {
        try (Stream<Path> files = Files.walk(from)) {
            for (Path f : (Iterable<Path>) files::iterator) {
                Path target = to.resolve(from.relativize(f).toString());
                if (Files.isDirectory(f)) {
                    Files.createDirectories(target);
                } else {
                    Files.copy(f, target);
                }
            }
        }
    }
}
