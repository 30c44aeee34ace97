package io.pmedia.deploy.checks;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigInteger;
import java.net.InetAddress;
import java.net.URI;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.FieldSource;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.LabelSelectorRequirement;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyEgressRule;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyIngressRule;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyPeer;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyPort;
import io.strimzi.api.kafka.model.kafka.Kafka;

/**
 * The NetworkPolicies allow each call the code makes and no other. The calls are derived from the rendered
 * configuration where it names them (service URLs, database and pooler, Kafka, object store, OTLP endpoint: the env
 * of each Deployment and its ConfigMaps), from the code (vendor URLs on the internet: every workload whose module
 * uses the SafeFetcher), plus the ones no configuration names (the ingress, Prometheus, DNS, the runbook's ops pod). A small evaluator applies Kubernetes' NetworkPolicy semantics (and the brokers' policy Strimzi
 * generates from the listener's networkPolicyPeers) to every pair of endpoints and every port.
 */
class NetworkPolicyTest {

    static final List<String> OVERLAYS = Manifests.OVERLAYS;

    /** Somewhere outside the cluster, somewhere inside that is nobody's business, and a vendor's host. */
    static final String PUBLIC_ADDRESS = "203.0.113.10";
    static final String PRIVATE_ADDRESS = "10.96.0.1";

    /** A port a vendor's URL may name besides 443: fetchers reach public addresses on any TCP port. */
    static final int VENDOR_PORT = 8443;

    /** Who reaches vendor URLs (asset downloads, previews, try-on images and the provider, webhooks): from the code. */
    static boolean fetches(String workload) {
        return ServiceConfig.all().containsKey(workload) && ServiceConfig.of(workload).fetchesUrls();
    }

    record Endpoint(String name, String namespace, Map<String, String> labels, String ip, Map<String, Integer> ports) {

        boolean isPod() {
            return ip == null;
        }
    }

    record Call(String from, String to, int port, String protocol) {
        @Override
        public String toString() {
            return from + " -> " + to + ":" + port + "/" + protocol;
        }
    }

    private static Map<String, String> ns(String name) {
        return Map.of("kubernetes.io/metadata.name", name);
    }

