package io.pmedia.deploy.checks;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;

import io.pmedia.deploy.checks.GitOpsModel.Application;
import io.pmedia.deploy.checks.GitOpsModel.ExternalSecret;

/**
 * The GitOps pieces: deploy/k8s/argocd's Applications conform to their model, install the operators at the chart
 * versions docs/operations.md pins, before (sync wave) the pmedia Application whose objects need their API groups;
 * and the optional external-secrets component, rendered into prod, produces every Secret the manifests read and no
 * operator makes, with every key they read.
 */
class GitOpsTest {

    static final Path ARGOCD = Manifests.root().resolve("deploy/k8s/argocd");
    static final String PROVIDES = "pmedia.io/provides";
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

    static List<ObjectNode> applications() throws IOException {
        List<ObjectNode> apps = new ArrayList<>();
        try (Stream<Path> files = Stream.concat(Stream.of(ARGOCD.resolve("root.yaml")), Files.list(ARGOCD
                .resolve("apps")))) {
            for (Path f : files.sorted().toList()) {
                apps.add((ObjectNode) YAML.readTree(f.toFile()));
            }
        }
        return apps;
    }

    static int wave(JsonNode app) {
        return MigrationJobTest.wave(app);
    }

    /** What is wrong with the Applications for the objects of {@code prod} (empty: nothing). */
    static List<String> problems(List<ObjectNode> apps, Manifests prod) {
        List<String> problems = new ArrayList<>();
        String doc = Manifests.read(Manifests.root().resolve("docs/operations.md"));
        Map<String, Integer> providers = new TreeMap<>();
        Integer pmediaWave = null;
        for (ObjectNode node : apps) {
            List<String> shape = TypedModels.check(node);
            shape.forEach(p -> problems.add(Manifests.id(node) + ": " + p));
            if (!shape.isEmpty()) {
                continue;
            }
            Application app = TypedModels.bind(node, Application.class);
            var source = app.spec().source();
            if (source.chart() != null) {
                // The runbook's install line for the chart names the same chart and version.
                boolean documented = doc.lines().anyMatch(l -> l.contains(source.chart()) && l.contains("--version "
                        + source.targetRevision() + " "));
                if (!documented) {
                    problems.add(Manifests.id(node) + ": " + source.chart() + " " + source.targetRevision()
                            + " is not the version docs/operations.md installs");
                }
            } else if (!Files.isRegularFile(Manifests.root().resolve(source.path()).resolve("kustomization.yaml"))) {
                // A plain directory of manifests (the app of apps).
                if (!Files.isDirectory(Manifests.root().resolve(source.path()))) {
                    problems.add(Manifests.id(node) + ": no directory " + source.path());
                }
            } else {
                // A remote manifest (the Barman Cloud plugin's release) is the one the runbook applies.
                Manifests.read(Manifests.root().resolve(source.path()).resolve("kustomization.yaml")).lines()
                        .map(String::strip).filter(l -> l.startsWith("- https://")).map(l -> l.substring(2))
                        .filter(url -> !doc.contains(url)).forEach(url -> problems.add(Manifests.id(node) + ": "
                                + url + " is not the manifest docs/operations.md applies"));
            }
            if ("deploy/k8s/overlays/prod".equals(source.path())) {
                pmediaWave = wave(node);
            }
            String provides = node.path("metadata").path("annotations").path(PROVIDES).asText("");
            for (String group : provides.split(",")) {
                if (!group.isBlank()) {
                    providers.put(group.strip(), wave(node));
                }
            }
        }
        if (pmediaWave == null) {
            problems.add("no Application syncs deploy/k8s/overlays/prod");
            return problems;
        }
        Set<String> groups = new TreeSet<>();
        prod.objects.forEach(o -> groups.add(o.path("apiVersion").asText().replaceFirst("/?[^/]*$", "")));
        for (String group : groups) {
            boolean kubernetes = group.isEmpty() || !group.contains(".") || group.endsWith(".k8s.io");
            if (kubernetes) {
                continue;
            }
            Integer provider = providers.get(group);
            if (provider == null) {
                problems.add(group + ": no operator Application provides it");
            } else if (provider >= pmediaWave) {
                problems.add(group + ": its operator (wave " + provider + ") is not synced before pmedia (wave "
                        + pmediaWave + ")");
            }
        }
        return problems;
    }

    @Test
    void theOperatorsAreInstalledAtTheRunbooksVersionsBeforeTheObjectsThatNeedThem() throws IOException {
        List<ObjectNode> apps = applications();
        assertThat(apps).hasSizeGreaterThanOrEqualTo(8);
        assertThat(problems(apps, Manifests.of("prod"))).isEmpty();
    }

