package io.pmedia.deploy.checks;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.FieldSource;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import io.fabric8.kubernetes.api.model.apps.Deployment;

/**
 * PostgreSQL's connections at the autoscalers' maxima, from the code's pool sizes (application.properties, overridden
 * by a Deployment's environment as Quarkus would) and the rendered objects (replicas, HPA and KEDA maxima, rolling
 * update surge, the Pooler, the Cluster's parameters). The formula is docs/operations.md's ("Connection budget"):
 * <pre>
 * pods(s)    = max replicas of s (HPA / ScaledObject maximum, else spec.replicas) + maxSurge
 * direct     = sum over s of pods(s) x (pool of each of its URLs that names the cluster's rw Service: JDBC max-size,
 *              the reactive max-size when not pooled, 1 for the outbox relay's LISTEN where it runs)
 * pooled     = sum over Poolers of instances x default_pool_size x databases behind it
 * clients    = sum over s of pods(s) x pools that name the Pooler; must fit max_client_conn of one instance
 * direct + pooled &lt;= (max_connections - superuser_reserved_connections - OPERATOR) x HEADROOM
 * </pre>
 */
class ConnectionBudgetTest {

    static final List<String> OVERLAYS = Manifests.OVERLAYS;
    /** The share of the usable connections the services may take: room for operators' sessions and growth. */
    static final double HEADROOM = 0.8;
    /** CloudNativePG's own sessions per instance (instance manager, metrics exporter, health checks). */
    static final int OPERATOR = 10;
    /** Quarkus' default pool size, reactive and JDBC alike. */
    static final String QUARKUS_DEFAULT_POOL = "20";

    record Budget(int direct, int pooled, int clients, int maxClients, int limit, List<String> lines,
            List<String> problems) {
    }

