package io.pmedia.deploy.checks;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
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
 * What follows a value of values.env agrees with it in the rendered objects, wherever it is spelled: ValuesTest proves
 * that the replacements carry each value to the fields they name; this finds a spelling they do not reach (a topic's
 * own config, a second policy rule, an overlay patch that runs after the component). Facts on both sides are read, none
 * is listed here:
 * <ul>
 * <li>Kafka's replication: every key of every rendered object that names a replication factor ({@code
 * *replication.factor}, or {@code *_REPLICATION_FACTOR} in an environment) is KAFKA_REPLICATION_FACTOR, as is every
 * KafkaTopic's replicas; every key that names the in-sync minimum ({@code min.insync.replicas}, {@code *min.isr}) is
 * KAFKA_MIN_INSYNC_REPLICAS; the factor fits the rendered broker nodes and the minimum is below the factor (one node
 * restarting never stops writes) unless there is one node.</li>
 * <li>Addresses in the cluster: each URL of values.env whose host is {@code <service>.<namespace>.svc} is opened by a
 * NetworkPolicy egress rule to that namespace on the URL's port; and every egress rule to another namespace is such
 * an address, namespace and port, or name resolution (port 53).</li>
 * </ul>
 */
class ValueFollowersTest {

    static final List<String> OVERLAYS = Manifests.OVERLAYS;

    /** A URL to a Service of another namespace: {@code scheme://<service>.<namespace>.svc[.domain][:port]}. */
    static final Pattern IN_CLUSTER = Pattern.compile(
            "^([a-z][a-z0-9+.-]*)://[a-z0-9-]+\\.([a-z0-9-]+)\\.svc(?:\\.[a-z0-9.-]+)?(?::(\\d+))?(?:/.*)?$");
    static final String NAMESPACE_LABEL = "kubernetes.io/metadata.name";
    /** Name resolution's port: the one egress to another namespace that no address of the configuration names. */
    static final int DNS_PORT = 53;

    static Map<String, String> values(String overlay) {
        return ValuesTest.values(Manifests.read(ValuesTest.K8S.resolve("overlays").resolve(overlay)
                .resolve("values.env")));
    }

    @ParameterizedTest
    @FieldSource("OVERLAYS")
    void kafkasReplicationIsValuesEnvsWhereverItIsSpelled(String overlay) {
        assertThat(kafkaReplicationProblems(Manifests.of(overlay), values(overlay))).as(overlay).isEmpty();
    }

    @ParameterizedTest
    @FieldSource("OVERLAYS")
    void theNetworkPoliciesOpenExactlyTheInClusterAddressesOfValuesEnv(String overlay) {
        Map<String, String> values = values(overlay);
        assertThat(addresses(values)).as("%s: values.env names the collector in the cluster", overlay)
                .anyMatch(a -> a.key().equals("OTLP_ENDPOINT"));
        assertThat(addressProblems(Manifests.of(overlay), values)).as(overlay).isEmpty();
    }

    static List<String> kafkaReplicationProblems(Manifests m, Map<String, String> values) {
        List<String> problems = new ArrayList<>();
        String factor = values.get("KAFKA_REPLICATION_FACTOR");
        String minimum = values.get("KAFKA_MIN_INSYNC_REPLICAS");
        if (factor == null || minimum == null) {
            return List.of("values.env sets no KAFKA_REPLICATION_FACTOR or KAFKA_MIN_INSYNC_REPLICAS");
        }
        for (ObjectNode object : m.objects) {
            walk(object, "", (path, key, value) -> {
                String k = key.toLowerCase(Locale.ROOT).replace('_', '.');
                String owner = k.endsWith("replication.factor")
                        ? "KAFKA_REPLICATION_FACTOR"
                        : k.endsWith("min.insync.replicas") || k.endsWith("min.isr")
                                ? "KAFKA_MIN_INSYNC_REPLICAS"
                                : null;
                if (owner != null && !values.get(owner).equals(value.asText())) {
                    problems.add(Manifests.id(object) + " " + path + " is " + value.asText() + ", values.env's "
                            + owner + " is " + values.get(owner));
                }
            });
        }
        for (ObjectNode topic : m.ofKind("KafkaTopic")) {
            String replicas = topic.path("spec").path("replicas").asText();
            if (!factor.equals(replicas)) {
                problems.add(Manifests.id(topic) + " has " + (replicas.isEmpty() ? "no" : replicas)
                        + " replicas, values.env's KAFKA_REPLICATION_FACTOR is " + factor);
            }
        }
        // The brokers' own defaults apply where the Kafka resource names neither (offsets and transactions at 3).
        for (ObjectNode kafka : m.ofKind("Kafka")) {
            Set<String> keys = new TreeSet<>();
            kafka.path("spec").path("kafka").path("config").fieldNames().forEachRemaining(keys::add);
            if (keys.stream().noneMatch(k -> k.endsWith("replication.factor"))
                    || keys.stream().noneMatch(k -> k.endsWith("min.insync.replicas"))) {
                problems.add(Manifests.id(kafka) + " names no replication factor or in-sync minimum: the brokers'"
                        + " defaults apply, not values.env's");
            }
        }
        int brokers = 0;
        for (ObjectNode pool : m.ofKind("KafkaNodePool")) {
            boolean broker = false;
            for (JsonNode role : pool.path("spec").path("roles")) {
                broker |= role.asText().equals("broker");
            }
            brokers += broker ? pool.path("spec").path("replicas").asInt() : 0;
        }
        int f = Integer.parseInt(factor);
        int min = Integer.parseInt(minimum);
        if (f > brokers) {
            problems.add("KAFKA_REPLICATION_FACTOR " + f + " is more than the " + brokers + " broker nodes rendered");
        }
        if (min < 1 || min > f || f > 1 && min == f) {
            problems.add("KAFKA_MIN_INSYNC_REPLICAS " + min + " against a factor of " + f + ": at least 1, and below"
                    + " the factor where there is more than one replica (a restarting node would stop writes)");
        }
        return problems;
    }