    static Map<String, Endpoint> endpoints(Manifests m) {
        Map<String, Endpoint> endpoints = new LinkedHashMap<>();
        for (var node : m.ofKind("Deployment")) {
            Deployment d = TypedModels.bind(node, Deployment.class);
            Map<String, Integer> ports = new HashMap<>();
            Container c = WorkloadTest.container(d);
            c.getPorts().forEach(p -> ports.put(p.getName(), p.getContainerPort()));
            // The HTTP server listens even where no port is declared (the worker's 8081): probe it too.
            ports.putIfAbsent("http", ServiceConfig.of(d.getMetadata().getName()).httpPort());
            endpoints.put(d.getMetadata().getName(), new Endpoint(d.getMetadata().getName(), Manifests.NAMESPACE,
                    d.getSpec().getTemplate().getMetadata().getLabels(), null, ports));
        }
        endpoints.put("kafka", new Endpoint("kafka", Manifests.NAMESPACE, Map.of("strimzi.io/cluster", "pmedia",
                "strimzi.io/kind", "Kafka", "strimzi.io/broker-role", "true"), null, Map.of("tls", 9093)));
        // The instances carry the labels CloudNativePG sets and the Cluster's inheritedMetadata labels.
        Map<String, String> instance = new HashMap<>(Map.of("cnpg.io/cluster", "pmedia-db", "cnpg.io/podRole",
                "instance"));
        m.get("Cluster", "pmedia-db").path("spec").path("inheritedMetadata").path("labels").fields()
                .forEachRemaining(l -> instance.put(l.getKey(), l.getValue().asText()));
        endpoints.put("postgres", new Endpoint("postgres", Manifests.NAMESPACE, instance, null, Map.of("postgresql",
                5432, "status", 8000, "metrics", 9187)));
        for (var pooler : m.ofKind("Pooler")) {
            endpoints.put(Manifests.name(pooler), new Endpoint(Manifests.name(pooler), Manifests.NAMESPACE, Map.of(
                    "cnpg.io/poolerName", Manifests.name(pooler), "cnpg.io/podRole", "pooler"), null,
                    Map.of(
                            "pgbouncer", 5432, "metrics", 9127)));
        }
        // The migration Jobs' pods (their template's labels; they listen on nothing).
        for (var job : m.ofKind("Job")) {
            Map<String, String> labels = new HashMap<>();
            job.path("spec").path("template").path("metadata").path("labels").fields()
                    .forEachRemaining(l -> labels.put(l.getKey(), l.getValue().asText()));
            endpoints.put(Manifests.name(job), new Endpoint(Manifests.name(job), Manifests.NAMESPACE, labels, null,
                    Map.of()));
        }
        // The operators that reach into the namespace: KEDA's scalers read the consumer lag from the brokers; the
        // CloudNativePG operator asks each instance's manager for its status.
        endpoints.put("keda", new Endpoint("keda", "keda", Map.of("app", "keda-operator"), null, Map.of()));
        endpoints.put("cnpg-operator", new Endpoint("cnpg-operator", "cnpg-system", Map.of(
                "app.kubernetes.io/name", "cloudnative-pg"), null, Map.of()));
        // An operator's client pod (docs/operations.md, "Replay dead letters"), labelled as the runbook says.
        endpoints.put("kafka-ops", new Endpoint("kafka-ops", Manifests.NAMESPACE, Map.of("pmedia.io/kafka-ops",
                "true"), null, Map.of()));
        endpoints.put("ingress-controller", new Endpoint("ingress-controller", "ingress-nginx",
                Map.of("app.kubernetes.io/name", "ingress-nginx"), null, Map.of()));
        endpoints.put("prometheus", new Endpoint("prometheus", "monitoring", Map.of("app.kubernetes.io/name",
                "prometheus"), null, Map.of()));
        // The collector and an in-cluster object store are where the rendered configuration points (values.env's
        // URLs, <service>.<namespace>.svc:<port>); a store outside the cluster leaves a namespace nobody opens, probed.
        URI otlp = URI.create(configured(m, "PMEDIA_OTLP_ENDPOINT"));
        endpoints.put("otel-collector", new Endpoint("otel-collector", otlp.getHost().split("\\.")[1], Map.of(
                "app.kubernetes.io/name", "opentelemetry-collector"), null, Map.of("otlp", otlp.getPort())));
        endpoints.put("dns", new Endpoint("dns", "kube-system", Map.of("k8s-app", "kube-dns"), null,
                Map.of("dns", 53)));
        URI s3 = URI.create(configured(m, "PMEDIA_S3_ENDPOINT"));
        boolean s3InCluster = s3.getHost().endsWith(".svc") && s3.getPort() != -1;
        String s3Namespace = s3InCluster ? s3.getHost().split("\\.")[1] : "s3";
        int s3Port = s3InCluster ? s3.getPort() : 9000;
        endpoints.put("s3-in-cluster", new Endpoint("s3-in-cluster", s3Namespace, Map.of("app", "s3"), null,
                Map.of("s3", s3Port)));
        endpoints.put("internet", new Endpoint("internet", null, Map.of(), PUBLIC_ADDRESS, Map.of("https", 443)));
        endpoints.put("cluster-private", new Endpoint("cluster-private", null, Map.of(), PRIVATE_ADDRESS,
                Map.of("https", 443)));
        return endpoints;
    }

