package io.pmedia.deploy.checks;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.StringReader;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.FieldSource;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.apps.Deployment;

/**
 * Every setting a service reads in production is provided by its rendered Deployment or has a default that works in a
 * cluster. For every workload (each service, each role), from its application.properties as the prod profile sees it
 * (the {@code %prod.} lines over the others, its role's lines over both) and the Deployment's environment (its
 * ConfigMaps, literal variables and Secret references):
 * <ul>
 * <li>a {@code ${VARIABLE}} without a default must be set;</li>
 * <li>a variable the overlay's shared configuration provides (a key of a rendered ConfigMap) must reach every
 * workload that reads it: a default there is the local stack's, not the cluster's (issue 38: the gateway read
 * PMEDIA_S3_ENDPOINT for its console and did not get pmedia-s3);</li>
 * <li>no setting resolves to a loopback address (the local stack's defaults).</li>
 * </ul>
 */
class SettingsTest {

    static final List<String> OVERLAYS = Manifests.OVERLAYS;
    static final Pattern VARIABLE = Pattern.compile("\\$\\{([A-Z][A-Z0-9_]*)(:)?");
    static final Pattern LOOPBACK = Pattern.compile("(?<![\\w.-])(127\\.0\\.0\\.1|localhost|\\[::1\\])(?![\\w.-])");

    /** The properties as the prod profile reads them: role lines over %prod lines over the rest. */
    static Properties prodProperties(ServiceConfig config) {
        Properties raw = new Properties();
        try {
            raw.load(new StringReader(Manifests.read(Manifests.root().resolve(config.module())
                    .resolve("src/main/resources/application.properties"))));
        } catch (IOException e) {
            throw new AssertionError(e);
        }
        Properties merged = new Properties();
        merged.putAll(config.properties());
        raw.stringPropertyNames().stream().filter(k -> k.startsWith("%prod."))
                .forEach(k -> merged.setProperty(k.substring("%prod.".length()), raw.getProperty(k)));
        // the role's own lines win again (ServiceConfig merged them over the plain ones)
        Properties plain = new Properties();
        try {
            plain.load(new StringReader(Manifests.read(Manifests.root().resolve(config.module())
                    .resolve("src/main/resources/application.properties"))));
        } catch (IOException e) {
            throw new AssertionError(e);
        }
        config.properties().stringPropertyNames().stream().filter(k -> !config.properties().getProperty(k)
                .equals(plain.getProperty(k))).forEach(k -> merged.setProperty(k, config.properties().getProperty(k)));
        return merged;
    }

    /** The variables a container sees: ConfigMaps', literal ones, and Secret references (their value unknown). */
    static Map<String, String> variables(Manifests m, Container c) {
        Map<String, String> env = new HashMap<>(NetworkPolicyTest.environment(m, c));
        c.getEnv().stream().filter(e -> e.getValueFrom() != null).forEach(e -> env.put(e.getName(), "<secret>"));
        return env;
    }

    /** Variable -> the ConfigMaps of the overlay that provide it. */
    static Map<String, List<String>> provided(Manifests m) {
        Map<String, List<String>> provided = new TreeMap<>();
        for (ObjectNode cm : m.ofKind("ConfigMap")) {
            cm.path("data").fieldNames().forEachRemaining(k -> provided.computeIfAbsent(k, x -> new ArrayList<>())
                    .add(Manifests.name(cm).replaceFirst("-[a-z0-9]{10}$", "")));
        }
        return provided;
    }

    static List<String> problems(Manifests m) {
        List<String> problems = new ArrayList<>();
        Map<String, List<String>> provided = provided(m);
        for (ObjectNode node : m.ofKind("Deployment")) {
            Deployment d = TypedModels.bind(node, Deployment.class);
            String name = d.getMetadata().getName();
            ServiceConfig config = ServiceConfig.of(name);
            Container c = WorkloadTest.container(d);
            Map<String, String> env = variables(m, c);
            Properties properties = prodProperties(config);
            for (String key : new TreeMap<>(properties).keySet().stream().map(Object::toString).toList()) {
                if (key.startsWith("%")) {
                    continue;
                }
                String value = properties.getProperty(key);
                Matcher v = VARIABLE.matcher(value);
                while (v.find()) {
                    String variable = v.group(1);
                    if (env.containsKey(variable)) {
                        continue;
                    }
                    if (v.group(2) == null) {
                        problems.add(name + ": " + key + " reads ${" + variable + "}, which has no default and is not"
                                + " set");
                    } else if (provided.containsKey(variable)) {
                        problems.add(name + ": " + key + " reads " + variable + ", which " + provided.get(variable)
                                + " provide(s) and its Deployment does not take");
                    }
                }
                String resolved = config.resolve(key, env, "");
                Matcher loopback = LOOPBACK.matcher(resolved);
                if (loopback.find()) {
                    problems.add(name + ": " + key + " resolves to " + resolved + " (the local stack's default)");
                }
            }
        }
        return problems;
    }

    @ParameterizedTest
    @FieldSource("OVERLAYS")
    void everySettingTheCodeReadsIsProvidedOrHasAClusterDefault(String overlay) {
        assertThat(problems(Manifests.of(overlay))).as(overlay).isEmpty();
    }

    /** Issue 38's gateway without the object store's settings: its console's media origin is gone. */
    @Test
    void theCheckBites() {
        Manifests prod = Manifests.of("prod");
        Manifests noS3 = prod.changed(objects -> objects.stream().filter(o -> Manifests.id(o).equals(
                "Deployment gateway")).forEach(o -> {
                    ArrayNode from = (ArrayNode) o.at("/spec/template/spec/containers/0/envFrom");
                    for (int i = 0; i < from.size(); i++) {
                        if (from.get(i).path("configMapRef").path("name").asText().startsWith("pmedia-s3")) {
                            from.remove(i);
                            return;
                        }
                    }
                    throw new AssertionError("the gateway takes no pmedia-s3");
                }));
        assertThat(problems(noS3)).containsExactly("gateway: pmedia.gateway.console.media-base-url reads"
                + " PMEDIA_S3_ENDPOINT, which [pmedia-s3] provide(s) and its Deployment does not take");
        // A service that loses its database settings falls back to the local stack's 127.0.0.1.
        Manifests noDatabase = prod.changed(objects -> objects.stream().filter(o -> Manifests.id(o).equals(
                "Deployment campaign")).forEach(o -> {
                    ArrayNode from = (ArrayNode) o.at("/spec/template/spec/containers/0/envFrom");
                    for (int i = 0; i < from.size(); i++) {
                        if (from.get(i).path("configMapRef").path("name").asText().startsWith("pmedia-database")) {
                            from.remove(i);
                            return;
                        }
                    }
                }));
        assertThat(problems(noDatabase)).anyMatch(p -> p.startsWith("campaign: quarkus.datasource.reactive.url "
                + "resolves to postgresql://127.0.0.1"));
    }
}