    static Budget budget(Manifests m) {
        JsonNode cluster = m.get("Cluster", "pmedia-db");
        JsonNode parameters = cluster.path("spec").path("postgresql").path("parameters");
        int maxConnections = parameters.path("max_connections").asInt(100);
        int reserved = parameters.path("superuser_reserved_connections").asInt(3);
        int limit = (int) Math.floor((maxConnections - reserved - OPERATOR) * HEADROOM);
        String rw = Manifests.name(cluster) + "-rw";

        int direct = 0;
        int clients = 0;
        Map<String, Set<String>> databasesByPooler = new java.util.TreeMap<>();
        List<String> lines = new ArrayList<>();
        List<String> problems = new ArrayList<>();
        for (ObjectNode node : m.ofKind("Deployment")) {
            Deployment d = TypedModels.bind(node, Deployment.class);
            String workload = d.getMetadata().getName();
            Map<String, String> env = NetworkPolicyTest.environment(m, d);
            if (!env.containsKey("PMEDIA_DB_HOST")) {
                continue;
            }
            ServiceConfig config = ServiceConfig.of(workload);
            int pods = maxReplicas(m, d) + surge(d);
            List<Pool> pools = new ArrayList<>();
            pools.add(new Pool("reactive", config.resolve("quarkus.datasource.reactive.url", env, ""),
                    Integer.parseInt(config.resolve("quarkus.datasource.reactive.max-size", env,
                            QUARKUS_DEFAULT_POOL))));
            pools.add(new Pool("jdbc", config.resolve("quarkus.datasource.jdbc.url", env, "")
                    .replaceFirst("^jdbc:", ""),
                    Integer.parseInt(config.resolve("quarkus.datasource.jdbc.max-size",
                            env, QUARKUS_DEFAULT_POOL))));
            if (config.relaysOutbox()) {
                pools.add(new Pool("listen", config.resolve("pmedia.outbox.listen-url", env,
                        config.resolve("quarkus.datasource.reactive.url", env, "")), 1));
            }
            for (Pool pool : pools) {
                URI uri = URI.create(pool.url());
                String host = uri.getHost();
                String database = uri.getPath().substring(1);
                Optional<ObjectNode> pooler = m.find("Pooler", host);
                if (pooler.isPresent()) {
                    String mode = pooler.get().path("spec").path("pgbouncer").path("poolMode").asText("session");
                    if (!pool.kind().equals("reactive") || !mode.equals("transaction")) {
                        problems.add(workload + ": its " + pool.kind() + " pool needs a session of its own, not "
                                + host + " in " + mode + " mode");
                    }
                    if (!"1".equals(env.get("QUARKUS_DATASOURCE_REACTIVE_POSTGRESQL_PIPELINING_LIMIT"))
                            || !"false".equals(env.get("QUARKUS_DATASOURCE_REACTIVE_CACHE_PREPARED_STATEMENTS"))) {
                        problems.add(workload + ": a reactive pool behind PgBouncer in transaction mode needs"
                                + " pipelining 1 and no client-side prepared-statement cache");
                    }
                    clients += pods * pool.size();
                    databasesByPooler.computeIfAbsent(host, h -> new TreeSet<>()).add(database);
                } else {
                    assertThat(host).as("%s: %s pool's host", workload, pool.kind()).isEqualTo(rw);
                    direct += pods * pool.size();
                }
                lines.add(String.format("%-12s %-8s %3d pods x %3d -> %s", workload, pool.kind(), pods, pool.size(),
                        host));
            }
        }
        // The migration Jobs, one pod each during a rollout: their JDBC pool, straight to PostgreSQL (Flyway).
        for (ObjectNode node : m.ofKind("Job")) {
            var job = TypedModels.bind(node, io.fabric8.kubernetes.api.model.batch.v1.Job.class);
            var container = job.getSpec().getTemplate().getSpec().getContainers().get(0);
            String image = container.getImage();
            ServiceConfig config = ServiceConfig.all().values().stream().filter(c -> image.contains("/" + c.module()
                    + ":") || image.contains("/" + c.module() + "@")).findFirst().orElseThrow(() -> new AssertionError(
                            Manifests.name(node) + " runs no service's image: " + image));
            Map<String, String> env = NetworkPolicyTest.environment(m, container);
            int size = Integer.parseInt(config.resolve("quarkus.datasource.jdbc.max-size", env,
                    QUARKUS_DEFAULT_POOL));
            int parallelism = job.getSpec().getParallelism() == null ? 1 : job.getSpec().getParallelism();
            direct += parallelism * size;
            lines.add(String.format("%-20s jdbc %3d pods x %3d -> %s", Manifests.name(node), parallelism, size, rw));
        }
        int pooled = 0;
        int maxClients = Integer.MAX_VALUE;
        for (var entry : databasesByPooler.entrySet()) {
            JsonNode spec = m.get("Pooler", entry.getKey()).path("spec");
            JsonNode pgbouncer = spec.path("pgbouncer").path("parameters");
            int instances = spec.path("instances").asInt(1);
            int perDatabase = pgbouncer.path("default_pool_size").asInt(20) + pgbouncer.path("reserve_pool_size")
                    .asInt(0);
            pooled += instances * perDatabase * entry.getValue().size();
            maxClients = Math.min(maxClients, pgbouncer.path("max_client_conn").asInt(100));
            lines.add(String.format("%s: %d instances x %d per database x %d databases", entry.getKey(), instances,
                    perDatabase, entry.getValue().size()));
        }
        if (clients > maxClients) {
            problems.add(clients + " client connections at the maxima, max_client_conn " + maxClients);
        }
        if (direct + pooled > limit) {
            problems.add("direct " + direct + " + pooled " + pooled + " = " + (direct + pooled)
                    + " server connections at the maxima, over the budget " + limit + " of max_connections "
                    + maxConnections);
        }
        return new Budget(direct, pooled, clients, maxClients, limit, lines, problems);
    }

    private record Pool(String kind, String url, int size) {
    }