    /** The calls the configuration names, plus those no configuration can. */
    static Set<Call> expectedCalls(Manifests m, Map<String, Endpoint> endpoints) {
        Set<Call> calls = new LinkedHashSet<>();
        for (var node : m.ofKind("Deployment")) {
            Deployment d = TypedModels.bind(node, Deployment.class);
            String from = d.getMetadata().getName();
            for (Map.Entry<String, String> env : environment(m, d).entrySet()) {
                String value = env.getValue();
                switch (env.getKey()) {
                    case "PMEDIA_DB_HOST", "PMEDIA_DB_DIRECT_HOST" -> calls.add(new Call(from, database(m, value),
                            Integer.parseInt(environment(m, d).getOrDefault("PMEDIA_DB_PORT", "5432")), "TCP"));
                    case "PMEDIA_KAFKA_BOOTSTRAP" -> calls.add(new Call(from, "kafka",
                            Integer.parseInt(value.substring(value.indexOf(':') + 1)), "TCP"));
                    case "PMEDIA_OTLP_ENDPOINT" -> calls.add(new Call(from, "otel-collector",
                            URI.create(value).getPort(), "TCP"));
                    case "PMEDIA_S3_ENDPOINT" -> {
                        if (!environment(m, d).containsKey("PMEDIA_S3_ACCESS_KEY")
                                && WorkloadTest.container(d).getEnv().stream()
                                        .noneMatch(e -> e.getName().equals("PMEDIA_S3_ACCESS_KEY"))) {
                            continue; // the address only (the gateway's console CSP): no client, no call
                        }
                        URI s3 = URI.create(value);
                        boolean inCluster = s3.getHost().split("\\.").length == 2 || s3.getHost().endsWith(".svc");
                        int port = s3.getPort() != -1 ? s3.getPort() : "https".equals(s3.getScheme()) ? 443 : 80;
                        calls.add(new Call(from, inCluster ? "s3-in-cluster" : "internet", port, "TCP"));
                    }
                    default -> {
                        if (value.startsWith("http://") && env.getKey().matches("PMEDIA_.*_URL")) {
                            URI uri = URI.create(value);
                            String target = serviceTarget(m, uri.getHost());
                            calls.add(new Call(from, target, uri.getPort(), "TCP"));
                        }
                    }
                }
            }
            calls.add(new Call(from, "dns", 53, "UDP"));
            calls.add(new Call(from, "dns", 53, "TCP"));
            calls.add(new Call("prometheus", from, endpoints.get(from).ports().get("management"), "TCP"));
            if (fetches(from)) {
                calls.add(new Call(from, "internet", 443, "TCP"));
                calls.add(new Call(from, "internet", VENDOR_PORT, "TCP"));
            }
        }
        calls.add(new Call("ingress-controller", "gateway", endpoints.get("gateway").ports().get("https"), "TCP"));
        for (var pooler : m.ofKind("Pooler")) {
            calls.add(new Call(Manifests.name(pooler), database(m, pooler.path("spec").path("cluster").path("name")
                    .asText() + "-rw"), 5432, "TCP"));
            calls.add(new Call("prometheus", Manifests.name(pooler), 9127, "TCP"));
        }
        calls.add(new Call("kafka-ops", "kafka", 9093, "TCP"));
        // The migration Jobs: their database (the hosts of their environment), DNS, traces.
        for (var node : m.ofKind("Job")) {
            String from = Manifests.name(node);
            var container = TypedModels.bind(node, io.fabric8.kubernetes.api.model.batch.v1.Job.class).getSpec()
                    .getTemplate().getSpec().getContainers().get(0);
            Map<String, String> env = environment(m, container);
            for (Map.Entry<String, String> e : env.entrySet()) {
                switch (e.getKey()) {
                    case "PMEDIA_DB_HOST", "PMEDIA_DB_DIRECT_HOST" -> calls.add(new Call(from, database(m,
                            e.getValue()), Integer.parseInt(env.getOrDefault("PMEDIA_DB_PORT", "5432")), "TCP"));
                    case "PMEDIA_OTLP_ENDPOINT" -> calls.add(new Call(from, "otel-collector",
                            URI.create(e.getValue()).getPort(), "TCP"));
                    default -> {
                    }
                }
            }
            calls.add(new Call(from, "dns", 53, "UDP"));
            calls.add(new Call(from, "dns", 53, "TCP"));
        }
        // KEDA's lag reader (its ScaledObjects' bootstrap port); the operator and the instances among themselves
        // (PostgreSQL's port, the instance manager's status port); Prometheus on PostgreSQL's exporter.
        for (var scaled : m.ofKind("ScaledObject")) {
            for (var trigger : scaled.path("spec").path("triggers")) {
                String bootstrap = trigger.path("metadata").path("bootstrapServers").asText();
                calls.add(new Call("keda", "kafka", Integer.parseInt(bootstrap.substring(bootstrap.lastIndexOf(':')
                        + 1)), "TCP"));
            }
        }
        var postgres = endpoints.get("postgres").ports();
        for (String peer : List.of("cnpg-operator", "postgres")) {
            calls.add(new Call(peer, "postgres", postgres.get("postgresql"), "TCP"));
            calls.add(new Call(peer, "postgres", postgres.get("status"), "TCP"));
        }
        calls.add(new Call("prometheus", "postgres", postgres.get("metrics"), "TCP"));
        return calls;
    }

