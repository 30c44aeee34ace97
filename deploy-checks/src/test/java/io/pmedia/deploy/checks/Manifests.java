package io.pmedia.deploy.checks;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;

/**
 * The objects an overlay renders to, exactly as {@code kubectl kustomize deploy/k8s/overlays/<name>} prints them (the
 * command a platform team applies), rendered once per test JVM.
 */
final class Manifests {

    static final List<String> OVERLAYS = List.of("dev", "prod");
    static final String NAMESPACE = "pmedia";

    private static final Map<String, Manifests> RENDERED = new ConcurrentHashMap<>();
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

    final String overlay;
    final List<ObjectNode> objects;

    private Manifests(String overlay, List<ObjectNode> objects) {
        this.overlay = overlay;
        this.objects = objects;
    }

    /**
     * A deep copy of these objects with {@code change} applied to it, for the tests that break one fact and show a
     * check fails on it.
     */
    Manifests changed(java.util.function.Consumer<List<ObjectNode>> change) {
        List<ObjectNode> copy = new ArrayList<>();
        objects.forEach(o -> copy.add(o.deepCopy()));
        change.accept(copy);
        return new Manifests(overlay + " (changed)", List.copyOf(copy));
    }

    static Path root() {
        return Path.of(System.getProperty("pmedia.root", "..")).toAbsolutePath().normalize();
    }

    static Manifests of(String overlay) {
        return RENDERED.computeIfAbsent(overlay, Manifests::render);
    }

    List<ObjectNode> ofKind(String kind) {
        return objects.stream().filter(o -> kind.equals(o.path("kind").asText())).toList();
    }

    Optional<ObjectNode> find(String kind, String name) {
        return ofKind(kind).stream().filter(o -> name.equals(name(o))).findFirst();
    }

    ObjectNode get(String kind, String name) {
        return find(kind, name).orElseThrow(() -> new AssertionError(overlay + ": no " + kind + " " + name));
    }

    static String name(JsonNode object) {
        return object.path("metadata").path("name").asText();
    }

    static String id(JsonNode object) {
        return object.path("kind").asText() + " " + name(object);
    }

    private static Manifests render(String overlay) {
        Path dir = root().resolve("deploy/k8s/overlays").resolve(overlay);
        try {
            Process kubectl = new ProcessBuilder("kubectl", "kustomize", dir.toString()).redirectErrorStream(false)
                    .start();
            byte[] out;
            try (InputStream stdout = kubectl.getInputStream()) {
                out = stdout.readAllBytes();
            }
            String err = new String(kubectl.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!kubectl.waitFor(60, TimeUnit.SECONDS) || kubectl.exitValue() != 0) {
                throw new AssertionError("kubectl kustomize " + dir + " failed: " + err);
            }
            return parse(overlay, out);
        } catch (IOException e) {
            throw new AssertionError("cannot run kubectl kustomize (kubectl 1.32 with kustomize is expected on PATH)",
                    e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }

    /** The objects of a rendered multi-document YAML, under {@code name}. */
    static Manifests parse(String name, String yaml) {
        return parse(name, yaml.getBytes(StandardCharsets.UTF_8));
    }

    private static Manifests parse(String name, byte[] yaml) {
        List<ObjectNode> objects = new ArrayList<>();
        try (var docs = YAML.readerFor(JsonNode.class).<JsonNode>readValues(yaml)) {
            for (JsonNode doc : docs.readAll()) {
                if (doc instanceof ObjectNode object) {
                    objects.add(object);
                }
            }
        } catch (IOException e) {
            throw new AssertionError(name + " does not parse as YAML", e);
        }
        return new Manifests(name, List.copyOf(objects));
    }

    static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            throw new AssertionError("cannot read " + file, e);
        }
    }
}