    /** The autoscaler's maximum (HPA or KEDA ScaledObject) of a Deployment, else its replicas. */
    static int maxReplicas(Manifests m, Deployment d) {
        String name = d.getMetadata().getName();
        for (ObjectNode hpa : m.ofKind("HorizontalPodAutoscaler")) {
            if (hpa.path("spec").path("scaleTargetRef").path("name").asText().equals(name)) {
                return hpa.path("spec").path("maxReplicas").asInt();
            }
        }
        for (ObjectNode scaled : m.ofKind("ScaledObject")) {
            if (scaled.path("spec").path("scaleTargetRef").path("name").asText().equals(name)) {
                return scaled.path("spec").path("maxReplicaCount").asInt(100);
            }
        }
        return d.getSpec().getReplicas() == null ? 1 : d.getSpec().getReplicas();
    }

    /** Pods a rolling update adds beyond the replicas. */
    static int surge(Deployment d) {
        var rolling = d.getSpec().getStrategy() == null ? null : d.getSpec().getStrategy().getRollingUpdate();
        if (rolling == null || rolling.getMaxSurge() == null) {
            return 1;
        }
        assertThat(rolling.getMaxSurge().getIntVal()).as("%s: maxSurge as a number", d.getMetadata().getName())
                .isNotNull();
        return rolling.getMaxSurge().getIntVal();
    }

    @ParameterizedTest
    @FieldSource("OVERLAYS")
    void theConnectionsAtTheAutoscalersMaximaFitPostgresWithHeadroom(String overlay) {
        Budget budget = budget(Manifests.of(overlay));
        assertThat(budget.problems()).as("%s connection budget:%n%s", overlay, String.join("\n", budget.lines()))
                .isEmpty();
        assertThat(budget.direct() + budget.pooled()).isPositive().isLessThanOrEqualTo(budget.limit());
    }

    /**
     * The check bites: without the Pooler (every reactive pool straight to PostgreSQL, as before issue 24) the
     * services' pools exceed max_connections at the maxima; and a worker pool made larger than the budget allows
     * fails it too.
     */
    @ParameterizedTest
    @FieldSource("OVERLAYS")
    void theBudgetFailsWithoutThePoolerOrWithALargerPool(String overlay) {
        Manifests withoutPooler = Manifests.of(overlay).changed(objects -> {
            objects.removeIf(o -> o.path("kind").asText().equals("Pooler"));
            objects.stream().filter(o -> o.path("kind").asText().equals("ConfigMap")
                    && o.path("data").has("PMEDIA_DB_HOST")).forEach(o -> ((ObjectNode) o.path("data"))
                            .put("PMEDIA_DB_HOST", "pmedia-db-rw"));
        });
        if (overlay.equals("prod")) {
            assertThat(budget(withoutPooler).problems()).anySatisfy(p -> assertThat(p).contains("over the budget"));
        }

        Manifests largerWorkerPool = Manifests.of(overlay).changed(objects -> objects.stream()
                .filter(o -> Manifests.id(o).equals("Deployment media-worker")).forEach(o -> ((ObjectNode) o
                        .path("spec").path("template").path("spec").path("containers").path(0).path("env").path(0))
                        .put("name", "QUARKUS_DATASOURCE_JDBC_MAX_SIZE").put("value", "100")));
        assertThat(budget(largerWorkerPool).problems()).anySatisfy(p -> assertThat(p).contains("over the budget"));

        // Issue 38: a migration Job with a 100-connection pool.
        Manifests largerJobPool = Manifests.of(overlay).changed(objects -> objects.stream()
                .filter(o -> Manifests.id(o).equals("Job media-migrate")).forEach(o -> o.path("spec").path("template")
                        .path("spec").path("containers").path(0).path("env").forEach(e -> {
                            if (e.path("name").asText().equals("QUARKUS_DATASOURCE_JDBC_MAX_SIZE")) {
                                ((ObjectNode) e).put("value", "100");
                            }
                        })));
        assertThat(budget(largerJobPool).problems()).anySatisfy(p -> assertThat(p).contains("over the budget"));
    }
}