    /** The value of a variable every ConfigMap that provides it agrees on (the overlay's values.env's). */
    static String configured(Manifests m, String variable) {
        Set<String> values = new java.util.TreeSet<>();
        m.ofKind("ConfigMap").forEach(c -> {
            if (c.path("data").has(variable)) {
                values.add(c.path("data").path(variable).asText());
            }
        });
        assertThat(values).as("%s: the ConfigMaps' %s", m.overlay, variable).hasSize(1);
        return values.iterator().next();
    }

    /** The endpoint behind a database host: a Pooler's Service (its name), or a CloudNativePG cluster's rw Service. */
    static String database(Manifests m, String host) {
        if (m.find("Pooler", host).isPresent()) {
            return host;
        }
        assertThat(host).as("a database host is a Pooler or the cluster's rw Service").isEqualTo("pmedia-db-rw");
        return "postgres";
    }

    /** Literal env, and the data of every ConfigMap the container takes all of. */
    static Map<String, String> environment(Manifests m, Deployment d) {
        return environment(m, WorkloadTest.container(d));
    }

    /** The variables a container sees: its ConfigMaps', then its own literal ones. */
    static Map<String, String> environment(Manifests m, Container c) {
        Map<String, String> env = new HashMap<>();
        if (c.getEnvFrom() != null) {
            c.getEnvFrom().stream().filter(e -> e.getConfigMapRef() != null).forEach(e -> m.get("ConfigMap",
                    e.getConfigMapRef().getName()).path("data").fields().forEachRemaining(f -> env.put(f.getKey(),
                            f.getValue().asText())));
        }
        c.getEnv().stream().filter(e -> e.getValue() != null).forEach(e -> env.put(e.getName(), e.getValue()));
        return env;
    }

    /** The Deployment whose pods a Service selects. */
    static String serviceTarget(Manifests m, String serviceName) {
        var selector = m.get("Service", serviceName).path("spec").path("selector");
        for (var node : m.ofKind("Deployment")) {
            var labels = node.path("spec").path("template").path("metadata").path("labels");
            boolean all = true;
            for (var it = selector.fields(); it.hasNext();) {
                var e = it.next();
                all &= e.getValue().asText().equals(labels.path(e.getKey()).asText());
            }
            if (all) {
                return Manifests.name(node);
            }
        }
        throw new AssertionError("Service " + serviceName + " selects no Deployment");
    }

    @ParameterizedTest
    @FieldSource("OVERLAYS")
    void everyCallTheCodeMakesIsAllowedAndNoOther(String overlay) {
        Manifests m = Manifests.of(overlay);
        assertThat(blocked(m)).as("%s: calls the code makes that the NetworkPolicies block", overlay).isEmpty();
        assertThat(extra(m)).as("%s: calls the NetworkPolicies allow that the code does not make", overlay).isEmpty();
    }

