package io.pmedia.deploy.checks;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.FieldSource;

import com.fasterxml.jackson.databind.JsonNode;

import io.fabric8.kubernetes.api.model.networking.v1.Ingress;

/**
 * Images are pinned by version, the Dockerfile builds a non-root image that runs on a read-only root from a pinned
 * base, and the ingress reaches the gateway only, over TLS, with the gateway's own body limit.
 */
class ImageAndIngressTest {

    static final List<String> OVERLAYS = Manifests.OVERLAYS;

    /** A release version tag (1.2.3, 17.6-standard-bookworm, 17.0.16_8-jre-noble) or a digest. */
    static final Pattern PINNED = Pattern.compile(".+(:\\d+(\\.\\d+)+[-_.a-z0-9]*|@sha256:[0-9a-f]{64})$");

    @ParameterizedTest
    @FieldSource("OVERLAYS")
    void everyImageIsPinnedByVersion(String overlay) {
        Manifests m = Manifests.of(overlay);
        List<String> images = new java.util.ArrayList<>();
        m.objects.forEach(o -> collectImages(o, images));
        assertThat(images).as("%s: images", overlay).hasSizeGreaterThanOrEqualTo(8)
                .allSatisfy(i -> assertThat(i).matches(PINNED).doesNotContain(":latest"));
    }

    private static void collectImages(JsonNode node, List<String> images) {
        node.fields().forEachRemaining(e -> {
            if ((e.getKey().equals("image") || e.getKey().equals("imageName")) && e.getValue().isTextual()) {
                images.add(e.getValue().asText());
            }
        });
        node.forEach(child -> {
            if (child.isContainerNode()) {
                collectImages(child, images);
            }
        });
    }

    @Test
    void theDockerfileBuildsANonRootReadOnlyImageFromAPinnedBase() {
        String dockerfile = Manifests.read(Manifests.root().resolve("deploy/docker/Dockerfile"));
        List<String> froms = dockerfile.lines().filter(l -> l.startsWith("FROM ")).toList();
        assertThat(froms).isNotEmpty();
        var base = Pattern.compile("(?m)^ARG JRE_IMAGE=(\\S+)$").matcher(dockerfile);
        assertThat(base.find()).as("the base image is an ARG with a pinned default").isTrue();
        assertThat(base.group(1)).matches(PINNED);

        List<String> users = dockerfile.lines().filter(l -> l.startsWith("USER ")).toList();
        assertThat(users).as("the last USER is numeric and not root").isNotEmpty();
        assertThat(users.get(users.size() - 1)).matches("USER [1-9]\\d*(:[1-9]\\d*)?");
        assertThat(dockerfile).contains("target/quarkus-app/lib/", "target/quarkus-app/quarkus-run.jar")
                .contains("-Djava.io.tmpdir=/tmp").contains("-XX:-UsePerfData")
                .containsPattern("(?m)^ENTRYPOINT \\[\"java\"")
                .contains("ffmpeg").contains("fonts-dejavu-core").contains("espeak-ng");
        assertThat(dockerfile.lines().filter(l -> l.startsWith("COPY "))).allSatisfy(l -> assertThat(l)
                .contains("--chown=185:185"));
    }

    @Test
    void theImageTableNamesEveryServiceOnceAndMediaWithItsRuntime() {
        List<String> table = Manifests.read(Manifests.root().resolve("deploy/docker/images.txt")).lines()
                .filter(line -> !line.isBlank() && !line.startsWith("#")).toList();
        List<String> modules = ServiceConfig.all().values().stream().map(ServiceConfig::module).distinct().toList();
        assertThat(table).extracting(line -> line.split(" ")[0]).containsExactlyInAnyOrderElementsOf(modules);
        assertThat(table).contains("media-service media-runtime", "engagement-service media-runtime")
                .allSatisfy(line -> assertThat(line).matches("[a-z-]+ (jre|media-runtime)"));
        // both builders read it: the script for any OCI builder and ./pmedia images
        assertThat(Manifests.read(Manifests.root().resolve("deploy/docker/build-images.sh")))
                .contains("\"$root/deploy/docker/images.txt\"");
        assertThat(Manifests.read(Manifests.root().resolve("scripts/lib/images.sh")))
                .contains("\"$ROOT/deploy/docker/images.txt\"");
    }

