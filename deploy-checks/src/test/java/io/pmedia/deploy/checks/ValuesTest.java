package io.pmedia.deploy.checks;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.FieldSource;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;

/**
 * Each overlay is configured from one file, its {@code values.env}: the replacements (the component
 * deploy/k8s/components/values, and an overlay's own values-replacements.yaml) use every value and only those; no
 * other file of the overlay sets a field a value owns or spells a value; and a copy of deploy/k8s with every value
 * changed renders with each new value in every field its replacement names.
 */
class ValuesTest {

    static final List<String> OVERLAYS = Manifests.OVERLAYS;
    static final Path K8S = Manifests.root().resolve("deploy/k8s");
    static final Path COMPONENT = K8S.resolve("components/values/replacements.yaml");
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

    /**
     * A value for every key of every overlay's values.env, each different from any value there and from each other,
     * of the same shape (a number where a number goes, a URL where a URL goes).
     */
    static final Map<String, String> CHANGED = Map.ofEntries(Map.entry("HOST", "media.vendor-platform.test"),
            Map.entry("ISSUER", "acme-issuer-test"), Map.entry("ISSUER_KIND", "IssuerKindTest"),
            Map.entry("REGISTRY", "registry.test:5443/team/pmedia"), Map.entry("TAG", "9.8.7"),
            Map.entry("BASE_IMAGE", "mirror.test/base/jre:17.0.99"),
            Map.entry("S3_ENDPOINT", "http://objects.store-test.svc:9100"), Map.entry("S3_REGION", "region-test-1"),
            Map.entry("MEDIA_BUCKET", "bucket-media-test"), Map.entry("BACKUP_PATH", "s3://bucket-backups-test/pg"),
            Map.entry("OTEL_DISABLED", "otel-disabled-test"),
            Map.entry("OTLP_ENDPOINT", "http://collector.tracing-test.svc:4319"),
            Map.entry("TRUSTED_PROXIES", "172.31.0.0/16"), Map.entry("KAFKA_STORAGE_CLASS", "class-kafka-test"),
            Map.entry("KAFKA_STORAGE_SIZE", "301Gi"), Map.entry("POSTGRES_STORAGE_CLASS", "class-pg-test"),
            Map.entry("POSTGRES_STORAGE_SIZE", "302Gi"), Map.entry("GATEWAY_MIN_REPLICAS", "41"),
            Map.entry("GATEWAY_MAX_REPLICAS", "42"), Map.entry("ENGAGEMENT_MIN_REPLICAS", "43"),
            Map.entry("ENGAGEMENT_MAX_REPLICAS", "44"), Map.entry("MEDIA_WORKER_MIN_REPLICAS", "45"),
            Map.entry("MEDIA_WORKER_MAX_REPLICAS", "46"), Map.entry("NOTIFIER_MIN_REPLICAS", "47"),
            Map.entry("NOTIFIER_MAX_REPLICAS", "48"), Map.entry("SERVICE_REPLICAS", "49"),
            Map.entry("KAFKA_NODES", "51"), Map.entry("POSTGRES_INSTANCES", "52"), Map.entry("POOLER_INSTANCES", "53"),
            Map.entry("KAFKA_REPLICATION_FACTOR", "54"), Map.entry("KAFKA_MIN_INSYNC_REPLICAS", "55"));

    /** Values too plain to look for as text (numbers, sizes, booleans): their fields are checked instead. */
    static final Pattern PLAIN = Pattern.compile("\\d+|\\d+[GM]i|true|false");

    /**
     * One target of a replacement: the objects it selects and the fields it writes; and the part of the value it
     * writes (the source's delimiter and index: a namespace or a port out of a URL), or all of it.
     */
    record Target(String kind, String name, List<String> fieldPaths, String delimiter, String sourceDelimiter,
            int sourceIndex) {

        /** What this target writes of a value, as kustomize splits it (empty parts kept). */
        String part(String value) {
            if (sourceDelimiter == null) {
                return value;
            }
            String[] parts = value.split(Pattern.quote(sourceDelimiter), -1);
            return sourceIndex < parts.length ? parts[sourceIndex] : "(no part " + sourceIndex + " in " + value + ")";
        }

        boolean selects(JsonNode object) {
            String actual = object.path("metadata").path("name").asText();
            // A generated ConfigMap renders with its content's hash after its name.
            return kind.equals(object.path("kind").asText())
                    && (name == null || name.equals(actual) || actual.matches(Pattern.quote(name) + "-[a-z0-9]{10}"));
        }
    }

    static Map<String, String> values(String text) {
        Map<String, String> values = new LinkedHashMap<>();
        text.lines().map(String::strip).filter(l -> !l.isEmpty() && !l.startsWith("#")).forEach(l -> values.put(
                l.substring(0, l.indexOf('=')), l.substring(l.indexOf('=') + 1)));
        return values;
    }