    /**
     * The check bites: media-api fetches vendor assets for template previews (issue 24's defect); take it out of
     * the internet rule and its calls are blocked, in prod too (where the object store's rule opens 443 only). Take
     * a whole policy away (the one to the pooler) and every service's database calls are blocked.
     */
    @ParameterizedTest
    @FieldSource("OVERLAYS")
    void theCheckFailsWhenAPolicyRuleIsMissing(String overlay) {
        Manifests noPreviews = Manifests.of(overlay).changed(objects -> objects.stream()
                .filter(o -> Manifests.id(o).equals("NetworkPolicy to-internet")).forEach(o -> {
                    var values = (com.fasterxml.jackson.databind.node.ArrayNode) o.path("spec").path("podSelector")
                            .path("matchExpressions").path(0).path("values");
                    for (int i = 0; i < values.size(); i++) {
                        if (values.get(i).asText().equals("media-api")) {
                            values.remove(i);
                            break;
                        }
                    }
                }));
        assertThat(blocked(noPreviews)).contains("media-api -> internet:" + VENDOR_PORT + "/TCP");

        Manifests noPooler = Manifests.of(overlay).changed(objects -> objects.removeIf(o -> Manifests.id(o).equals(
                "NetworkPolicy to-pooler")));
        assertThat(blocked(noPooler)).contains("media-api -> pmedia-db-pooler-rw:5432/TCP",
                "engagement -> pmedia-db-pooler-rw:5432/TCP");
    }

    /**
     * The paths no Deployment's configuration names, each taken away once (issue 38): the migration Jobs' route to
     * PostgreSQL, KEDA among the brokers' peers, the CloudNativePG operator's way into the instances, the exporter's
     * port; and a port opened to a Job that listens on nothing is an extra.
     */
    @ParameterizedTest
    @FieldSource("OVERLAYS")
    void theChecksFailWhenAPathOfTheJobsOperatorsOrExportersIsMissing(String overlay) {
        Manifests m = Manifests.of(overlay);
        Manifests noJobs = m.changed(objects -> objects.stream().filter(o -> Manifests.id(o).equals(
                "NetworkPolicy to-postgres")).forEach(o -> {
                    var selector = (com.fasterxml.jackson.databind.node.ObjectNode) o.path("spec").path("podSelector");
                    selector.putArray("matchExpressions").addObject().put("key", "app.kubernetes.io/component")
                            .put("operator", "NotIn").putArray("values").add("migration");
                }));
        assertThat(blocked(noJobs)).contains("gateway-migrate -> postgres:5432/TCP",
                "engagement-migrate -> postgres:5432/TCP");
        Manifests noKeda = m.changed(objects -> objects.stream().filter(o -> Manifests.id(o).equals("Kafka pmedia"))
                .forEach(o -> {
                    var peers = (com.fasterxml.jackson.databind.node.ArrayNode) o.at(
                            "/spec/kafka/listeners/0/networkPolicyPeers");
                    for (int i = 0; i < peers.size(); i++) {
                        if (peers.get(i).has("namespaceSelector")) {
                            peers.remove(i);
                            return;
                        }
                    }
                }));
        assertThat(blocked(noKeda)).containsExactly("keda -> kafka:9093/TCP");
        Manifests noOperator = m.changed(objects -> objects.stream().filter(o -> Manifests.id(o).equals(
                "NetworkPolicy postgres")).forEach(o -> {
                    var from = (com.fasterxml.jackson.databind.node.ArrayNode) o.at("/spec/ingress/2/from");
                    from.remove(1);
                }));
        assertThat(blocked(noOperator)).containsExactly("cnpg-operator -> postgres:5432/TCP",
                "cnpg-operator -> postgres:8000/TCP");
        Manifests exporter = m.changed(objects -> objects.stream().filter(o -> Manifests.id(o).equals(
                "NetworkPolicy postgres")).forEach(
                        o -> ((com.fasterxml.jackson.databind.node.ObjectNode) o.at(
                                "/spec/ingress/3/ports/0")).put("port", 9188)));
        assertThat(blocked(exporter)).containsExactly("prometheus -> postgres:9187/TCP");
    }

    static List<String> blocked(Manifests m) {
        List<NetworkPolicy> policies = policies(m);
        List<NetworkPolicyPeer> brokerPeers = brokerPeers(m);
        Map<String, Endpoint> endpoints = endpoints(m);
        List<String> blocked = new ArrayList<>();
        for (Call call : expectedCalls(m, endpoints)) {
            if (!allowed(policies, brokerPeers, endpoints.get(call.from()), endpoints.get(call.to()), call.port(),
                    call.protocol())) {
                blocked.add(call.toString());
            }
        }
        return blocked;
    }