    @Test
    void thePmediaImagesCommandBuildsEveryServiceFromTheValuesBaseAsANonRootUser() {
        String script = Manifests.read(Manifests.root().resolve("scripts/lib/images.sh"));
        assertThat(script).contains("images_value BASE_IMAGE",
                "--build-arg \"JRE_IMAGE=$base\"", "--isolation chroot", "[ \"$user\" = \"185:185\" ]",
                "[java -jar /deployments/quarkus-run.jar]", "cyclonedx-maven-plugin");
        assertThat(Manifests.read(Manifests.root().resolve("pmedia"))).contains("images) cmd_images");
    }

    /**
     * The digests ./pmedia images records (components/image-digests) pin prod's images when the overlay lists the
     * component: each entry names an image prod runs (a registry changed in values.env since the build would not) and
     * every container of that image then runs it by digest.
     */
    @Test
    void theRecordedDigestsPinProdsImages(@org.junit.jupiter.api.io.TempDir java.nio.file.Path tmp) throws Exception {
        java.nio.file.Path copy = tmp.resolve("k8s");
        ValuesTest.copyTree(Manifests.root().resolve("deploy/k8s"), copy);
        java.nio.file.Path kustomization = copy.resolve("overlays/prod/kustomization.yaml");
        java.nio.file.Files.writeString(kustomization, java.nio.file.Files.readString(kustomization).replace(
                "  - ../../components/values\n", "  - ../../components/values\n  - ../../components/image-digests\n"));
        Manifests pinned = Manifests.parse("prod + image-digests", ValuesTest.render(copy.resolve("overlays/prod")));
        List<String> images = new java.util.ArrayList<>();
        pinned.objects.forEach(o -> collectImages(o, images));
        JsonNode component = new com.fasterxml.jackson.databind.ObjectMapper(
                new com.fasterxml.jackson.dataformat.yaml.YAMLFactory()).readTree(
                        copy.resolve(
                                "components/image-digests/kustomization.yaml").toFile());
        assertThat(component.path("images")).isNotEmpty().allSatisfy(entry -> {
            String name = entry.path("name").asText();
            assertThat(images).as("prod runs %s", name).anyMatch(i -> i.startsWith(name + "@"))
                    .filteredOn(i -> i.startsWith(name + ":") || i.startsWith(name + "@"))
                    .allSatisfy(i -> assertThat(i).isEqualTo(name + "@" + entry.path("digest").asText()));
        });
    }

    @ParameterizedTest
    @FieldSource("OVERLAYS")
    void theIngressReachesOnlyTheGatewayOverTlsWithItsBodyLimit(String overlay) {
        Manifests m = Manifests.of(overlay);
        List<Ingress> ingresses = m.ofKind("Ingress").stream().map(o -> TypedModels.bind(o, Ingress.class)).toList();
        assertThat(ingresses).hasSize(1);
        Ingress ingress = ingresses.get(0);
        assertThat(ingress.getSpec().getRules()).allSatisfy(rule -> assertThat(rule.getHttp().getPaths())
                .allSatisfy(path -> {
                    assertThat(path.getBackend().getService().getName()).isEqualTo("gateway");
                    assertThat(path.getBackend().getService().getPort().getName()).isEqualTo("https");
                }));
        assertThat(ingress.getSpec().getTls()).singleElement().satisfies(tls -> {
            assertThat(tls.getHosts()).containsExactlyElementsOf(ingress.getSpec().getRules().stream()
                    .map(r -> r.getHost()).toList());
            assertThat(m.ofKind("Certificate")).as("a cert-manager Certificate writes %s", tls.getSecretName())
                    .anySatisfy(c -> {
                        assertThat(c.path("spec").path("secretName").asText()).isEqualTo(tls.getSecretName());
                        assertThat(c.path("spec").path("dnsNames").toString()).contains(tls.getHosts().get(0));
                    });
        });
        String limit = ingress.getMetadata().getAnnotations().get("nginx.ingress.kubernetes.io/proxy-body-size");
        assertThat(ServiceConfig.bytes(limit)).as("the ingress's body limit is the gateway's")
                .isEqualTo(ServiceConfig.of("gateway").maxBodyBytes());
    }
}
