package io.pmedia.deploy.checks;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * docs/operations.md's kubectl commands against the rendered objects of both overlays: every namespaced command names
 * the namespace, every {@code deploy/<name>} and {@code cluster.postgresql.cnpg.io/<name>} exists, every label
 * selector finds pods (a {@code <job>} placeholder for every job of the alerts), no wait depends on a size one overlay
 * does not have, and no command is one Argo CD's selfHeal undoes ({@code rollout undo}, {@code set image}). And the
 * restore runbook's git change (components/restore) renders a Cluster that recovers from the old one's backups into
 * its own path, with everything that named the old one following it.
 */
class RunbookTest {

    static final Pattern KUBECTL = Pattern.compile("kubectl\\s[^`\\n]*(?:\\\\\\n[^`\\n]*)*");

    /** Every kubectl command of the runbook (code blocks and inline code), continuation lines joined. */
    static List<String> commands(String doc) {
        // Code only: fenced blocks and inline spans; prose that names a command ("`kubectl set image`") is no command:
        // a command has a verb, a resource or file, and something it acts on (four words at least).
        StringBuilder code = new StringBuilder();
        Matcher spans = Pattern.compile("```[a-z]*\\n([\\s\\S]*?)```|`([^`]+)`").matcher(doc);
        while (spans.find()) {
            code.append(spans.group(1) != null ? spans.group(1) : spans.group(2)).append('\n');
        }
        List<String> commands = new ArrayList<>();
        Matcher m = KUBECTL.matcher(code.toString().replaceAll("(?m)(^|\\s)#.*$", "").replace("\\\n", " "));
        while (m.find()) {
            String c = m.group().replaceAll("\\s+", " ").replaceFirst("\\s+#.*$", "").replaceFirst("\\s*\\|.*$", "")
                    .strip();
            if (!c.startsWith("kubectl kustomize") && c.split(" ").length >= 4) {
                commands.add(c);
            }
        }
        return commands;
    }

    static List<String> problems(String doc, Manifests m) {
        List<String> problems = new ArrayList<>();
        List<String> deployments = new ArrayList<>(m.ofKind("Deployment").stream().map(Manifests::name).toList());
        m.ofKind("Pooler").forEach(p -> deployments.add(Manifests.name(p))); // CloudNativePG's Deployment of it
        List<String> jobs = new ArrayList<>();
        Matcher alertJobs = Pattern.compile("job=~\\\\\"([a-z|-]+)\\\\\"").matcher(Manifests.read(Manifests.root()
                .resolve("deploy/k8s/base/observability/alerts.yaml")));
        while (alertJobs.find()) {
            jobs.addAll(List.of(alertJobs.group(1).split("\\|")));
        }
        for (String c : commands(doc)) {
            String at = "`" + (c.length() > 90 ? c.substring(0, 90) + "..." : c) + "`: ";
            boolean argo = c.contains("-n argocd");
            // the namespace, a rendered file (its objects name theirs), stdin from a --dry-run pipe, an operator's
            // release manifest (it names its own)
            boolean clusterScoped = c.matches("kubectl (create namespace|apply --server-side.*-f /tmp/|apply -f -$"
                    + "|apply -f https://).*") || c.contains("--dry-run=client");
            if (!argo && !clusterScoped && !c.matches("kubectl (-n|--namespace)[ =]pmedia .*")
                    && !c.matches("kubectl cnpg .* -n pmedia.*")) {
                problems.add(at + "names no namespace (-n pmedia)");
            }
            if (c.matches(".*\\brollout undo\\b.*") || c.matches(".*\\bset image\\b.*")) {
                problems.add(at + "Argo CD's selfHeal undoes it: roll back in git");
            }
            if (c.contains("{.status.instances}")) {
                problems.add(at + "waits for a number of instances one overlay does not have");
            }
            if (c.contains("apply --server-side") && !c.contains("--force-conflicts")) {
                problems.add(at + "conflicts on fields a kubectl scale or annotate took (--force-conflicts)");
            }
            Matcher deploy = Pattern.compile("(?<![\\w/])deploy(?:ment)?/([a-z0-9<>\"$-]+)(?![\\w/])").matcher(c);
            while (deploy.find()) {
                String name = deploy.group(1);
                if (!name.contains("<") && !name.contains("$") && !deployments.contains(name)) {
                    problems.add(at + "no Deployment " + name + " in " + m.overlay);
                }
            }
            Matcher cluster = Pattern.compile("cluster\\.postgresql\\.cnpg\\.io/([a-z0-9-]+)").matcher(c);
            while (cluster.find()) {
                if (m.find("Cluster", cluster.group(1)).isEmpty() && !cluster.group(1).equals("pmedia-db-restore")) {
                    problems.add(at + "no Cluster " + cluster.group(1));
                }
            }
            Matcher selector = Pattern.compile("-l ([a-z0-9./-]+)=([a-z0-9<>-]+)").matcher(c);
            while (selector.find()) {
                String key = selector.group(1);
                List<String> values = selector.group(2).equals("<job>") ? jobs : List.of(selector.group(2));
                for (String value : values) {
                    boolean found = m.objects.stream().filter(o -> o.path("kind").asText().matches("Deployment|Job"))
                            .anyMatch(o -> value.equals(o.path("spec").path("template").path("metadata")
                                    .path("labels").path(key).asText(null)));
                    if (!found) {
                        problems.add(at + "-l " + key + "=" + value + " selects no pod in " + m.overlay);
                    }
                }
            }
        }
        return problems;
    }