    @Test
    void theCheckBites() throws IOException {
        Manifests prod = Manifests.of("prod");
        List<ObjectNode> apps = applications();
        assertThat(problems(apps.stream().filter(a -> !Manifests.name(a).equals("strimzi")).toList(), prod))
                .containsExactly("kafka.strimzi.io: no operator Application provides it");
        List<ObjectNode> late = new ArrayList<>();
        apps.forEach(a -> late.add(a.deepCopy()));
        late.stream().filter(a -> Manifests.name(a).equals("keda")).forEach(a -> ((ObjectNode) a.path("metadata")
                .path("annotations")).put(MigrationJobTest.WAVE, "0"));
        late.stream().filter(a -> Manifests.name(a).equals("cert-manager")).forEach(a -> ((ObjectNode) a
                .path("spec").path("source")).put("targetRevision", "v1.18.0"));
        late.stream().filter(a -> Manifests.name(a).equals("otel-collector")).forEach(a -> ((ObjectNode) a.path("spec")
                .path("source")).put("repoUrl", "https://git.example.com/typo.git"));
        assertThat(problems(late, prod)).anyMatch(p -> p.startsWith("keda.sh: its operator (wave 0)"))
                .anyMatch(p -> p.contains("cert-manager v1.18.0 is not the version"))
                .anyMatch(p -> p.startsWith("Application otel-collector: ") && p.contains("repoUrl"));
    }

    /**
     * What an Argo CD rollback needs (issue 38): every generated (hash-suffixed) ConfigMap a Deployment reads survives
     * a prune (an old ReplicaSet still reads its own) without marking the Application OutOfSync; the database is never
     * pruned; and the Application ignores the replicas of exactly the Deployments an autoscaler owns, respecting that
     * on sync (the others' replicas are git's, so selfHeal keeps them).
     */
    static List<String> rollbackProblems(List<ObjectNode> apps, Manifests prod) {
        List<String> problems = new ArrayList<>();
        for (ObjectNode cm : prod.ofKind("ConfigMap")) {
            if (!Manifests.name(cm).matches(".*-[a-z0-9]{10}$")) {
                continue;
            }
            JsonNode a = cm.path("metadata").path("annotations");
            if (!a.path("argocd.argoproj.io/sync-options").asText().contains("Prune=false")
                    || !a.path("argocd.argoproj.io/compare-options").asText().contains("IgnoreExtraneous")) {
                problems.add(Manifests.id(cm) + " would be pruned under an old ReplicaSet");
            }
        }
        for (ObjectNode cluster : prod.ofKind("Cluster")) {
            if (!cluster.path("metadata").path("annotations").path("argocd.argoproj.io/sync-options").asText()
                    .contains("Prune=false")) {
                problems.add(Manifests.id(cluster) + " would be deleted by a sync that renames or drops it");
            }
        }
        Set<String> autoscaled = new TreeSet<>();
        prod.ofKind("HorizontalPodAutoscaler").forEach(h -> autoscaled.add(h.path("spec").path("scaleTargetRef")
                .path("name").asText()));
        prod.ofKind("ScaledObject").forEach(h -> autoscaled.add(h.path("spec").path("scaleTargetRef").path("name")
                .asText()));
        for (ObjectNode node : apps) {
            Application app = TypedModels.bind(node, Application.class);
            if (!"deploy/k8s/overlays/prod".equals(app.spec().source().path())) {
                continue;
            }
            Set<String> ignored = new TreeSet<>();
            if (app.spec().ignoreDifferences() != null) {
                app.spec().ignoreDifferences().stream().filter(i -> "Deployment".equals(i.kind())
                        && i.jsonPointers() != null && i.jsonPointers().contains("/spec/replicas"))
                        .forEach(i -> ignored.add(i.name() == null ? "*" : i.name()));
            }
            if (!ignored.equals(autoscaled)) {
                problems.add(Manifests.id(node) + " ignores the replicas of " + ignored + ", the autoscalers own "
                        + autoscaled);
            }
            if (!app.spec().syncPolicy().syncOptions().contains("RespectIgnoreDifferences=true")) {
                problems.add(Manifests.id(node) + ": a sync resets the autoscalers' replicas");
            }
        }
        return problems;
    }

