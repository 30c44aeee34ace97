package io.pmedia.deploy.checks;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.FieldSource;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.batch.v1.Job;

/**
 * Migrations run once per rollout in a Job, never in the pods: every service whose code carries Flyway migrations
 * (quarkus.flyway.locations in its application.properties) has a Job that runs the image of its Deployments in Quarkus'
 * init-and-exit mode with migrate-at-start on, as the role of its Deployments; every Deployment runs with
 * migrate-at-start off and validate-at-start on; and the Argo CD sync waves order the database, the Jobs, the
 * Deployments and their autoscalers in that order.
 */
class MigrationJobTest {

    static final List<String> OVERLAYS = Manifests.OVERLAYS;
    static final String WAVE = "argocd.argoproj.io/sync-wave";

    /** What is wrong with how the overlay migrates (empty: nothing). */
    static List<String> problems(Manifests m) {
        List<String> problems = new ArrayList<>();
        List<Job> jobs = m.ofKind("Job").stream().map(o -> TypedModels.bind(o, Job.class)).toList();
        for (ObjectNode node : m.ofKind("Deployment")) {
            Deployment d = TypedModels.bind(node, Deployment.class);
            String name = d.getMetadata().getName();
            Map<String, String> env = NetworkPolicyTest.environment(m, d);
            ServiceConfig config = ServiceConfig.of(name);
            if (config.properties().getProperty("quarkus.flyway.locations") == null) {
                continue;
            }
            if (!"false".equals(env.get("QUARKUS_FLYWAY_MIGRATE_AT_START"))) {
                problems.add(name + " migrates at start");
            }
            if (!"true".equals(env.get("QUARKUS_FLYWAY_VALIDATE_AT_START"))) {
                problems.add(name + " does not validate its schema at start");
            }
            Container c = WorkloadTest.container(d);
            List<Job> migrating = jobs.stream().filter(j -> j.getSpec().getTemplate().getSpec().getContainers().get(0)
                    .getImage().equals(c.getImage())).toList();
            if (migrating.size() != 1) {
                problems.add(name + ": " + migrating.size() + " Jobs run its image " + c.getImage());
                continue;
            }
            Job job = migrating.get(0);
            Container migrate = job.getSpec().getTemplate().getSpec().getContainers().get(0);
            Map<String, String> jobEnv = NetworkPolicyTest.environment(m, migrate);
            if (!"true".equals(jobEnv.get("QUARKUS_INIT_AND_EXIT"))
                    || !"true".equals(jobEnv.get("QUARKUS_FLYWAY_MIGRATE_AT_START"))) {
                problems.add(job.getMetadata().getName() + " does not migrate and exit");
            }
            for (String key : List.of("PMEDIA_DB_USER", "PMEDIA_DB_PASSWORD")) {
                if (!Objects.equals(secretOf(c, key), secretOf(migrate, key))) {
                    problems.add(job.getMetadata().getName() + " connects with another " + key + " than " + name);
                }
            }
            // The same direct session the service's Flyway would use (not PgBouncer's transaction pool).
            String jdbc = config.resolve("quarkus.datasource.jdbc.url", jobEnv, "");
            if (!jdbc.equals(config.resolve("quarkus.datasource.jdbc.url", env, "")) || m.find("Pooler",
                    jdbc.replaceFirst("^jdbc:postgresql://", "").replaceFirst("[:/].*", "")).isPresent()) {
                problems.add(job.getMetadata().getName() + " migrates through " + jdbc);
            }
        }
        // Argo CD: database (and everything else) < Jobs < Deployments < autoscalers.
        int jobs0 = Integer.MAX_VALUE;
        for (Job job : jobs) {
            Map<String, String> a = job.getMetadata().getAnnotations();
            if (a == null || !"Sync".equals(a.get("argocd.argoproj.io/hook"))
                    || !"BeforeHookCreation".equals(a.get("argocd.argoproj.io/hook-delete-policy"))) {
                problems.add(job.getMetadata().getName() + " is no Sync hook re-created on every sync");
            }
            jobs0 = Math.min(jobs0, wave(m.get("Job", job.getMetadata().getName())));
        }
        int jobsMax = jobs.stream().mapToInt(j -> wave(m.get("Job", j.getMetadata().getName()))).max().orElse(0);
        int deploymentsMax = m.ofKind("Deployment").stream().mapToInt(MigrationJobTest::wave).max().orElse(0);
        for (ObjectNode o : m.objects) {
            String kind = o.path("kind").asText();
            int w = wave(o);
            boolean ok = switch (kind) {
                case "Job" -> true;
                case "Deployment" -> w > jobsMax;
                case "HorizontalPodAutoscaler", "ScaledObject" -> m.ofKind("Deployment").stream()
                        .allMatch(d -> wave(d) < w);
                // before the Jobs, or after the whole rollout; what waits for the outside world only after it
                default -> w > Math.max(jobsMax, deploymentsMax) || !waitsForTheOutsideWorld(m, o) && w < jobs0;
            };
            if (!ok) {
                problems.add(Manifests.id(o) + " is in sync wave " + w + " (Jobs " + jobs0 + "-" + jobsMax + ")");
            }
        }
        return problems;
    }