    static List<String> extra(Manifests m) {
        List<NetworkPolicy> policies = policies(m);
        List<NetworkPolicyPeer> brokerPeers = brokerPeers(m);
        Map<String, Endpoint> endpoints = endpoints(m);
        Set<Call> expected = expectedCalls(m, endpoints);
        List<String> extra = new ArrayList<>();
        Set<Integer> probePorts = new java.util.TreeSet<>(List.of(53, 80, 443, 4317, 5432, 8000, 9000, 9093, 9127,
                9187));
        endpoints.values().forEach(e -> probePorts.addAll(e.ports().values()));
        for (Endpoint from : endpoints.values()) {
            for (Endpoint to : endpoints.values()) {
                // pmedia's pods both ways; the data tier's pods (Kafka's, PostgreSQL's, PgBouncer's) as they are
                // reached (their egress is their operators' business).
                boolean governed = isPmedia(from) || isPmedia(to) || Manifests.NAMESPACE.equals(to.namespace());
                if (from == to && !from.name().equals("postgres") || !governed) {
                    continue;
                }
                for (int port : probePorts) {
                    for (String protocol : List.of("TCP", "UDP")) {
                        Call call = new Call(from.name(), to.name(), port, protocol);
                        // Vendor URLs may name any port: those clients reach public addresses on every TCP port.
                        boolean vendorUrl = fetches(from.name()) && to.name().equals("internet")
                                && protocol.equals("TCP");
                        if (!expected.contains(call) && !vendorUrl
                                && allowed(policies, brokerPeers, from, to, port, protocol)) {
                            extra.add(call.toString());
                        }
                    }
                }
            }
        }
        return extra;
    }

    private static List<NetworkPolicy> policies(Manifests m) {
        return m.ofKind("NetworkPolicy").stream().map(o -> TypedModels.bind(o, NetworkPolicy.class)).toList();
    }

    private static List<NetworkPolicyPeer> brokerPeers(Manifests m) {
        return TypedModels.bind(m.get("Kafka", "pmedia"), Kafka.class).getSpec().getKafka().getListeners().get(0)
                .getNetworkPolicyPeers();
    }

    private static boolean isPmedia(Endpoint e) {
        return "pmedia".equals(e.labels().get("app.kubernetes.io/part-of"));
    }

    static boolean allowed(List<NetworkPolicy> policies, List<NetworkPolicyPeer> brokerPeers, Endpoint from,
            Endpoint to, int port, String protocol) {
        if (!to.isPod() && !from.isPod()) {
            return false;
        }
        boolean egress = !from.isPod() || direction(policies, from, to, port, protocol, true);
        boolean ingress;
        if (!to.isPod()) {
            ingress = true;
        } else if (to.name().equals("kafka")) {
            // Strimzi's generated policy for the listener; other ports are Strimzi's own business.
            ingress = port == 9093 && "TCP".equals(protocol) && brokerPeers.stream().anyMatch(p -> peer(p, from,
                    Manifests.NAMESPACE));
        } else {
            ingress = direction(policies, to, from, port, protocol, false);
        }
        // A pod only answers on the ports it listens on; anything else is refused whatever the policies say.
        return egress && ingress && (!to.isPod() || to.ports().containsValue(port));
    }

    /** Whether the policies selecting {@code subject} let it talk to {@code other} (egress) or hear it (ingress). */
    private static boolean direction(List<NetworkPolicy> policies, Endpoint subject, Endpoint other, int port,
            String protocol, boolean egress) {
        if (!Manifests.NAMESPACE.equals(subject.namespace())) {
            return true;
        }
        String type = egress ? "Egress" : "Ingress";
        List<NetworkPolicy> selecting = policies.stream().filter(p -> p.getSpec().getPolicyTypes().contains(type)
                && matches(p.getSpec().getPodSelector(), subject.labels())).toList();
        if (selecting.isEmpty()) {
            return true;
        }
        for (NetworkPolicy policy : selecting) {
            var rules = egress ? policy.getSpec().getEgress() : policy.getSpec().getIngress();
            if (rules == null) {
                continue;
            }
            for (var rule : rules) {
                List<NetworkPolicyPeer> peers = egress
                        ? ((NetworkPolicyEgressRule) rule).getTo()
                        : ((NetworkPolicyIngressRule) rule).getFrom();
                List<NetworkPolicyPort> ports = egress
                        ? ((NetworkPolicyEgressRule) rule).getPorts()
                        : ((NetworkPolicyIngressRule) rule).getPorts();
                Endpoint target = egress ? other : subject;
                boolean peerOk = peers == null || peers.isEmpty() || peers.stream().anyMatch(p -> peer(p, other,
                        Manifests.NAMESPACE));
                boolean portOk = ports == null || ports.isEmpty() || ports.stream().anyMatch(p -> port(p, target,
                        port, protocol));
                if (peerOk && portOk) {
                    return true;
                }
            }
        }
        return false;
    }