    /** The replacements an overlay runs, by the key of values.env they read. */
    static Map<String, List<Target>> replacements(Path k8s, String overlay) {
        Map<String, List<Target>> byKey = new LinkedHashMap<>();
        List<Path> files = new ArrayList<>(List.of(k8s.resolve(K8S.relativize(COMPONENT))));
        Path own = k8s.resolve("overlays").resolve(overlay).resolve("values-replacements.yaml");
        if (Files.exists(own)) {
            files.add(own);
        }
        for (Path file : files) {
            try {
                for (JsonNode replacement : YAML.readTree(file.toFile())) {
                    assertThat(replacement.path("source").path("name").asText()).isEqualTo("pmedia-values");
                    String key = replacement.path("source").path("fieldPath").asText().replaceFirst("^data\\.", "");
                    JsonNode sourceOptions = replacement.path("source").path("options");
                    for (JsonNode t : replacement.path("targets")) {
                        List<String> paths = new ArrayList<>();
                        t.path("fieldPaths").forEach(p -> paths.add(p.asText()));
                        JsonNode select = t.path("select");
                        byKey.computeIfAbsent(key, k -> new ArrayList<>()).add(new Target(select.path("kind").asText(),
                                select.hasNonNull("name") ? select.path("name").asText() : null, paths,
                                t.path("options").hasNonNull("delimiter")
                                        ? t.path("options").path("delimiter").asText()
                                        : null,
                                sourceOptions.hasNonNull("delimiter") ? sourceOptions.path("delimiter").asText() : null,
                                sourceOptions.path("index").asInt(0)));
                    }
                }
            } catch (IOException e) {
                throw new AssertionError("cannot read " + file, e);
            }
        }
        return byKey;
    }

    /** The node at a kustomize field path (dots, list indexes as numbers), or a missing node. */
    static JsonNode at(JsonNode object, String fieldPath) {
        JsonNode node = object;
        for (String part : segments(fieldPath)) {
            node = node.isArray() && part.matches("\\d+") ? node.path(Integer.parseInt(part)) : node.path(part);
        }
        return node;
    }

    /**
     * A kustomize field path's keys, split as kustomize splits them: at dots, except inside brackets, where a key
     * that holds dots is written ({@code spec.kafka.config.[min.insync.replicas]}).
     */
    static List<String> segments(String fieldPath) {
        List<String> segments = new ArrayList<>();
        StringBuilder current = new StringBuilder();
        boolean bracket = false;
        for (char c : fieldPath.toCharArray()) {
            if (c == '[' && current.isEmpty()) {
                bracket = true;
            } else if (c == ']' && bracket) {
                bracket = false;
            } else if (c == '.' && !bracket) {
                segments.add(current.toString());
                current.setLength(0);
            } else {
                current.append(c);
            }
        }
        segments.add(current.toString());
        return segments;
    }

    @ParameterizedTest
    @FieldSource("OVERLAYS")
    void everyValueIsReadByAReplacementAndEveryReplacementHasItsValue(String overlay) {
        Map<String, String> values = values(Manifests.read(K8S.resolve("overlays").resolve(overlay)
                .resolve("values.env")));
        assertThat(values).containsKeys("HOST", "ISSUER", "REGISTRY", "TAG", "MEDIA_BUCKET", "OTLP_ENDPOINT",
                "TRUSTED_PROXIES", "KAFKA_STORAGE_CLASS", "POSTGRES_STORAGE_CLASS", "GATEWAY_MAX_REPLICAS",
                "MEDIA_WORKER_MAX_REPLICAS", "NOTIFIER_MAX_REPLICAS", "ENGAGEMENT_MAX_REPLICAS");
        Set<String> read = new TreeSet<>(replacements(K8S, overlay).keySet());
        read.addAll(readByTheImageBuild());
        assertThat(read).isEqualTo(new TreeSet<>(values.keySet()));
    }

    /** The keys ./pmedia images reads from a values file (scripts/lib/images.sh: {@code images_value KEY}). */
    static Set<String> readByTheImageBuild() {
        Set<String> keys = new TreeSet<>();
        Matcher m = Pattern.compile("images_value ([A-Z_]+)").matcher(Manifests.read(Manifests.root()
                .resolve("scripts/lib/images.sh")));
        while (m.find()) {
            keys.add(m.group(1));
        }
        assertThat(keys).contains("REGISTRY", "TAG", "BASE_IMAGE");
        return keys;
    }

