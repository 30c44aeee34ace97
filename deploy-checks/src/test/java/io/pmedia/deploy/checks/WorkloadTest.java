package io.pmedia.deploy.checks;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.FieldSource;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerPort;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.Probe;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServiceAccount;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;

/**
 * Every Deployment as the services' code needs it: probes on the health paths of its management port (the port its
 * application.properties names), requests and limits, a Service and a PodDisruptionBudget that select exactly its
 * pods, spread over zones and nodes, locked down, and a grace period that fits its work.
 */
class WorkloadTest {

    static final List<String> OVERLAYS = Manifests.OVERLAYS;

    private static List<Deployment> deployments(Manifests m) {
        return m.ofKind("Deployment").stream().map(o -> TypedModels.bind(o, Deployment.class)).toList();
    }

    @ParameterizedTest
    @FieldSource("OVERLAYS")
    void everyWorkloadOfTheCodeIsDeployed(String overlay) {
        assertThat(deployments(Manifests.of(overlay))).extracting(d -> d.getMetadata().getName())
                .containsExactlyInAnyOrderElementsOf(ServiceConfig.all().keySet());
    }

    @ParameterizedTest
    @FieldSource("OVERLAYS")
    void probesAskTheHealthPathsOnTheManagementPortOfTheCode(String overlay) {
        for (Deployment d : deployments(Manifests.of(overlay))) {
            Container c = container(d);
            int management = ServiceConfig.of(d.getMetadata().getName()).managementPort();
            assertThat(port(c, "management")).as("%s: management port", d.getMetadata().getName())
                    .contains(management);
            assertProbe(d, c.getStartupProbe(), "/q/health/started", management);
            assertProbe(d, c.getLivenessProbe(), "/q/health/live", management);
            assertProbe(d, c.getReadinessProbe(), "/q/health/ready", management);
            port(c, "http").ifPresent(http -> assertThat(http).as("%s: HTTP port", d.getMetadata().getName())
                    .isEqualTo(ServiceConfig.of(d.getMetadata().getName()).httpPort()));
        }
    }

    private static void assertProbe(Deployment d, Probe probe, String path, int managementPort) {
        String what = d.getMetadata().getName() + " probe " + path;
        assertThat(probe).as(what).isNotNull();
        assertThat(probe.getHttpGet()).as(what).isNotNull();
        assertThat(probe.getHttpGet().getPath()).as(what).isEqualTo(path);
        assertThat(resolve(container(d), probe.getHttpGet().getPort())).as(what).contains(managementPort);
    }

    @ParameterizedTest
    @FieldSource("OVERLAYS")
    void everyContainerHasRequestsAndLimits(String overlay) {
        for (Deployment d : deployments(Manifests.of(overlay))) {
            var resources = container(d).getResources();
            assertThat(resources.getRequests()).as(d.getMetadata().getName()).containsKeys("cpu", "memory");
            assertThat(resources.getLimits()).as(d.getMetadata().getName()).containsKeys("cpu", "memory");
        }
    }

    @ParameterizedTest
    @FieldSource("OVERLAYS")
    void aServiceAndABudgetSelectExactlyEachDeploymentsPods(String overlay) {
        Manifests m = Manifests.of(overlay);
        List<Service> services = m.ofKind("Service").stream().map(o -> TypedModels.bind(o, Service.class)).toList();
        List<PodDisruptionBudget> budgets = m.ofKind("PodDisruptionBudget").stream()
                .map(o -> TypedModels.bind(o, PodDisruptionBudget.class)).toList();
        for (Deployment d : deployments(m)) {
            String name = d.getMetadata().getName();
            Map<String, String> pod = d.getSpec().getTemplate().getMetadata().getLabels();
            Map<String, String> selector = d.getSpec().getSelector().getMatchLabels();
            assertThat(pod).as("%s: its selector matches its pods", name).containsAllEntriesOf(selector);
            assertThat(d.getSpec().getSelector().getMatchExpressions()).as(name).isNullOrEmpty();

            List<Service> mine = services.stream().filter(s -> pod.entrySet().containsAll(
                    s.getSpec().getSelector().entrySet())).toList();
            assertThat(mine).as("%s: exactly one Service selects its pods", name).hasSize(1);
            Service service = mine.get(0);
            assertThat(service.getSpec().getSelector()).as("%s: the Service selects what the Deployment does", name)
                    .isEqualTo(selector);
            for (var sp : service.getSpec().getPorts()) {
                assertThat(resolve(container(d), sp.getTargetPort())).as("%s: Service port %s", name, sp.getName())
                        .isPresent();
            }
            assertThat(service.getSpec().getPorts()).as("%s: its Service exposes the management port", name)
                    .anySatisfy(sp -> assertThat(sp.getName()).isEqualTo("management"));

            assertThat(budgets).as("%s: a PodDisruptionBudget with its selector", name)
                    .filteredOn(b -> selector.equals(b.getSpec().getSelector().getMatchLabels())).hasSize(1);
        }
    }

