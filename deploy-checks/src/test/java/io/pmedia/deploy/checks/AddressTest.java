package io.pmedia.deploy.checks;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.FieldSource;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * Every address one namespace gives another is fully qualified: {@code <service>.<namespace>.svc} (or with the
 * cluster domain after it). A Service's short name resolves only from its own namespace; a {@code name.namespace}
 * relies on the resolver's search list. Checked over every string of every rendered object that names a host (a URL,
 * or host:port): in an object an operator reads from its own namespace (KEDA's, whose scalers run in namespace
 * {@code keda}) every in-cluster host is fully qualified and names the namespace the rendered objects live in; in any
 * object, a host of the form {@code name.namespace} (a namespace the manifests or the Argo CD Applications name) is
 * refused; and a short name must be a Service that exists (rendered, or made by an operator from a rendered object).
 */
class AddressTest {

    static final List<String> OVERLAYS = Manifests.OVERLAYS;
    /** API groups whose objects are read by an operator running in another namespace. */
    static final Set<String> READ_ELSEWHERE = Set.of("keda.sh");
    /** A URL of a service (not a bucket: s3:// names no host). */
    static final Pattern URL = Pattern
            .compile("\\b(?:https?|grpcs?|tcp|postgres(?:ql)?)://([A-Za-z0-9.-]+)(?::(\\d+))?");
    static final Pattern HOST_PORT = Pattern.compile("^([a-z0-9][a-z0-9.-]*):(\\d+)$");
    static final Pattern QUALIFIED = Pattern.compile("^[a-z0-9-]+\\.([a-z0-9-]+)\\.svc(\\.[a-z0-9.-]+)?$");

    /** Namespaces the manifests and the Argo CD Applications name. */
    static Set<String> namespaces(Manifests m) throws IOException {
        Set<String> names = new TreeSet<>(Set.of(Manifests.NAMESPACE, "default", "kube-system"));
        m.objects.forEach(o -> collectNamespaces(o, names));
        for (ObjectNode app : GitOpsTest.applications()) {
            names.add(app.path("spec").path("destination").path("namespace").asText());
        }
        names.remove("");
        return names;
    }

    private static void collectNamespaces(JsonNode node, Set<String> names) {
        if (node.isObject()) {
            JsonNode ns = node.path("namespaceSelector").path("matchLabels").path("kubernetes.io/metadata.name");
            if (ns.isTextual()) {
                names.add(ns.asText());
            }
            node.fields().forEachRemaining(e -> collectNamespaces(e.getValue(), names));
        } else if (node.isArray()) {
            node.forEach(n -> collectNamespaces(n, names));
        }
    }

    /** Services that exist in the namespace: rendered ones and those the operators make from rendered objects. */
    static Set<String> services(Manifests m) {
        Set<String> services = new TreeSet<>();
        m.ofKind("Service").forEach(s -> services.add(Manifests.name(s)));
        m.ofKind("Pooler").forEach(p -> services.add(Manifests.name(p)));
        for (ObjectNode c : m.ofKind("Cluster")) {
            for (String suffix : List.of("-rw", "-ro", "-r")) {
                services.add(Manifests.name(c) + suffix);
            }
        }
        for (ObjectNode k : m.ofKind("Kafka")) {
            services.add(Manifests.name(k) + "-kafka-bootstrap");
            services.add(Manifests.name(k) + "-kafka-brokers");
        }
        return services;
    }