    /** A URL of values.env that reaches a Service in another namespace. */
    record Address(String key, String namespace, int port) {
    }

    static List<Address> addresses(Map<String, String> values) {
        List<Address> addresses = new ArrayList<>();
        values.forEach((key, value) -> {
            Matcher url = IN_CLUSTER.matcher(value);
            if (url.matches()) {
                int port = url.group(3) != null
                        ? Integer.parseInt(url.group(3))
                        : url.group(1).equals("https") ? 443 : 80;
                addresses.add(new Address(key, url.group(2), port));
            }
        });
        return addresses;
    }

    static List<String> addressProblems(Manifests m, Map<String, String> values) {
        List<Address> addresses = addresses(values);
        List<String> problems = new ArrayList<>();
        Set<String> opened = new TreeSet<>();
        for (ObjectNode policy : m.ofKind("NetworkPolicy")) {
            for (JsonNode rule : policy.path("spec").path("egress")) {
                List<String> ports = new ArrayList<>();
                rule.path("ports").forEach(p -> ports.add(p.path("port").asText()));
                for (JsonNode peer : rule.path("to")) {
                    if (!peer.has("namespaceSelector")) {
                        continue;
                    }
                    JsonNode name = peer.path("namespaceSelector").path("matchLabels").path(NAMESPACE_LABEL);
                    String at = Manifests.id(policy) + " egress to namespace ";
                    if (!name.isTextual()) {
                        problems.add(at + peer.path("namespaceSelector") + ": names no namespace by "
                                + NAMESPACE_LABEL);
                        continue;
                    }
                    String namespace = name.asText();
                    if (namespace.equals(Manifests.NAMESPACE)) {
                        continue;
                    }
                    List<Address> there = addresses.stream().filter(a -> a.namespace().equals(namespace)).toList();
                    if (ports.isEmpty()) {
                        problems.add(at + namespace + " opens every port");
                    }
                    for (String port : ports) {
                        opened.add(namespace + ":" + port);
                        boolean named = there.stream().anyMatch(a -> String.valueOf(a.port()).equals(port));
                        boolean dns = there.isEmpty() && port.equals(String.valueOf(DNS_PORT));
                        if (!named && !dns) {
                            problems.add(at + namespace + " opens port " + port + ", " + (there.isEmpty()
                                    ? "a namespace no URL of values.env names"
                                    : "values.env names " + there));
                        }
                    }
                }
            }
        }
        for (Address a : addresses) {
            if (!opened.contains(a.namespace() + ":" + a.port())) {
                problems.add(a.key() + " is in namespace " + a.namespace() + " on port " + a.port()
                        + ": no NetworkPolicy opens it (" + opened + " are open)");
            }
        }
        return problems;
    }

    interface ScalarSink {
        void accept(String path, String key, JsonNode value);
    }

    /** Every scalar under a key, with its path; a file's content (the dashboard) is no setting. */
    private static void walk(JsonNode node, String path, ScalarSink sink) {
        if (node.isObject()) {
            node.fields().forEachRemaining(e -> {
                JsonNode v = e.getValue();
                if (v.isValueNode() && !v.asText().contains("\n")) {
                    sink.accept(path + "/" + e.getKey(), e.getKey(), v);
                } else {
                    walk(v, path + "/" + e.getKey(), sink);
                }
            });
        } else if (node.isArray()) {
            for (int i = 0; i < node.size(); i++) {
                walk(node.get(i), path + "/" + i, sink);
            }
        }
    }