    @ParameterizedTest
    @FieldSource("OVERLAYS")
    void podsAreSpreadLockedDownAndCarryNoApiToken(String overlay) {
        Manifests m = Manifests.of(overlay);
        for (Deployment d : deployments(m)) {
            String name = d.getMetadata().getName();
            PodSpec spec = d.getSpec().getTemplate().getSpec();
            assertThat(spec.getTopologySpreadConstraints()).as(name)
                    .extracting(t -> t.getTopologyKey())
                    .contains("topology.kubernetes.io/zone", "kubernetes.io/hostname");
            assertThat(spec.getAutomountServiceAccountToken()).as(name).isFalse();
            ServiceAccount account = TypedModels.bind(m.get("ServiceAccount", spec.getServiceAccountName()),
                    ServiceAccount.class);
            assertThat(account.getAutomountServiceAccountToken()).as(name).isFalse();
            assertThat(spec.getSecurityContext().getRunAsNonRoot()).as(name).isTrue();
            assertThat(spec.getSecurityContext().getSeccompProfile().getType()).isEqualTo("RuntimeDefault");
            var security = container(d).getSecurityContext();
            assertThat(security.getReadOnlyRootFilesystem()).as(name).isTrue();
            assertThat(security.getAllowPrivilegeEscalation()).as(name).isFalse();
            assertThat(security.getCapabilities().getDrop()).as(name).containsExactly("ALL");
            // A read-only root: the JVM and the renders write to /tmp only, an emptyDir with a size bound.
            assertThat(container(d).getVolumeMounts()).as(name)
                    .anySatisfy(v -> assertThat(v.getMountPath()).isEqualTo("/tmp"));
            String tmp = container(d).getVolumeMounts().stream().filter(v -> "/tmp".equals(v.getMountPath()))
                    .findFirst().orElseThrow().getName();
            assertThat(spec.getVolumes()).as(name).anySatisfy(v -> {
                assertThat(v.getName()).isEqualTo(tmp);
                assertThat(v.getEmptyDir().getSizeLimit()).isNotNull();
            });
        }
    }

    @ParameterizedTest
    @FieldSource("OVERLAYS")
    void renderWorkersGetTheTimeToFinishARender(String overlay) {
        Deployment workers = TypedModels.bind(Manifests.of(overlay).get("Deployment", "media-worker"),
                Deployment.class);
        long limit = ServiceConfig.of("media-worker").renderTimeLimit().toSeconds();
        assertThat(workers.getSpec().getTemplate().getSpec().getTerminationGracePeriodSeconds())
                .as("a render takes up to %d s, then its upload", limit).isGreaterThan(limit);
        assertThat(container(workers).getEnv()).anySatisfy(e -> {
            assertThat(e.getName()).isEqualTo("PMEDIA_MEDIA_ROLE");
            assertThat(e.getValue()).isEqualTo("worker");
        });
        assertThat(container(TypedModels.bind(Manifests.of(overlay).get("Deployment", "media-api"),
                Deployment.class)).getEnv()).anySatisfy(e -> {
                    assertThat(e.getName()).isEqualTo("PMEDIA_MEDIA_ROLE");
                    assertThat(e.getValue()).isEqualTo("api");
                });
    }

    static Container container(Deployment d) {
        List<Container> containers = d.getSpec().getTemplate().getSpec().getContainers();
        assertThat(containers).as(d.getMetadata().getName()).hasSize(1);
        return containers.get(0);
    }

    static Optional<Integer> port(Container c, String name) {
        return c.getPorts().stream().filter(p -> name.equals(p.getName())).map(ContainerPort::getContainerPort)
                .findFirst();
    }

    static Optional<Integer> resolve(Container c, IntOrString port) {
        if (port == null) {
            return Optional.empty();
        }
        if (port.getIntVal() != null) {
            return c.getPorts().stream().map(ContainerPort::getContainerPort).filter(port.getIntVal()::equals)
                    .findFirst();
        }
        return port(c, port.getStrVal());
    }
}