    @Test
    void everyRunbookCommandFitsTheRenderedObjects() {
        String doc = Manifests.read(Manifests.root().resolve("docs/operations.md"));
        assertThat(commands(doc)).hasSizeGreaterThan(20);
        for (String overlay : Manifests.OVERLAYS) {
            assertThat(problems(doc, Manifests.of(overlay))).as(overlay).isEmpty();
        }
    }

    /** The commands of issue 38's review, put back: each fails. */
    @Test
    void theCheckBites() {
        Manifests dev = Manifests.of("dev");
        String before = """
                `kubectl create secret generic pmedia-fashn --from-literal=api-key=...`
                `kubectl -n pmedia get pods -l app.kubernetes.io/name=media`
                ```bash
                kubectl -n pmedia wait pooler.postgresql.cnpg.io/pmedia-db-pooler-rw --for=jsonpath='{.status.instances}'=2
                kubectl apply --server-side -f /tmp/pmedia.yaml
                ```
                `kubectl -n pmedia rollout undo deploy/<name>`
                """;
        List<String> found = problems(before, dev);
        assertThat(found).hasSize(5);
        assertThat(found.get(0)).endsWith("names no namespace (-n pmedia)");
        assertThat(found.get(1)).endsWith("-l app.kubernetes.io/name=media selects no pod in dev");
        assertThat(found.get(2)).endsWith("waits for a number of instances one overlay does not have");
        assertThat(found.get(3)).endsWith("(--force-conflicts)");
        assertThat(found.get(4)).endsWith("Argo CD's selfHeal undoes it: roll back in git");
    }