    @ParameterizedTest
    @FieldSource("OVERLAYS")
    void noOtherFileOfTheOverlaySetsWhatAValueOwns(String overlay) throws IOException {
        Path dir = K8S.resolve("overlays").resolve(overlay);
        Map<String, String> values = values(Manifests.read(dir.resolve("values.env")));
        Map<String, List<Target>> owned = replacements(K8S, overlay);
        List<String> problems = new ArrayList<>();
        // every file of the overlay, its local components' (prod's wal-archiving) included
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path f : files.filter(Files::isRegularFile).filter(f -> !f.getFileName().toString()
                    .equals("values.env")).sorted().toList()) {
                String text = Files.readString(f);
                values.forEach((k, v) -> {
                    if (!PLAIN.matcher(v).matches() && text.contains(v)) {
                        problems.add(f.getFileName() + " spells " + k + " (" + v + ")");
                    }
                });
                if (f.getFileName().toString().equals("kustomization.yaml")) {
                    problems.addAll(inlinePatchesSettingOwnedFields(YAML.readTree(f.toFile()), owned));
                } else if (f.getFileName().toString().endsWith(".yaml")) {
                    problems.addAll(documentsSettingOwnedFields(f, owned));
                }
            }
        }
        assertThat(problems).as("%s: values set outside values.env", overlay).isEmpty();
    }

    /**
     * The check above bites: a patch that sets an autoscaler's maximum beside values.env is found, and so are the
     * dev overlay's former spellings of Kafka's replication and of the object store's namespace and port.
     */
    @Test
    void aPatchSettingAnOwnedFieldIsFound(@TempDir Path tmp) throws IOException {
        Path patch = tmp.resolve("bounds.yaml");
        Files.writeString(patch, """
                apiVersion: keda.sh/v1alpha1
                kind: ScaledObject
                metadata:
                  name: media-worker
                spec:
                  maxReplicaCount: 30
                """);
        assertThat(documentsSettingOwnedFields(patch, replacements(K8S, "prod")))
                .containsExactly(
                        "bounds.yaml sets ScaledObject media-worker spec.maxReplicaCount (MEDIA_WORKER_MAX_REPLICAS)");
        JsonNode kustomization = YAML.readTree("""
                patches:
                  - target: {kind: HorizontalPodAutoscaler, name: gateway}
                    patch: |-
                      - op: replace
                        path: /spec/minReplicas
                        value: 3
                """);
        assertThat(inlinePatchesSettingOwnedFields(kustomization, replacements(K8S, "prod"))).containsExactly(
                "an inline patch sets HorizontalPodAutoscaler gateway spec.minReplicas (GATEWAY_MIN_REPLICAS)");
        // dev's old way of writing Kafka's replication beside values.env: a key with dots, and every topic at once.
        JsonNode replication = YAML.readTree("""
                patches:
                  - target: {kind: Kafka, name: pmedia}
                    patch: |-
                      - op: replace
                        path: /spec/kafka/config/min.insync.replicas
                        value: 1
                  - target: {kind: KafkaTopic}
                    patch: |-
                      - op: replace
                        path: /spec/replicas
                        value: 1
                """);
        assertThat(inlinePatchesSettingOwnedFields(replication, replacements(K8S, "dev"))).containsExactly(
                "an inline patch sets Kafka pmedia spec.kafka.config.min.insync.replicas (KAFKA_MIN_INSYNC_REPLICAS)",
                "an inline patch sets KafkaTopic null spec.replicas (KAFKA_REPLICATION_FACTOR)");
        Path policy = tmp.resolve("object-store.yaml");
        Files.writeString(policy, """
                apiVersion: networking.k8s.io/v1
                kind: NetworkPolicy
                metadata:
                  name: to-object-store
                spec:
                  egress:
                    - to:
                        - namespaceSelector:
                            matchLabels:
                              kubernetes.io/metadata.name: s3
                      ports:
                        - protocol: TCP
                          port: 9000
                """);
        assertThat(documentsSettingOwnedFields(policy, replacements(K8S, "dev"))).containsExactly(
                "object-store.yaml sets NetworkPolicy to-object-store"
                        + " spec.egress.0.to.0.namespaceSelector.matchLabels.[kubernetes.io/metadata.name] (S3_ENDPOINT)",
                "object-store.yaml sets NetworkPolicy to-object-store spec.egress.0.ports.0.port (S3_ENDPOINT)");
    }

    private static List<String> documentsSettingOwnedFields(Path file, Map<String, List<Target>> owned)
            throws IOException {
        List<String> problems = new ArrayList<>();
        try (var docs = YAML.readerFor(JsonNode.class).<JsonNode>readValues(file.toFile())) {
            for (JsonNode doc : docs.readAll()) {
                if (!(doc instanceof ObjectNode)) {
                    continue;
                }
                owned.forEach((key, targets) -> targets.stream().filter(t -> t.selects(doc))
                        .forEach(t -> t.fieldPaths().stream().filter(p -> !at(doc, p).isMissingNode())
                                .forEach(p -> problems.add(file.getFileName() + " sets " + Manifests.id(doc) + " "
                                        + p + " (" + key + ")"))));
            }
        }
        return problems;
    }

    private static List<String> inlinePatchesSettingOwnedFields(JsonNode kustomization,
            Map<String, List<Target>> owned) throws IOException {
        List<String> problems = new ArrayList<>();
        for (JsonNode patch : kustomization.path("patches")) {
            if (!patch.hasNonNull("patch")) {
                continue;
            }
            String kind = patch.path("target").path("kind").asText();
            String name = patch.path("target").path("name").asText(null);
            for (JsonNode op : YAML.readTree(patch.path("patch").asText())) {
                List<String> pointer = new ArrayList<>();
                for (String part : op.path("path").asText().substring(1).split("/", -1)) {
                    pointer.add(part.replace("~1", "/").replace("~0", "~"));
                }
                String fieldPath = String.join(".", pointer);
                owned.forEach((key, targets) -> targets.stream()
                        .filter(t -> t.kind().equals(kind) && (t.name() == null || name == null
                                || t.name().equals(name)))
                        .filter(t -> t.fieldPaths().stream().anyMatch(p -> segments(p).equals(pointer)))
                        .forEach(t -> problems.add("an inline patch sets " + kind + " " + name + " " + fieldPath
                                + " (" + key + ")")));
            }
        }
        return problems;
    }

    @ParameterizedTest
    @FieldSource("OVERLAYS")
    void changingValuesEnvAloneReconfiguresTheOverlay(String overlay, @TempDir Path tmp) throws Exception {
        Path copy = tmp.resolve("k8s");
        copyTree(K8S, copy);
        Path env = copy.resolve("overlays").resolve(overlay).resolve("values.env");
        Map<String, String> original = values(Files.readString(env));
        assertThat(CHANGED).as("every value of values.env is changed here").containsKeys(
                original.keySet().toArray(String[]::new));
        assertThat(new LinkedHashSet<>(CHANGED.values())).as("the changed values are distinct")
                .hasSize(CHANGED.size()).doesNotContainAnyElementsOf(original.values());
        StringBuilder text = new StringBuilder();
        original.keySet().forEach(k -> text.append(k).append('=').append(CHANGED.get(k)).append('\n'));
        Files.writeString(env, text);

        List<ObjectNode> rendered = parse(render(copy.resolve("overlays").resolve(overlay)));
        List<String> problems = new ArrayList<>();
        replacements(copy, overlay).forEach((key, targets) -> {
            for (Target t : targets) {
                String value = t.part(CHANGED.get(key));
                List<ObjectNode> selected = rendered.stream().filter(t::selects).toList();
                if (selected.isEmpty()) {
                    problems.add(key + ": no " + t.kind() + " " + t.name() + " to write to");
                }
                for (ObjectNode o : selected) {
                    for (String p : t.fieldPaths()) {
                        String actual = at(o, p).asText();
                        boolean lands = t.delimiter() == null ? actual.equals(value) : actual.contains(value);
                        if (!lands) {
                            problems.add(key + ": " + Manifests.id(o) + " " + p + " is " + actual);
                        }
                    }
                }
            }
        });
        assertThat(problems).as("%s: values that did not land", overlay).isEmpty();
        Set<String> names = new LinkedHashSet<>();
        rendered.forEach(o -> names.add(Manifests.id(o)));
        assertThat(names).as("the values' ConfigMap is local-config")
                .noneMatch(n -> n.startsWith("ConfigMap pmedia-values"));
        // A value that is a number still renders as a number (kustomize keeps the target's type).
        assertThat(rendered.stream().filter(o -> Manifests.id(o).equals("HorizontalPodAutoscaler gateway"))
                .findFirst().orElseThrow().path("spec").path("maxReplicas").isInt()).isTrue();
    }

    private static List<ObjectNode> parse(String yaml) throws IOException {
        List<ObjectNode> objects = new ArrayList<>();
        try (var docs = YAML.readerFor(JsonNode.class).<JsonNode>readValues(yaml)) {
            for (JsonNode doc : docs.readAll()) {
                if (doc instanceof ObjectNode o) {
                    objects.add(o);
                }
            }
        }
        return objects;
    }

    static String render(Path dir) throws Exception {
        Process kubectl = new ProcessBuilder("kubectl", "kustomize", dir.toString()).redirectErrorStream(true).start();
        String out = new String(kubectl.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(kubectl.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(kubectl.exitValue()).as(out).isZero();
        return out;
    }

    static void copyTree(Path from, Path to) throws IOException {
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
