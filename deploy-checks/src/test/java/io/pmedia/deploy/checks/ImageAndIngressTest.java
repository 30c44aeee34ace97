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
     * The image-digests component pins every image prod runs or none (issue 38: two of seven, with digests never
     * pushed, and five workloads failed to pull): each entry a sha256 digest, no two alike, every image of prod's
     * registry named once; and when it pins, every container of that image runs it by digest.
     */
    static List<String> digestProblems(JsonNode component, Manifests pinned) {
        List<String> problems = new java.util.ArrayList<>();
        JsonNode entries = component.path("images");
        if (entries.isEmpty()) {
            return problems;
        }
        List<String> images = new java.util.ArrayList<>();
        pinned.objects.forEach(o -> {
            if (o.path("kind").asText().matches("Deployment|Job")) {
                collectImages(o, images);
            }
        });
        java.util.Set<String> repositories = new java.util.TreeSet<>();
        images.forEach(i -> repositories.add(i.replaceFirst("[:@].*$", "")));
        java.util.Set<String> named = new java.util.TreeSet<>();
        java.util.Set<String> digests = new java.util.TreeSet<>();
        for (JsonNode entry : entries) {
            String name = entry.path("name").asText();
            String digest = entry.path("digest").asText();
            named.add(name);
            if (!digest.matches("sha256:[0-9a-f]{64}") || digest.matches("sha256:(.)\\1{63}")) {
                problems.add(name + ": " + digest + " is no pushed digest");
            } else if (!digests.add(digest)) {
                problems.add(name + ": " + digest + " pins another image too");
            }
            images.stream().filter(i -> i.startsWith(name + ":") || i.startsWith(name + "@"))
                    .filter(i -> !i.equals(name + "@" + digest)).forEach(i -> problems.add(i + " is not pinned"));
        }
        if (!named.equals(repositories)) {
            problems.add("the component pins " + named + ", prod runs " + repositories + ": every image or none");
        }
        return problems;
    }

    @Test
    void theDigestsComponentPinsEveryImageOrNone(@org.junit.jupiter.api.io.TempDir java.nio.file.Path tmp)
            throws Exception {
        java.nio.file.Path copy = tmp.resolve("k8s");
        ValuesTest.copyTree(Manifests.root().resolve("deploy/k8s"), copy);
        java.nio.file.Path kustomization = copy.resolve("overlays/prod/kustomization.yaml");
        java.nio.file.Files.writeString(kustomization, java.nio.file.Files.readString(kustomization).replace(
                "  - ../../components/values\n", "  - ../../components/values\n  - ../../components/image-digests\n"));
        java.nio.file.Path file = copy.resolve("components/image-digests/kustomization.yaml");
        var yaml = new com.fasterxml.jackson.databind.ObjectMapper(
                new com.fasterxml.jackson.dataformat.yaml.YAMLFactory());
        assertThat(digestProblems(yaml.readTree(file.toFile()), Manifests.parse("prod + image-digests",
                ValuesTest.render(copy.resolve("overlays/prod"))))).as("the committed component").isEmpty();

        // What ./pmedia images push writes from a full set of pushed digests: every image pinned.
        StringBuilder all = new StringBuilder(
                "apiVersion: kustomize.config.k8s.io/v1alpha1\nkind: Component\nimages:\n");
        List<String> modules = ServiceConfig.all().values().stream().map(ServiceConfig::module).distinct().sorted()
                .toList();
        String registry = java.util.regex.Pattern.compile("(?m)^REGISTRY=(.*)$").matcher(Manifests.read(Manifests
                .root().resolve("deploy/k8s/overlays/prod/values.env"))).results().findFirst().orElseThrow().group(1);
        for (int i = 0; i < modules.size(); i++) {
            all.append("  - name: ").append(registry).append('/').append(modules.get(i)).append("\n    digest: sha256:")
                    .append(String.format("%064x", 0xabc00L + i)).append('\n');
        }
        java.nio.file.Files.writeString(file, all.toString());
        assertThat(digestProblems(yaml.readTree(file.toFile()), Manifests.parse("prod pinned", ValuesTest.render(copy
                .resolve("overlays/prod"))))).isEmpty();

        // Issue 38's file: two images of seven.
        String partial = all.toString().lines().limit(7).collect(java.util.stream.Collectors.joining("\n")) + "\n";
        java.nio.file.Files.writeString(file, partial);
        assertThat(digestProblems(yaml.readTree(file.toFile()), Manifests.parse("prod partly pinned", ValuesTest
                .render(copy.resolve("overlays/prod"))))).singleElement().asString().contains("every image or none");
        // A made-up digest.
        java.nio.file.Files.writeString(file, all.toString().replace(String.format("%064x", 0xabc00L),
                "0".repeat(64)));
        assertThat(digestProblems(yaml.readTree(file.toFile()), Manifests.parse("prod pinned to zeros", ValuesTest
                .render(copy.resolve("overlays/prod"))))).singleElement().asString().contains("is no pushed digest");
    }

    /** ./pmedia images push writes the component from a digest per image, or refuses and leaves it alone. */
    @Test
    void thePushStepWritesEveryDigestOrNothing(@org.junit.jupiter.api.io.TempDir java.nio.file.Path tmp)
            throws Exception {
        java.nio.file.Path pushed = java.nio.file.Files.createDirectories(tmp.resolve("pushed"));
        java.nio.file.Path component = tmp.resolve("kustomization.yaml");
        java.nio.file.Files.writeString(component, "untouched\n");
        List<String> modules = Manifests.read(Manifests.root().resolve("deploy/docker/images.txt")).lines()
                .filter(l -> !l.isBlank() && !l.startsWith("#")).map(l -> l.split(" ")[0]).toList();
        java.nio.file.Files.writeString(pushed.resolve(modules.get(0) + ".digest"), "sha256:" + "1".repeat(64));
        String script = "set -e; ROOT='" + Manifests.root() + "'; STATE='" + tmp + "'; LOGS='" + tmp + "';"
                + " info() { :; }; die() { echo \"$*\" >&2; exit 1; };"
                + " . \"$ROOT/scripts/lib/images.sh\"; IMAGES_DIGESTS_COMPONENT='" + component + "';"
                + " images_digest_component registry.example.com/pmedia '" + pushed + "'";
        Process partial = new ProcessBuilder("bash", "-c", script).redirectErrorStream(true).start();
        String out = new String(partial.getInputStream().readAllBytes());
        assertThat(partial.waitFor()).as(out).isNotZero();
        assertThat(out).contains("no pushed digest for " + modules.get(1));
        assertThat(java.nio.file.Files.readString(component)).isEqualTo("untouched\n");
        for (int i = 1; i < modules.size(); i++) {
            java.nio.file.Files.writeString(pushed.resolve(modules.get(i) + ".digest"), "sha256:"
                    + String.format("%064x", 0xdef00L + i) + "\n");
        }
        Process full = new ProcessBuilder("bash", "-c", script).redirectErrorStream(true).start();
        String fullOut = new String(full.getInputStream().readAllBytes());
        assertThat(full.waitFor()).as(fullOut).isZero();
        assertThat(java.nio.file.Files.readString(component)).contains("kind: Component")
                .contains("name: registry.example.com/pmedia/" + modules.get(modules.size() - 1));
        assertThat(java.nio.file.Files.readString(component).lines().filter(l -> l.contains("digest: sha256:")))
                .hasSize(modules.size());
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