    static List<String> problems(Manifests m) throws IOException {
        Set<String> namespaces = namespaces(m);
        Set<String> services = services(m);
        List<String> problems = new ArrayList<>();
        for (ObjectNode object : m.objects) {
            String group = object.path("apiVersion").asText().replaceFirst("/?[^/]*$", "");
            boolean elsewhere = READ_ELSEWHERE.contains(group);
            walk(object, "", (path, host) -> {
                String at = Manifests.id(object) + " " + path + ": " + host;
                String[] labels = host.split("\\.");
                Matcher qualified = QUALIFIED.matcher(host);
                if (labels.length == 1) {
                    if (elsewhere) {
                        problems.add(at + " is read from another namespace, where a short name does not resolve");
                    } else if (!services.contains(host)) {
                        problems.add(at + " is no Service of namespace " + Manifests.NAMESPACE);
                    }
                } else if (labels.length == 2 && namespaces.contains(labels[1])) {
                    problems.add(at + " names namespace " + labels[1] + " without .svc: write " + host + ".svc");
                } else if (qualified.matches()) {
                    if (elsewhere && !qualified.group(1).equals(Manifests.NAMESPACE)) {
                        problems.add(at + " names namespace " + qualified.group(1) + ", the objects are in "
                                + Manifests.NAMESPACE);
                    }
                    if (qualified.group(1).equals(Manifests.NAMESPACE)
                            && !services.contains(labels[0])) {
                        problems.add(at + " is no Service of namespace " + Manifests.NAMESPACE);
                    }
                } else if (elsewhere && (host.endsWith(".svc") || host.contains(".svc."))) {
                    problems.add(at + " is not <service>.<namespace>.svc");
                }
            });
        }
        return problems;
    }

    interface HostSink {
        void accept(String path, String host);
    }

    private static void walk(JsonNode node, String path, HostSink sink) {
        if (node.isObject()) {
            node.fields().forEachRemaining(e -> walk(e.getValue(), path + "/" + e.getKey(), sink));
        } else if (node.isArray()) {
            for (int i = 0; i < node.size(); i++) {
                walk(node.get(i), path + "/" + i, sink);
            }
        } else if (node.isTextual()) {
            String value = node.asText();
            if (value.contains("\n")) {
                return; // a file's content (the dashboard), not an address
            }
            Matcher url = URL.matcher(value);
            boolean any = false;
            while (url.find()) {
                sink.accept(path, url.group(1));
                any = true;
            }
            if (!any) {
                for (String part : value.split(",")) {
                    Matcher hp = HOST_PORT.matcher(part.strip());
                    if (hp.matches() && !hp.group(1).matches("[0-9.]+")) {
                        sink.accept(path, hp.group(1));
                    }
                }
            }
        }
    }

    @ParameterizedTest
    @FieldSource("OVERLAYS")
    void everyAddressGivenToAnotherNamespaceIsFullyQualified(String overlay) throws IOException {
        Manifests m = Manifests.of(overlay);
        assertThat(namespaces(m)).contains("keda", "observability", "monitoring", "cnpg-system");
        assertThat(problems(m)).as(overlay).isEmpty();
    }

    /** Issue 38's KEDA bootstrap, and a telemetry endpoint that leans on the search list: both fail. */
    @Test
    void theCheckBites() throws IOException {
        Manifests prod = Manifests.of("prod");
        Manifests shortKeda = prod.changed(objects -> objects.stream().filter(o -> o.path("kind").asText()
                .equals("ScaledObject")).forEach(o -> o.path("spec").path("triggers").forEach(
                        t -> ((ObjectNode) t
                                .path("metadata")).put("bootstrapServers", "pmedia-kafka-bootstrap:9093"))));
        assertThat(problems(shortKeda)).contains("ScaledObject notifier /spec/triggers/0/metadata/bootstrapServers:"
                + " pmedia-kafka-bootstrap is read from another namespace, where a short name does not resolve");
        Manifests otel = prod.changed(objects -> objects.stream().filter(o -> o.path("kind").asText()
                .equals("ConfigMap") && o.path("data").has("PMEDIA_OTLP_ENDPOINT")).forEach(
                        o -> ((ObjectNode) o
                                .path("data"))
                                .put("PMEDIA_OTLP_ENDPOINT", "http://otel-collector.observability:4317")));
        assertThat(problems(otel)).singleElement().asString().contains("otel-collector.observability names namespace"
                + " observability without .svc");
        Manifests otherNamespace = prod.changed(objects -> objects.stream().filter(o -> o.path("kind").asText()
                .equals("ScaledObject")).forEach(o -> o.path("spec").path("triggers").forEach(
                        t -> ((ObjectNode) t
                                .path("metadata")).put("bootstrapServers", "pmedia-kafka-bootstrap.kafka.svc:9093"))));
        assertThat(problems(otherNamespace)).anyMatch(p -> p.endsWith("names namespace kafka, the objects are in "
                + "pmedia"));
    }
}