    /**
     * What becomes healthy only when something outside the cluster answers: an Ingress (a load balancer's address), a
     * Certificate whose issuer is not a CA or self-signed Issuer of these objects (ACME: DNS and a challenge through
     * the ingress). Nothing of a rollout may wait behind it.
     */
    static boolean waitsForTheOutsideWorld(Manifests m, JsonNode o) {
        return switch (o.path("kind").asText()) {
            case "Ingress" -> true;
            case "Certificate" -> {
                JsonNode ref = o.path("spec").path("issuerRef");
                var issuer = m.find(ref.path("kind").asText("Issuer"), ref.path("name").asText());
                yield issuer.isEmpty() || !(issuer.get().path("spec").has("ca")
                        || issuer.get().path("spec").has("selfSigned"));
            }
            default -> false;
        };
    }

    private static String secretOf(Container c, String name) {
        return c.getEnv().stream().filter(e -> e.getName().equals(name)).map(EnvVar::getValueFrom)
                .filter(Objects::nonNull).map(v -> v.getSecretKeyRef().getName() + "/" + v.getSecretKeyRef().getKey())
                .findFirst().orElse(null);
    }

    static int wave(JsonNode object) {
        return Integer.parseInt(object.path("metadata").path("annotations").path(WAVE).asText("0"));
    }

    @ParameterizedTest
    @FieldSource("OVERLAYS")
    void migrationsRunInAJobBetweenTheDatabaseAndTheRollout(String overlay) {
        Manifests m = Manifests.of(overlay);
        assertThat(m.ofKind("Job")).as("%s: migration Jobs", overlay).isNotEmpty();
        assertThat(problems(m)).as(overlay).isEmpty();
    }

    @ParameterizedTest
    @FieldSource("OVERLAYS")
    void theJobsPodsAreLockedDownLikeTheServices(String overlay) {
        for (ObjectNode node : Manifests.of(overlay).ofKind("Job")) {
            Job job = TypedModels.bind(node, Job.class);
            String name = job.getMetadata().getName();
            var spec = job.getSpec().getTemplate().getSpec();
            Container c = spec.getContainers().get(0);
            assertThat(spec.getRestartPolicy()).as(name).isEqualTo("Never");
            assertThat(spec.getAutomountServiceAccountToken()).as(name).isFalse();
            assertThat(spec.getSecurityContext().getRunAsNonRoot()).as(name).isTrue();
            assertThat(spec.getSecurityContext().getSeccompProfile().getType()).isEqualTo("RuntimeDefault");
            assertThat(c.getSecurityContext().getReadOnlyRootFilesystem()).as(name).isTrue();
            assertThat(c.getSecurityContext().getAllowPrivilegeEscalation()).as(name).isFalse();
            assertThat(c.getSecurityContext().getCapabilities().getDrop()).as(name).containsExactly("ALL");
            assertThat(c.getResources().getRequests()).as(name).containsKeys("cpu", "memory");
            assertThat(c.getResources().getLimits()).as(name).containsKeys("cpu", "memory");
            assertThat(c.getVolumeMounts()).as(name).anySatisfy(v -> assertThat(v.getMountPath()).isEqualTo("/tmp"));
            assertThat(spec.getVolumes()).as(name).allSatisfy(v -> assertThat(v.getEmptyDir().getSizeLimit())
                    .isNotNull());
            assertThat(job.getSpec().getActiveDeadlineSeconds()).as(name).isNotNull();
        }
    }