    /** The restore's git change, rendered: what it must be for the next sync to restore and not to wipe. */
    static List<String> restoreProblems(Manifests restored, String origin) {
        List<String> problems = new ArrayList<>();
        List<ObjectNode> clusters = restored.ofKind("Cluster");
        if (clusters.size() != 1) {
            return List.of(clusters.size() + " Clusters");
        }
        ObjectNode cluster = clusters.get(0);
        String name = Manifests.name(cluster);
        JsonNode spec = cluster.path("spec");
        if (name.equals(origin)) {
            problems.add("the restored Cluster keeps the origin's name");
        }
        if (!spec.path("bootstrap").has("recovery") || spec.path("bootstrap").has("initdb")) {
            problems.add(name + " does not bootstrap by recovery");
        }
        String source = spec.path("bootstrap").path("recovery").path("source").asText();
        JsonNode external = null;
        for (JsonNode e : spec.path("externalClusters")) {
            if (e.path("name").asText().equals(source)) {
                external = e;
            }
        }
        if (external == null || !origin.equals(external.path("plugin").path("parameters").path("serverName")
                .asText())) {
            problems.add(name + " does not recover from " + origin + "'s backups");
        }
        JsonNode archiver = spec.path("plugins").path(0).path("parameters");
        if (!name.equals(archiver.path("serverName").asText())) {
            problems.add(name + " archives into " + archiver.path("serverName").asText(origin)
                    + "'s path, the backups it restores from");
        }
        for (String kind : List.of("Pooler", "ScheduledBackup", "Database")) {
            restored.ofKind(kind).stream().filter(o -> !name.equals(o.path("spec").path("cluster").path("name")
                    .asText())).forEach(o -> problems.add(Manifests.id(o) + " still names " + o.path("spec")
                            .path("cluster").path("name").asText()));
        }
        restored.ofKind("ConfigMap").stream().filter(c -> c.path("data").has("PMEDIA_DB_DIRECT_HOST"))
                .filter(c -> !c.path("data").path("PMEDIA_DB_DIRECT_HOST").asText().equals(name + "-rw"))
                .forEach(c -> problems.add(Manifests.id(c) + " sends direct sessions to " + c.path("data")
                        .path("PMEDIA_DB_DIRECT_HOST").asText()));
        Map<String, String> labels = new java.util.HashMap<>();
        spec.path("inheritedMetadata").path("labels").fields().forEachRemaining(l -> labels.put(l.getKey(), l
                .getValue().asText()));
        labels.put("cnpg.io/cluster", name);
        restored.ofKind("PodMonitor").stream().filter(p -> Manifests.name(p).equals(origin)).forEach(p -> {
            p.path("spec").path("selector").path("matchLabels").fields().forEachRemaining(l -> {
                if (!l.getValue().asText().equals(labels.get(l.getKey()))) {
                    problems.add(Manifests.id(p) + " does not scrape " + name);
                }
            });
        });
        return problems;
    }

    @Test
    void theRestoreIsAChangeInGitThatRecoversIntoItsOwnPath(@TempDir Path tmp) throws Exception {
        Path copy = tmp.resolve("k8s");
        ValuesTest.copyTree(Manifests.root().resolve("deploy/k8s"), copy);
        Path kustomization = copy.resolve("overlays/prod/kustomization.yaml");
        String text = Files.readString(kustomization);
        assertThat(text).contains("  - wal-archiving\n");
        Files.writeString(kustomization, text.replace("  - wal-archiving\n",
                "  - wal-archiving\n  - ../../components/restore\n"));
        Manifests restored = Manifests.parse("prod + restore", ValuesTest.render(copy.resolve("overlays/prod")));
        assertThat(restoreProblems(restored, "pmedia-db")).isEmpty();
        // Issue 38: the old runbook's restored cluster archived where the origin's backups are.
        Manifests samePath = restored.changed(objects -> objects.stream().filter(o -> o.path("kind").asText()
                .equals("Cluster")).forEach(o -> ((ObjectNode) o.at("/spec/plugins/0/parameters"))
                        .put("serverName", "pmedia-db")));
        assertThat(restoreProblems(samePath, "pmedia-db")).containsExactly(
                "pmedia-db-restore archives into pmedia-db's path, the backups it restores from");
        // And git's prod without the component keeps the origin and lets no sync delete it (GitOpsTest).
        assertThat(Manifests.of("prod").get("Cluster", "pmedia-db").path("metadata").path("annotations")
                .path("argocd.argoproj.io/sync-options").asText()).contains("Prune=false");
    }
}
