package io.pmedia.deploy.checks;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.FieldSource;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.json.JsonMapper;

import io.fabric8.openshift.api.model.monitoring.v1.PrometheusRule;
import io.fabric8.openshift.api.model.monitoring.v1.ServiceMonitor;

/** Every pmedia Service is scraped, every alert has its runbook, and the dashboard is valid and shipped. */
class ObservabilityTest {

    static final List<String> OVERLAYS = Manifests.OVERLAYS;

    @ParameterizedTest
    @FieldSource("OVERLAYS")
    void theServiceMonitorScrapesEveryServicesManagementPort(String overlay) {
        Manifests m = Manifests.of(overlay);
        ServiceMonitor monitor = TypedModels.bind(m.get("ServiceMonitor", "pmedia"), ServiceMonitor.class);
        assertThat(monitor.getSpec().getEndpoints()).singleElement().satisfies(e -> {
            assertThat(e.getPort()).isEqualTo("management");
            assertThat(e.getPath()).isEqualTo("/q/metrics");
        });
        var selector = monitor.getSpec().getSelector().getMatchLabels();
        assertThat(m.ofKind("Service")).allSatisfy(s -> assertThat(JsonMapper.builder().build()
                .convertValue(s.path("metadata").path("labels"), java.util.Map.class)).containsAllEntriesOf(selector));
    }

    @ParameterizedTest
    @FieldSource("OVERLAYS")
    void everyAlertHasARunbookSectionInOperationsMd(String overlay) {
        String doc = Manifests.read(Manifests.root().resolve("docs/operations.md"));
        Set<String> sections = new TreeSet<>();
        Matcher heading = Pattern.compile("(?m)^### (\\S+)$").matcher(doc);
        while (heading.find()) {
            sections.add(heading.group(1).toLowerCase(Locale.ROOT));
        }
        PrometheusRule rule = TypedModels.bind(Manifests.of(overlay).get("PrometheusRule", "pmedia"),
                PrometheusRule.class);
        var rules = rule.getSpec().getGroups().stream().flatMap(g -> g.getRules().stream()).toList();
        assertThat(rules).hasSizeGreaterThanOrEqualTo(8).allSatisfy(r -> {
            assertThat(r.getAlert()).isNotBlank();
            assertThat(r.getLabels()).containsKey("severity");
            String runbook = r.getAnnotations().get("runbook_url");
            assertThat(runbook).as(r.getAlert()).contains("docs/operations.md#" + r.getAlert().toLowerCase());
            assertThat(sections).as("docs/operations.md has a section for %s", r.getAlert())
                    .contains(r.getAlert().toLowerCase(Locale.ROOT));
        });
    }

    @ParameterizedTest
    @FieldSource("OVERLAYS")
    void theDashboardIsShippedAsValidGrafanaJson(String overlay) throws Exception {
        JsonNode configMap = Manifests.of(overlay).get("ConfigMap", "pmedia-grafana-dashboard");
        assertThat(configMap.path("metadata").path("labels").path("grafana_dashboard").asText()).isEqualTo("1");
        JsonNode dashboard = JsonMapper.builder().build().readTree(configMap.path("data")
                .path("pmedia-dashboard.json").asText());
        assertThat(dashboard.path("uid").asText()).isEqualTo("pmedia-overview");
        assertThat(dashboard.path("panels")).hasSizeGreaterThanOrEqualTo(10).allSatisfy(panel -> {
            assertThat(panel.path("title").asText()).isNotBlank();
            assertThat(panel.path("targets")).isNotEmpty()
                    .allSatisfy(t -> assertThat(t.path("expr").asText()).isNotBlank());
        });
    }

    /**
     * Every pmedia metric an alert or the dashboard reads is one the code registers: the Prometheus name without its
     * suffixes ({@code _total}, {@code _seconds}, {@code _bucket}, {@code _count}, {@code _sum}) is a Micrometer name
     * ({@code pmedia_render_duration_seconds_bucket} is {@code "pmedia.render.duration"}) written in a service.
     */
    @Test
    void everyMetricTheAlertsAndTheDashboardReadIsRegisteredByTheCode() throws Exception {
        Path observability = Manifests.root().resolve("deploy/k8s/base/observability");
        Set<String> used = new TreeSet<>();
        try (var files = Files.list(observability)) {
            for (Path file : files.toList()) {
                Matcher metric = Pattern.compile("pmedia_[a-z_]+").matcher(Files.readString(file));
                while (metric.find()) {
                    used.add(metric.group());
                }
            }
        }
        StringBuilder code = new StringBuilder();
        try (var sources = Files.walk(Manifests.root())) {
            for (Path source : sources
                    .filter(f -> f.toString().endsWith(".java") && f.toString().contains("/src/main/"))
                    .toList()) {
                code.append(Files.readString(source));
            }
        }
        assertThat(used).isNotEmpty().allSatisfy(name -> {
            String base = name.replaceAll("(_bucket|_count|_sum)$", "").replaceAll("(_total|_seconds)$", "");
            assertThat(code.toString()).as("%s is registered as \"%s\"", name, base.replace('_', '.'))
                    .contains("\"" + base.replace('_', '.') + "\"");
        });
    }
}