    private static boolean port(NetworkPolicyPort rule, Endpoint target, int port, String protocol) {
        String ruleProtocol = rule.getProtocol() == null ? "TCP" : rule.getProtocol();
        if (!ruleProtocol.equals(protocol)) {
            return false;
        }
        IntOrString p = rule.getPort();
        if (p == null) {
            return true;
        }
        if (p.getIntVal() != null) {
            int end = rule.getEndPort() != null ? rule.getEndPort() : p.getIntVal();
            return port >= p.getIntVal() && port <= end;
        }
        Integer named = target.ports().get(p.getStrVal());
        return target.isPod() && named != null && named == port;
    }

    private static boolean peer(NetworkPolicyPeer peer, Endpoint other, String policyNamespace) {
        if (peer.getIpBlock() != null) {
            if (other.isPod()) {
                return false;
            }
            boolean in = inCidr(other.ip(), peer.getIpBlock().getCidr());
            List<String> except = peer.getIpBlock().getExcept() == null ? List.of() : peer.getIpBlock().getExcept();
            return in && except.stream().noneMatch(c -> inCidr(other.ip(), c));
        }
        if (!other.isPod()) {
            return false;
        }
        boolean namespaceOk = peer.getNamespaceSelector() == null
                ? policyNamespace.equals(other.namespace())
                : matches(peer.getNamespaceSelector(), ns(other.namespace()));
        boolean podOk = peer.getPodSelector() == null || matches(peer.getPodSelector(), other.labels());
        return namespaceOk && podOk;
    }

    static boolean matches(LabelSelector selector, Map<String, String> labels) {
        if (selector == null) {
            return true;
        }
        if (selector.getMatchLabels() != null && !labels.entrySet().containsAll(selector.getMatchLabels()
                .entrySet())) {
            return false;
        }
        if (selector.getMatchExpressions() != null) {
            for (LabelSelectorRequirement r : selector.getMatchExpressions()) {
                String value = labels.get(r.getKey());
                boolean ok = switch (r.getOperator()) {
                    case "In" -> value != null && r.getValues().contains(value);
                    case "NotIn" -> value == null || !r.getValues().contains(value);
                    case "Exists" -> value != null;
                    case "DoesNotExist" -> value == null;
                    default -> throw new AssertionError("unknown operator " + r.getOperator());
                };
                if (!ok) {
                    return false;
                }
            }
        }
        return true;
    }

    static boolean inCidr(String address, String cidr) {
        try {
            String[] parts = cidr.split("/");
            byte[] a = InetAddress.getByName(address).getAddress();
            byte[] n = InetAddress.getByName(parts[0]).getAddress();
            if (a.length != n.length) {
                return false;
            }
            int bits = Integer.parseInt(parts[1]);
            BigInteger mask = bits == 0
                    ? BigInteger.ZERO
                    : BigInteger.ONE.shiftLeft(a.length * 8).subtract(BigInteger.ONE)
                            .shiftRight(a.length * 8 - bits).shiftLeft(a.length * 8 - bits);
            return new BigInteger(1, a).and(mask).equals(new BigInteger(1, n).and(mask));
        } catch (Exception e) {
            throw new AssertionError("bad address or CIDR " + address + " " + cidr, e);
        }
    }
}