    @Test
    void theCheckBites() {
        Manifests prod = Manifests.of("prod");
        // A Deployment that migrates at start again.
        assertThat(problems(prod.changed(objects -> objects.stream()
                .filter(o -> Manifests.id(o).equals("Deployment notifier")).forEach(o -> ((ArrayNode) o
                        .path("spec").path("template").path("spec").path("containers").path(0).path("env"))
                        .addObject().put("name", "QUARKUS_FLYWAY_MIGRATE_AT_START").put("value", "true")))))
                .containsExactly("notifier migrates at start");
        // A service without its Job.
        assertThat(problems(prod.changed(objects -> objects.removeIf(o -> Manifests.id(o).equals(
                "Job batch-migrate"))))).anyMatch(p -> p.startsWith("batch: 0 Jobs run its image"));
        // A Job that connects as another service's role.
        assertThat(problems(prod.changed(objects -> objects.stream().filter(o -> Manifests.id(o).equals(
                "Job vton-migrate")).forEach(
                        o -> o.path("spec").path("template").path("spec").path("containers").path(0).path("env")
                                .forEach(e -> {
                                    if (e.path("name").asText().equals("PMEDIA_DB_USER")) {
                                        ((ObjectNode) e.path("valueFrom").path("secretKeyRef")).set("name",
                                                TextNode.valueOf("pmedia-db-batch"));
                                    }
                                })))))
                .contains("vton-migrate connects with another PMEDIA_DB_USER than vton");
        // A Deployment in the Jobs' wave.
        assertThat(problems(prod.changed(objects -> objects.stream().filter(o -> Manifests.id(o).equals(
                "Deployment gateway")).forEach(o -> ((ObjectNode) o.path("metadata").path("annotations"))
                        .put(WAVE, "1")))))
                .contains("Deployment gateway is in sync wave 1 (Jobs 1-1)");
        // The database after the Jobs.
        assertThat(problems(prod.changed(objects -> objects.stream().filter(o -> Manifests.id(o).equals(
                "Cluster pmedia-db")).forEach(o -> ((ObjectNode) o.path("metadata")).putObject("annotations")
                        .put(WAVE, "2")))))
                .contains("Cluster pmedia-db is in sync wave 2 (Jobs 1-1)");
        // Issue 38: the ACME certificate back in wave 0, ahead of the migrations and the Deployments.
        assertThat(problems(prod.changed(objects -> objects.stream().filter(o -> Manifests.id(o).equals(
                "Certificate pmedia-ingress")).forEach(o -> ((ObjectNode) o.path("metadata").path("annotations"))
                        .put(WAVE, "0")))))
                .containsExactly("Certificate pmedia-ingress is in sync wave 0 (Jobs 1-1)");
        // The namespace's own CA needs nothing from outside: it may come first (dev's public certificate is its).
        assertThat(waitsForTheOutsideWorld(prod, prod.get("Certificate", "gateway-tls"))).isFalse();
        assertThat(waitsForTheOutsideWorld(Manifests.of("dev"), Manifests.of("dev").get("Certificate",
                "pmedia-ingress"))).isFalse();
    }
}