    /**
     * The checks bite on the rendered objects: a topic's own in-sync minimum, a KafkaTopic left at base's replicas in
     * dev, a factor above the nodes; a telemetry port or an object-store namespace written beside values.env, and a
     * second rule opening the collector's namespace on another port. Each broken fact is values.env's, changed, so
     * this holds whatever values.env says.
     */
    @Test
    void theChecksBite() {
        Manifests dev = Manifests.of("dev");
        Map<String, String> devValues = values("dev");
        int minimum = Integer.parseInt(devValues.get("KAFKA_MIN_INSYNC_REPLICAS"));
        int factor = Integer.parseInt(devValues.get("KAFKA_REPLICATION_FACTOR"));
        Manifests topicMinimum = dev.changed(objects -> objects.stream()
                .filter(o -> Manifests.id(o).equals("KafkaTopic pmedia-media-status"))
                .forEach(o -> ((ObjectNode) o.path("spec").path("config")).put("min.insync.replicas", minimum + 1)));
        assertThat(kafkaReplicationProblems(topicMinimum, devValues)).containsExactly(
                "KafkaTopic pmedia-media-status /spec/config/min.insync.replicas is " + (minimum + 1)
                        + ", values.env's KAFKA_MIN_INSYNC_REPLICAS is " + minimum);
        Manifests otherReplicas = dev.changed(objects -> objects.stream()
                .filter(o -> Manifests.id(o).equals("KafkaTopic pmedia-batch-status"))
                .forEach(o -> ((ObjectNode) o.path("spec")).put("replicas", factor + 2)));
        assertThat(kafkaReplicationProblems(otherReplicas, devValues)).containsExactly(
                "KafkaTopic pmedia-batch-status has " + (factor + 2) + " replicas, values.env's"
                        + " KAFKA_REPLICATION_FACTOR is " + factor);
        Map<String, String> tooMany = new java.util.HashMap<>(values("prod"));
        int nodes = Integer.parseInt(tooMany.get("KAFKA_NODES"));
        tooMany.put("KAFKA_REPLICATION_FACTOR", String.valueOf(nodes + 1));
        assertThat(kafkaReplicationProblems(Manifests.of("prod"), tooMany)).contains("KAFKA_REPLICATION_FACTOR "
                + (nodes + 1) + " is more than the " + nodes + " broker nodes rendered");

        Address otlp = addresses(devValues).stream().filter(a -> a.key().equals("OTLP_ENDPOINT")).findFirst()
                .orElseThrow();
        Manifests otlpPort = dev.changed(objects -> objects.stream()
                .filter(o -> Manifests.id(o).equals("NetworkPolicy telemetry"))
                .forEach(o -> ((ObjectNode) o.at("/spec/egress/0/ports/0")).put("port", otlp.port() + 1)));
        assertThat(addressProblems(otlpPort, devValues)).satisfiesExactly(
                p -> assertThat(p).startsWith("NetworkPolicy telemetry egress to namespace " + otlp.namespace()
                        + " opens port " + (otlp.port() + 1) + ", values.env names ["),
                p -> assertThat(p).startsWith("OTLP_ENDPOINT is in namespace " + otlp.namespace() + " on port "
                        + otlp.port() + ": no NetworkPolicy opens it"));
        Address store = addresses(devValues).stream().filter(a -> a.key().equals("S3_ENDPOINT")).findFirst()
                .orElseThrow();
        String elsewhere = store.namespace() + "-elsewhere";
        Manifests storeNamespace = dev.changed(objects -> objects.stream()
                .filter(o -> Manifests.id(o).equals("NetworkPolicy to-object-store"))
                .forEach(o -> ((ObjectNode) o.at("/spec/egress/0/to/0/namespaceSelector/matchLabels"))
                        .put(NAMESPACE_LABEL, elsewhere)));
        assertThat(addressProblems(storeNamespace, devValues)).satisfiesExactly(
                p -> assertThat(p).isEqualTo("NetworkPolicy to-object-store egress to namespace " + elsewhere
                        + " opens port " + store.port() + ", a namespace no URL of values.env names"),
                p -> assertThat(p).startsWith("S3_ENDPOINT is in namespace " + store.namespace() + " on port "
                        + store.port() + ": no NetworkPolicy opens it"));
        Manifests secondRule = Manifests.of("prod").changed(objects -> objects.stream()
                .filter(o -> Manifests.id(o).equals("NetworkPolicy telemetry"))
                .forEach(o -> {
                    var egress = (com.fasterxml.jackson.databind.node.ArrayNode) o.path("spec").path("egress");
                    ObjectNode other = egress.get(0).deepCopy();
                    ((ObjectNode) other.at("/ports/0")).put("port", other.at("/ports/0/port").asInt() + 1);
                    egress.add(other);
                }));
        assertThat(addressProblems(secondRule, values("prod"))).singleElement().asString()
                .startsWith("NetworkPolicy telemetry egress to namespace ")
                .contains(", values.env names [Address[key=OTLP_ENDPOINT, ");
    }
}