    @Test
    void aRollbackUnderArgoCdKeepsWhatTheOldReplicaSetsNeed() throws IOException {
        List<ObjectNode> apps = applications();
        Manifests prod = Manifests.of("prod");
        assertThat(rollbackProblems(apps, prod)).isEmpty();
        // Issue 38: generated ConfigMaps pruned; every Deployment's replicas ignored.
        Manifests pruned = prod.changed(objects -> objects.stream().filter(o -> Manifests.name(o).startsWith(
                "pmedia-s3-")).forEach(o -> ((ObjectNode) o.path("metadata")).remove("annotations")));
        assertThat(rollbackProblems(apps, pruned)).singleElement().asString().endsWith(
                "would be pruned under an old ReplicaSet");
        List<ObjectNode> all = new ArrayList<>();
        apps.forEach(a -> all.add(a.deepCopy()));
        all.stream().filter(a -> Manifests.name(a).equals("pmedia")).forEach(a -> {
            var ignore = (com.fasterxml.jackson.databind.node.ArrayNode) a.path("spec").path("ignoreDifferences");
            ignore.removeAll();
            ignore.addObject().put("group", "apps").put("kind", "Deployment").putArray("jsonPointers")
                    .add("/spec/replicas");
        });
        assertThat(rollbackProblems(all, prod)).singleElement().asString().contains("ignores the replicas of [*]");
    }

    /** The prod overlay with the external-secrets component, rendered from a copy of deploy/k8s. */
    static Manifests prodWithExternalSecrets(Path tmp) throws Exception {
        Path copy = tmp.resolve("k8s");
        ValuesTest.copyTree(Manifests.root().resolve("deploy/k8s"), copy);
        Path kustomization = copy.resolve("overlays/prod/kustomization.yaml");
        Files.writeString(kustomization, Files.readString(kustomization).replace("components:\n",
                "components:\n  - ../../components/external-secrets\n"));
        return Manifests.parse("prod + external-secrets",
                ValuesTest.render(copy.resolve("overlays/prod")));
    }

    @Test
    void theExternalSecretsComponentProducesEverySecretTheManifestsRead(@TempDir Path tmp) throws Exception {
        Manifests m = prodWithExternalSecrets(tmp);
        List<String> problems = new ArrayList<>();
        Map<String, Set<String>> produced = new TreeMap<>();
        for (ObjectNode node : m.ofKind("ExternalSecret")) {
            TypedModels.check(node).forEach(p -> problems.add(Manifests.id(node) + ": " + p));
            ExternalSecret es = TypedModels.bind(node, ExternalSecret.class);
            Set<String> keys = new TreeSet<>();
            if (es.spec().target().template() != null && es.spec().target().template().data() != null) {
                keys.addAll(es.spec().target().template().data().keySet());
            } else {
                es.spec().data().forEach(d -> keys.add(d.secretKey()));
            }
            produced.put(es.spec().target().name(), keys);
        }
        Set<String> operators = SecretReferenceTest.madeByOperators(m);
        Map<String, Set<String>> read = keysRead(m);
        read.forEach((secret, keys) -> {
            if (operators.contains(secret) || secret.equals("pmedia-fashn")) {
                return; // made by an operator; the optional FASHN key is created by hand (operations.md)
            }
            if (!produced.containsKey(secret)) {
                problems.add(secret + ": no ExternalSecret produces it");
            } else if (!produced.get(secret).containsAll(keys)) {
                problems.add(secret + ": produces " + produced.get(secret) + ", the manifests read " + keys);
            }
        });
        assertThat(read).containsKeys("pmedia-db-gateway", "pmedia-jwt", "pmedia-s3", "pmedia-db-backup-s3");
        assertThat(problems).isEmpty();
        assertThat(SecretReferenceTest.documentedExternal()).containsAll(produced.keySet());
    }

    /** Secret name -> the keys the objects read of it (secretKeyRef, S3 credentials; a role's basic-auth pair). */
    static Map<String, Set<String>> keysRead(Manifests m) {
        Map<String, Set<String>> keys = new TreeMap<>();
        m.objects.forEach(o -> collect(o, keys));
        return keys;
    }

    private static void collect(JsonNode node, Map<String, Set<String>> keys) {
        if (node.isObject()) {
            node.fields().forEachRemaining(e -> {
                JsonNode v = e.getValue();
                switch (e.getKey()) {
                    case "secretKeyRef", "accessKeyId", "secretAccessKey" -> keys.computeIfAbsent(v.path("name")
                            .asText(), k -> new TreeSet<>()).add(v.path("key").asText());
                    case "passwordSecret" -> keys.computeIfAbsent(v.path("name").asText(), k -> new TreeSet<>())
                            .addAll(List.of("username", "password"));
                    default -> {
                    }
                }
                collect(v, keys);
            });
        } else if (node.isArray()) {
            node.forEach(item -> collect(item, keys));
        }
    }
}
